/**
 * The review12 "live" tests' server and entities: an msw server whose every request the test may hold and
 * answer itself (`hold`), or that answers from its own tables (todos, counters, a paged feed).
 */
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  Entity,
  RestEndpoint,
  createResource,
  schema,
  Controller,
  type ControllerOptions,
  type StoreSnapshot,
} from '../../../core/index.js';

export const API = 'http://live12.test';

export class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

export class Counter extends Entity {
  id = 0;
  count = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Counter';
}

export const TodoResource = createResource({
  urlPrefix: API,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
  paginationField: 'page',
  optimistic: true,
});

/**
 * Data Client's increment example: the expected response computed from the store as the layer applies.
 * (`getOptimisticResponse` is no `RestEndpoint` option in rx-rest's types: it is set on the endpoint.)
 */
export const increment = Object.assign(
  new RestEndpoint({ urlPrefix: API, path: '/counters/:id/increment', method: 'POST', schema: Counter }),
  {
    getOptimisticResponse(snapshot: StoreSnapshot, params: { id: number }) {
      const stored = snapshot.getEntity('Counter', `${params.id}`) as { count?: number } | undefined;
      return { id: params.id, count: (stored?.count ?? 0) + 1 };
    },
  },
);

export const getCounter = new RestEndpoint({ urlPrefix: API, path: '/counters/:id', schema: Counter });

/** A cursor feed: `{ results, next }`. */
export const cursorFeed = new RestEndpoint({
  urlPrefix: API,
  path: '/feed',
  searchParams: {} as { tag?: string; cursor?: string } | undefined,
  schema: { results: new schema.Collection([Todo]), next: null as string | null },
});

export interface Held {
  readonly method: string;
  readonly url: URL;
  readonly body: unknown;
  aborted: boolean;
  json(body: JsonBodyType, status?: number): void;
  raw(body: string, init: ResponseInit): void;
  refuse(): void;
}

/** The server: `requests` it saw (`METHOD /path?query`), `held` requests while `holding` is on. */
export function useLiveServer() {
  const requests: string[] = [];
  const held: Held[] = [];
  const hold = { on: false };
  const todos = new Map<number, { id: number; title: string; completed: boolean }>();
  const counters = new Map<number, { id: number; count: number }>();
  const answer = async (request: Request, auto: (body: unknown) => Response) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    if (!hold.on) return auto(body);
    return new Promise<Response>((resolve) => {
      const entry: Held = {
        method: request.method,
        url,
        body,
        aborted: false,
        json: (json, status = 200) => resolve(HttpResponse.json(json, { status })),
        raw: (text, init) => resolve(new HttpResponse(text, init)),
        refuse: () => resolve(HttpResponse.error()),
      };
      request.signal.addEventListener('abort', () => {
        entry.aborted = true;
        resolve(HttpResponse.error());
      });
      held.push(entry);
    });
  };
  const pageOf = (url: URL) => {
    const all = [...todos.values()];
    const page = Number(url.searchParams.get('page') ?? 1);
    return all.slice((page - 1) * 2, page * 2);
  };
  const server = setupServer(
    http.get(`${API}/todos`, ({ request }) => answer(request, () => HttpResponse.json(pageOf(new URL(request.url))))),
    http.get(`${API}/todos/:id`, ({ request, params }) =>
      answer(request, () => HttpResponse.json(todos.get(Number(params.id)) ?? null)),
    ),
    http.patch(`${API}/todos/:id`, ({ request, params }) =>
      answer(request, (body) => {
        const id = Number(params.id);
        const next = { ...todos.get(id)!, ...(body as object) };
        todos.set(id, next);
        return HttpResponse.json(next);
      }),
    ),
    http.put(`${API}/todos/:id`, ({ request, params }) =>
      answer(request, (body) => {
        const id = Number(params.id);
        const next = { id, ...(body as object) } as { id: number; title: string; completed: boolean };
        todos.set(id, next);
        return HttpResponse.json(next);
      }),
    ),
    http.delete(`${API}/todos/:id`, ({ request, params }) =>
      answer(request, () => {
        todos.delete(Number(params.id));
        return HttpResponse.json({ id: Number(params.id) });
      }),
    ),
    http.get(`${API}/counters/:id`, ({ request, params }) =>
      answer(request, () => HttpResponse.json(counters.get(Number(params.id)) ?? null)),
    ),
    http.post(`${API}/counters/:id/increment`, ({ request, params }) =>
      answer(request, () => {
        const id = Number(params.id);
        const next = { id, count: (counters.get(id)?.count ?? 0) + 1 };
        counters.set(id, next);
        return HttpResponse.json(next);
      }),
    ),
    http.get(`${API}/feed`, ({ request }) => answer(request, () => HttpResponse.json({ results: [], next: null }))),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
    held.length = 0;
    hold.on = false;
    todos.clear();
    counters.clear();
  });
  afterAll(() => server.close());
  return { server, requests, held, hold, todos, counters };
}

export const todo = (id: number, title = `todo ${id}`, completed = false) => ({ id, title, completed });

/**
 * A controller (`retry: 0`, then `options`) that ran `load` while the server held todos `ids` (`todo(id)`); the
 * requests made after it are held (`live.hold.on`).
 */
export async function loadedThenHeld(
  live: ReturnType<typeof useLiveServer>,
  ids: number[],
  load: (c: Controller) => Promise<unknown>,
  options: ControllerOptions = {},
): Promise<Controller> {
  for (const id of ids) live.todos.set(id, todo(id));
  const c = new Controller({ retry: 0, ...options });
  await load(c);
  live.hold.on = true;
  return c;
}

/** Lets pending promises and msw's answers run. */
export const flush = async (rounds = 10) => {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** Waits (msw's answers and timers running) until `ready()` holds, and fails when it never does. */
export async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await flush(1);
  expect(ready()).toBe(true);
}

/** Todo `id`'s title and completed as the store holds them (its state's record). */
export const stored = (c: Controller, id = 1) => {
  const record = c.getState().entities['Todo']?.[`${id}`] as { title: string; completed: boolean } | undefined;
  return record && { title: record.title, completed: record.completed };
};

/** Todo `id`'s title and completed as a read shows them (optimistic layers applied). */
export const shown = (c: Controller, id = 1) => {
  const value = c.get(Todo, { id });
  return value && { title: value.title, completed: value.completed };
};

/** What `promise` gave, once it settled (`done`), read synchronously by the test. */
export const outcome = <T>(promise: Promise<T>) => {
  const seen: { done: boolean; value?: T; error?: unknown } = { done: false };
  promise.then(
    (value) => Object.assign(seen, { done: true, value }),
    (error: unknown) => Object.assign(seen, { done: true, error }),
  );
  return seen;
};
