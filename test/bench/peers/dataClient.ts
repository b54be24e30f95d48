/**
 * Reactive Data Client 0.10 (@data-client/core 0.10 + @data-client/rest 0.9.9, the newest consistent set the
 * registry holds: core 0.10 runs @data-client/normalizr 0.10, whose schema interface endpoint 0.9.9 implements).
 * The store is what its React provider does without React: the reducer from `createReducer(controller)`
 * behind a synchronous dispatch; reads are `controller.getResponse(endpoint, state)` (the hooks' read).
 */
import { Controller, createReducer, initialState, type State } from '@data-client/core';
import { Entity, RestEndpoint } from '@data-client/rest';
import type { ArticleJson, UserJson } from '../data.js';
import { STREAMS } from '../batchWrites.js';
import { main, type ArticleView, type FanOut, type Peer } from '../harness.js';

class User extends Entity {
  id = '';
  username = '';
  name = '';
  email = '';
  bio = '';
  avatarUrl = '';
  location = '';
  followers = 0;
  verified = false;
  joinedAt = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

class Comment extends Entity {
  id = '';
  articleId = 0;
  body = '';
  likes = 0;
  flagged = false;
  edited = false;
  createdAt = '';
  updatedAt = '';
  author = User.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Comment';
  static override schema = { author: User };
}

class Article extends Entity {
  id = 0;
  title = '';
  slug = '';
  summary = '';
  body = '';
  status = '';
  views = 0;
  likes = 0;
  published = false;
  createdAt = '';
  updatedAt = '';
  author = User.fromJS();
  comments: Comment[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'Article';
  static override schema = { author: User, comments: [Comment] };
}

let requests = 0;
const offline = {
  urlPrefix: 'http://data-client-bench.invalid',
  fetchResponse(): Promise<Response> {
    requests++;
    return Promise.reject(new Error('the benchmark must not fetch'));
  },
};
const getArticles = new RestEndpoint({ ...offline, path: '/articles', schema: [Article] });
const getArticle = new RestEndpoint({ ...offline, path: '/articles/:id', schema: Article });
const getUser = new RestEndpoint({ ...offline, path: '/users/:id', schema: User });
const getUsers = new RestEndpoint({ ...offline, path: '/users', schema: [User] });
const getUserPage = new RestEndpoint({
  ...offline,
  path: '/users',
  searchParams: {} as { page: number },
  schema: [User],
});

/** The data-client store without React: reducer + synchronous dispatch + listeners. */
class Store {
  state: State<unknown> = initialState as State<unknown>;
  readonly listeners = new Set<() => void>();
  readonly controller: Controller = new Controller({
    dispatch: (action) => {
      this.state = this.reducer(this.state, action);
      for (const listener of this.listeners) listener();
      return Promise.resolve();
    },
    getState: () => this.state,
  });
  private readonly reducer = createReducer(this.controller);
}

const readList = (store: Store) =>
  store.controller.getResponse(getArticles, store.state).data as unknown as readonly ArticleView[];

const dataClient: Peer<Store> = {
  name: '@data-client/core 0.10',
  keepsIdentity: true,
  write(input) {
    const store = new Store();
    void store.controller.setResponse(getArticles, input);
    return store;
  },
  firstRead: readList,
  read: readList,
  writeUser(store, user: UserJson) {
    void store.controller.setResponse(getUser, { id: user.id }, user);
    return store;
  },
  writeArticle(store, article: ArticleJson) {
    void store.controller.setResponse(getArticle, { id: article.id }, article);
    return store;
  },
  singleWrites(users) {
    const store = new Store();
    void store.controller.setResponse(getUsers, users);
    return (user) => void store.controller.setResponse(getUser, { id: user.id }, user);
  },
  // 0.10 has no controller.set(Entity, ...): its write of records without a request is setResponse, of an
  // entity endpoint per row, or of a [User] endpoint for all rows at once
  batchWrites: {
    modes: {
      batch: 'data-client setResponse([User] endpoint, rows)',
      loop: 'data-client setResponse(User endpoint, row) per row',
    },
    store(users) {
      const store = new Store();
      const pages = users.length / STREAMS;
      for (let page = 0; page < STREAMS; page++)
        void store.controller.setResponse(getUserPage, { page }, users.slice(page * pages, page * pages + pages));
      return {
        // what each useSuspense(getUserPage, { page }) does on a store change
        subscribe(page, _size, emit) {
          const read = () => store.controller.getResponse(getUserPage, { page }, store.state).data as User[];
          let last = read();
          const listener = () => {
            const data = read();
            if (data !== last) {
              last = data;
              emit(data.map((user) => user.name));
            }
          };
          store.listeners.add(listener);
          return () => store.listeners.delete(listener);
        },
        write(mode, rows) {
          if (mode === 'batch') void store.controller.setResponse(getUsers, rows);
          else for (const row of rows) void store.controller.setResponse(getUser, { id: row.id }, row);
        },
        verify() {
          if (requests > 0) throw new Error(`data-client: ${requests} requests went out`);
        },
      };
    },
  },
  fanOut(articles: ArticleJson[]): FanOut {
    const store = new Store();
    void store.controller.setResponse(getArticles, articles);
    for (const article of articles) void store.controller.setResponse(getArticle, { id: article.id }, article);
    return {
      // what each useSuspense(getArticle, { id }) does on a store change: getResponse, re-render if the data changed
      subscribe(id, emit) {
        let last = store.controller.getResponse(getArticle, { id }, store.state).data;
        const listener = () => {
          const data = store.controller.getResponse(getArticle, { id }, store.state).data;
          if (data !== last) {
            last = data;
            emit();
          }
        };
        store.listeners.add(listener);
        return () => store.listeners.delete(listener);
      },
      writeUser(user) {
        void store.controller.setResponse(getUser, { id: user.id }, user);
      },
      verify() {
        if (requests > 0) throw new Error(`data-client: ${requests} requests went out`);
      },
    };
  },
};

await main(dataClient as Peer);
