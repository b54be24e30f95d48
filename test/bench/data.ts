/**
 * Deterministic benchmark data (seeded): n articles, each with an author from a shared pool of 20 users
 * and 5 comments with their own authors. About 4.2 KB of JSON per article. Plain JSON, no classes.
 */

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same data on every machine. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore ' +
  'magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo ' +
  'consequat duis aute irure in reprehenderit voluptate velit esse cillum eu fugiat nulla pariatur excepteur'
).split(' ');

/** JSON of a user: 10 scalar fields, string id. */
export interface UserJson {
  id: string;
  username: string;
  name: string;
  email: string;
  bio: string;
  avatarUrl: string;
  location: string;
  followers: number;
  verified: boolean;
  joinedAt: string;
}

/** JSON of a comment: 8 scalar fields and an author. */
export interface CommentJson {
  id: string;
  articleId: number;
  body: string;
  likes: number;
  flagged: boolean;
  edited: boolean;
  createdAt: string;
  updatedAt: string;
  author: UserJson;
}

/** JSON of an article: 11 scalar fields, an author and 5 comments. */
export interface ArticleJson {
  id: number;
  title: string;
  slug: string;
  summary: string;
  body: string;
  status: string;
  views: number;
  likes: number;
  published: boolean;
  createdAt: string;
  updatedAt: string;
  author: UserJson;
  comments: CommentJson[];
}

/** The benchmark's data set: the shared user pool and the articles referencing it. */
export interface BenchData {
  readonly users: readonly UserJson[];
  readonly articles: readonly ArticleJson[];
  /** `JSON.stringify(articles)`: the response body the cases start from. */
  readonly text: string;
}

/** Generates n articles deterministically from `seed`. */
export function generate(n: number, seed = 42): BenchData {
  const random = prng(seed);
  const int = (max: number) => Math.floor(random() * max);
  const words = (count: number) => Array.from({ length: count }, () => WORDS[int(WORDS.length)]).join(' ');
  const date = () => new Date(Date.UTC(2024, 0, 1) + int(365 * 24 * 3600) * 1000).toISOString();
  const users: UserJson[] = Array.from({ length: 20 }, (_, i) => ({
    id: `user-${i}`,
    username: `user${i}`,
    name: `${words(1)} ${words(1)}`,
    email: `user${i}@example.com`,
    bio: words(8),
    avatarUrl: `https://cdn.example.com/avatars/${i}.png`,
    location: words(2),
    followers: int(10_000),
    verified: random() < 0.3,
    joinedAt: date(),
  }));
  const articles: ArticleJson[] = Array.from({ length: n }, (_, i) => {
    const id = i + 1;
    const title = words(6);
    return {
      id,
      title,
      slug: `${title.replace(/ /g, '-')}-${id}`,
      summary: words(20),
      body: words(60),
      status: random() < 0.8 ? 'published' : 'draft',
      views: int(100_000),
      likes: int(5_000),
      published: random() < 0.8,
      createdAt: date(),
      updatedAt: date(),
      author: users[int(users.length)]!,
      comments: Array.from({ length: 5 }, (_, c) => ({
        id: `${id}-${c}`,
        articleId: id,
        body: words(24),
        likes: int(500),
        flagged: random() < 0.05,
        edited: random() < 0.2,
        createdAt: date(),
        updatedAt: date(),
        author: users[int(users.length)]!,
      })),
    };
  });
  return { users, articles, text: JSON.stringify(articles) };
}

/** n users with ids `user-0` ... (case G: one table of n entities). */
export function manyUsers(n: number, seed = 7): UserJson[] {
  const random = prng(seed);
  const int = (max: number) => Math.floor(random() * max);
  return Array.from({ length: n }, (_, i) => ({
    id: `user-${i}`,
    username: `user${i}`,
    name: `${WORDS[int(WORDS.length)]} ${WORDS[int(WORDS.length)]}`,
    email: `user${i}@example.com`,
    bio: WORDS.slice(0, 8).join(' '),
    avatarUrl: `https://cdn.example.com/avatars/${i}.png`,
    location: WORDS[int(WORDS.length)]!,
    followers: int(10_000),
    verified: random() < 0.3,
    joinedAt: new Date(Date.UTC(2024, 0, 1) + int(365 * 24 * 3600) * 1000).toISOString(),
  }));
}
