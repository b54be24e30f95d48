/**
 * TanStack Query's core (not normalized: the baseline). The list is one query entry; a changed User must be
 * written by the app into every entry that embeds it (`setQueryData` with a map that keeps untouched rows).
 * Observers are `QueryObserver`s; notifications are flushed on a microtask (`notifyManager.setScheduler`)
 * instead of the default `setTimeout(0)`, so the fan-out time is not a timer's latency.
 */
import { QueryClient, QueryObserver, notifyManager } from '@tanstack/query-core';
import type { ArticleJson, UserJson } from '../data.js';
import { STREAMS } from '../batchWrites.js';
import { contains, main, type ArticleView, type FanOut, type Peer } from '../harness.js';

notifyManager.setScheduler(queueMicrotask);

let requests = 0;
const queryFn = (): Promise<never> => {
  requests++;
  return Promise.reject(new Error('the benchmark must not fetch'));
};
const newClient = () =>
  new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, gcTime: Infinity, queryFn } } });

/** The app's update: a new article (and comment) wherever the User appears, the same object elsewhere. */
function withUser(article: ArticleJson, user: UserJson): ArticleJson {
  if (!contains(article, user.id)) return article;
  return {
    ...article,
    author: article.author.id === user.id ? user : article.author,
    comments: article.comments.map((comment) =>
      comment.author.id === user.id ? { ...comment, author: user } : comment,
    ),
  };
}

const readList = (client: QueryClient) => client.getQueryData<ArticleView[]>(['articles'])!;

const tanstack: Peer<QueryClient> = {
  name: '@tanstack/query-core 5',
  keepsIdentity: true,
  write(input) {
    const client = newClient();
    client.setQueryData(['articles'], input);
    return client;
  },
  firstRead: readList,
  read: readList,
  writeUser(client, user) {
    client.setQueryData<ArticleJson[]>(['articles'], (list) => list?.map((article) => withUser(article, user)));
    return client;
  },
  writeArticle(client, written) {
    // the list entry with that one article replaced (the other rows kept)
    client.setQueryData<ArticleJson[]>(['articles'], (list) =>
      list?.map((article) => (article.id === written.id ? written : article)),
    );
    return client;
  },
  singleWrites(users) {
    // not normalized: the app writes the user's own entry and the list entry that embeds it
    const client = newClient();
    client.setQueryData(['users'], users);
    for (const user of users) client.setQueryData(['user', user.id], user);
    return (user) => {
      client.setQueryData(['user', user.id], user);
      client.setQueryData<UserJson[]>(['users'], (list) => list?.map((u) => (u.id === user.id ? user : u)));
    };
  },
  // not normalized: a changed user is written into the page entry that holds it (setQueryData per row, as
  // its docs update one record); notifyManager.batch is TanStack's way to coalesce the notifications
  batchWrites: {
    modes: {
      loop: 'TanStack setQueryData per row',
      batched: 'TanStack setQueryData per row in notifyManager.batch',
    },
    store(users) {
      const client = newClient();
      const pages = users.length / STREAMS;
      const pageOf = new Map(users.map((user, i) => [user.id, Math.floor(i / pages)]));
      for (let page = 0; page < STREAMS; page++)
        client.setQueryData(['users', page], users.slice(page * pages, page * pages + pages));
      const writeRow = (row: UserJson) =>
        client.setQueryData<UserJson[]>(['users', pageOf.get(row.id)], (list) =>
          list?.map((user) => (user.id === row.id ? { ...user, ...row } : user)),
        );
      return {
        subscribe(page, _size, emit) {
          const observer = new QueryObserver<UserJson[]>(client, { queryKey: ['users', page] });
          return observer.subscribe((result) => emit(result.data!.map((user) => user.name)));
        },
        write(mode, rows) {
          if (mode === 'batched') notifyManager.batch(() => rows.forEach(writeRow));
          else rows.forEach(writeRow);
        },
        verify() {
          if (requests > 0) throw new Error(`tanstack: ${requests} requests went out`);
        },
      };
    },
  },
  fanOut(articles: ArticleJson[]): FanOut {
    const client = newClient();
    client.setQueryData(['articles'], articles);
    for (const article of articles) client.setQueryData(['article', article.id], article);
    return {
      subscribe(id, emit) {
        const observer = new QueryObserver(client, { queryKey: ['article', id] });
        return observer.subscribe(() => emit());
      },
      writeUser(user) {
        client.setQueryData<ArticleJson[]>(['articles'], (list) => list?.map((article) => withUser(article, user)));
        for (const query of client.getQueryCache().findAll({ queryKey: ['article'] })) {
          const article = query.state.data as ArticleJson;
          if (contains(article, user.id)) client.setQueryData(query.queryKey, withUser(article, user));
        }
      },
      verify() {
        if (requests > 0) throw new Error(`tanstack: ${requests} requests went out`);
      },
    };
  },
};

await main(tanstack as Peer);
