/**
 * Apollo Client 4's normalized `InMemoryCache` on its own (no link, no client): `writeQuery` to write,
 * `readQuery` to read (result caching on, the default), `writeFragment` for the changed User, `cache.watch`
 * for the live queries. The response gets its `__typename`s before the timed write (a GraphQL server sends them).
 */
import { InMemoryCache, gql } from '@apollo/client';
import type { ArticleJson, UserJson } from '../data.js';
import { main, type ArticleView, type FanOut, type Peer } from '../harness.js';

const USER_FIELDS = gql`
  fragment UserFields on User {
    __typename
    id
    username
    name
    email
    bio
    avatarUrl
    location
    followers
    verified
    joinedAt
  }
`;
const ARTICLE_FIELDS = gql`
  fragment ArticleFields on Article {
    __typename
    id
    title
    slug
    summary
    body
    status
    views
    likes
    published
    createdAt
    updatedAt
    author {
      ...UserFields
    }
    comments {
      __typename
      id
      articleId
      body
      likes
      flagged
      edited
      createdAt
      updatedAt
      author {
        ...UserFields
      }
    }
  }
  ${USER_FIELDS}
`;
const ARTICLES = gql`
  query Articles {
    articles {
      ...ArticleFields
    }
  }
  ${ARTICLE_FIELDS}
`;
const ARTICLE = gql`
  query Article($id: Int!) {
    article(id: $id) {
      ...ArticleFields
    }
  }
  ${ARTICLE_FIELDS}
`;

/** Adds the `__typename`s a GraphQL response carries (in place: the input is a fresh parse). */
function typed(articles: ArticleJson[]): ArticleJson[] {
  const user = (value: UserJson) => Object.assign(value, { __typename: 'User' });
  for (const article of articles) {
    Object.assign(article, { __typename: 'Article' });
    user(article.author);
    for (const comment of article.comments) {
      Object.assign(comment, { __typename: 'Comment' });
      user(comment.author);
    }
  }
  return articles;
}

const readList = (cache: InMemoryCache) => cache.readQuery<{ articles: ArticleView[] }>({ query: ARTICLES })!.articles;

function writeUser(cache: InMemoryCache, user: UserJson): void {
  cache.writeFragment({
    id: cache.identify({ __typename: 'User', id: user.id }),
    fragment: USER_FIELDS,
    data: { ...user, __typename: 'User' },
  });
}

const apollo: Peer<InMemoryCache> = {
  name: '@apollo/client 4 InMemoryCache',
  keepsIdentity: true,
  prepare: typed,
  write(input) {
    const cache = new InMemoryCache();
    cache.writeQuery({ query: ARTICLES, data: { articles: input } });
    return cache;
  },
  firstRead: readList,
  read: readList,
  writeUser(cache, user) {
    writeUser(cache, user);
    return cache;
  },
  writeArticle(cache, article) {
    cache.writeQuery({ query: ARTICLE, variables: { id: article.id }, data: { article } });
    return cache;
  },
  singleWrites(users) {
    const cache = new InMemoryCache();
    for (const user of users) writeUser(cache, user);
    return (user) => writeUser(cache, user);
  },
  fanOut(articles: ArticleJson[]): FanOut {
    const cache = new InMemoryCache();
    typed(articles);
    cache.writeQuery({ query: ARTICLES, data: { articles } });
    for (const article of articles)
      cache.writeQuery({ query: ARTICLE, variables: { id: article.id }, data: { article } });
    return {
      subscribe(id, emit) {
        let initial = true;
        // immediate: the first diff is the baseline, so later broadcasts call back only on a change
        return cache.watch({
          query: ARTICLE,
          variables: { id },
          optimistic: true,
          immediate: true,
          callback: () => {
            if (initial) initial = false;
            else emit();
          },
        });
      },
      writeUser: (user) => writeUser(cache, user),
    };
  },
};

await main(apollo as Peer);
