/**
 * The demos' API, shared unchanged by the Svelte and the Solid app: the `User` and `Todo` entities and
 * their resources. Nothing here knows about a UI framework.
 */
import { Temporal } from 'temporal-polyfill';
import * as v from 'valibot';
import { Collection, Entity, createResource, type ControllerOptions, type EntityValidator } from 'rx-rest';

/** Where the apps reach the REST server: vite proxies `/api` to it (see demos/vite.shared.ts). */
export const API_PREFIX = '/api';
/** Todos per page of the list (json-server's `_limit`). */
export const PAGE_SIZE = 5;
/** How often the live panel polls, in milliseconds. */
export const POLL_MS = 2_000;

/**
 * The apps' `new Controller(...)` options: a failed GET (server down: the dev proxy answers 502) is
 * retried twice, after 300 ms and 600 ms, so "Server unreachable" shows about a second after a poll
 * fails instead of after the default 1 s + 2 s + 4 s. Mutations are never retried. The live stream
 * (live.ts) reconnects after the same delays, doubling up to 2 s, so it is back at most 2 s after
 * the server.
 */
export const CONTROLLER_OPTIONS: ControllerOptions = {
  retry: 2,
  retryDelay: (attempt) => Math.min(300 * 2 ** attempt, 2_000),
  // the soak of the apps builds them with a shorter gcTime, to see collections within its minutes
  gcTime: Number(import.meta.env.VITE_RX_REST_GC_TIME) || undefined,
};

/** A user of the todo server (`GET /users`). */
export class User extends Entity {
  id = 0;
  name = '';
  username = '';
  email = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'User';
}

/** A todo (`GET /todos`), owned by a user through `userId`. */
export class Todo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  createdAt = Temporal.Instant.from('1970-01-01T00:00:00Z');
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
  /** `createdAt` arrives as an ISO string; reading it gives a `Temporal.Instant`. */
  static override schema = { createdAt: Temporal.Instant.from };
  /**
   * Every todo the server sends (a response, or a change the live stream pushes) is checked before it is
   * stored: a todo with a title that is not a string, say, is refused with a `ValidationError` and the
   * lists keep what they show. Fields other than `id` may be missing (a push may carry only what
   * changed: the stored todo keeps the rest).
   */
  static override validator = v.object({
    id: v.number(),
    userId: v.optional(v.number()),
    title: v.optional(v.string()),
    completed: v.optional(v.boolean()),
    createdAt: v.optional(v.string()),
  }) satisfies EntityValidator<Todo>;
}

/**
 * The todo lists: json-server's own arguments (`_limit`, `_page`, `_sort`, ...) do not filter which
 * todos a list holds, so a created todo joins every list whose `userId` (if any) matches.
 */
class TodoLists extends Collection {
  override nonFilterArgumentKeys(key: string): boolean {
    return key.startsWith('_');
  }
}

/** `/users/:id`: the filter's and the live panel's user names. */
export const UserResource = createResource({
  urlPrefix: API_PREFIX,
  path: '/users/:id',
  schema: User,
});

/** `/todos/:id`: lists filtered by user and paged by json-server's `_page`/`_limit`; optimistic mutations. */
export const TodoResource = createResource({
  urlPrefix: API_PREFIX,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number; _limit?: number } | undefined,
  paginationField: '_page',
  optimistic: true,
  Collection: TodoLists,
});

/** Every todo, polled every `POLL_MS` while the live panel shows it. */
export const LiveTodos = TodoResource.getList.extend({ pollFrequency: POLL_MS });

/** The arguments of the todo list for a user (`undefined`: all users). */
export function listArgs(userId: number | undefined): { userId?: number; _limit: number } {
  return userId === undefined ? { _limit: PAGE_SIZE } : { userId, _limit: PAGE_SIZE };
}

/**
 * The todo list's `createInfiniteQuery` options: pages by number (`_page`, json-server counts from 1;
 * the first page is the list itself), and a page shorter than `PAGE_SIZE` is the last one.
 */
export const PAGING = { pageSize: PAGE_SIZE };

/** The body that moves a todo to another user (`getList.move`: a PATCH of `userId`). */
export function movedTo(userId: number) {
  return { userId };
}

/** An instant as the server stores it: ISO 8601 with milliseconds, like `Date.prototype.toISOString`. */
const iso = (instant: Temporal.Instant) => instant.toString({ fractionalSecondDigits: 3 });

/** The body that creates a todo (the server assigns the id). */
export function newTodo(userId: number, title: string) {
  return { userId, title: title.trim(), completed: false, createdAt: iso(Temporal.Now.instant()) };
}

/** The body that replaces a todo (`update` is a PUT: every field), renamed. */
export function renamed(todo: Todo, title: string) {
  return {
    id: todo.id,
    userId: todo.userId,
    title: title.trim(),
    completed: todo.completed,
    createdAt: iso(todo.createdAt),
  };
}
