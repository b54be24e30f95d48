/**
 * Shared by the network, fault and ordering tests: the todo server behind msw (test/fixtures), the
 * todo resource, stream recording and the comparisons "what the user sees" / "what the store holds" /
 * "what the server holds".
 */
import { http, HttpResponse, delay, type JsonBodyType } from 'msw';
import { BehaviorSubject, Subject } from 'rxjs';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot, type ControllerOptions, type State } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { API, createTodoServer, type TodoJson } from '../fixtures/todoServer.js';
import { TodoResource } from '../fixtures/todoResource.js';

export { API, Todo, TodoResource };
export { record, settled } from '../fixtures/streams.js';
export type { TodoJson };

/**
 * Starts a fresh todo server (4 todos) for the file: listens before all tests, and after each one
 * drops the handlers a test added with `fake.server.use(...)`, restores the data, the log and the
 * latency, and real timers.
 */
export function useTodoServer() {
  const fake = createTodoServer();
  const seed = structuredClone([...fake.todos.values()]);
  beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    vi.useRealTimers();
    fake.server.resetHandlers();
    fake.todos.clear();
    for (const todo of structuredClone(seed)) fake.todos.set(todo.id, todo);
    fake.requests.length = 0;
    fake.setLatency(0);
    fake.clearFailures();
  });
  afterAll(() => fake.server.close());
  return fake;
}

/**
 * A browser controller holding, through a snapshot, what a server controller (`retry: 0`) fetched in `fill`, and
 * the URLs the browser controller requests afterwards.
 */
export async function restoredFromServer(fill: (server: Controller) => Promise<unknown>) {
  const server = new Controller({ retry: 0 });
  await fill(server);
  const snapshot = takeSnapshot(server);
  server.dispose();
  const urls: string[] = [];
  const browser = new Controller({
    retry: 0,
    fetch: (input, init) => (urls.push(String(input)), globalThis.fetch(input, init)),
  });
  restoreSnapshot(browser, snapshot);
  return { browser, urls };
}

/** A controller for tests that want failures reported at once (no retries) unless they say otherwise. */
export function testController(options: ControllerOptions = {}): Controller {
  return new Controller({ retry: 0, ...options });
}

/** An environment the test drives (network, visibility and focus as subjects), for `new Controller({ environment })`. */
export function testEnvironment() {
  return { online$: new BehaviorSubject(true), visible$: new BehaviorSubject(true), focus$: new Subject<void>() };
}

/** A controller without retries (unless `options` say otherwise) in the environment `env` (see `testEnvironment`). */
export function controllerIn(env: ReturnType<typeof testEnvironment>, options: ControllerOptions = {}): Controller {
  return new Controller({ retry: 0, environment: env, ...options });
}

/** How many GETs of todo `id` the fake server has seen. */
export const todoGets = (fake: ReturnType<typeof createTodoServer>, id: number): number =>
  fake.requests.filter((request) => request === `GET /todos/${id}`).length;

/** Lets pending promises and msw's handlers run without moving fake time. */
export const flush = async (rounds = 5) => {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** The todos the store holds, as plain JSON sorted by id (INVALID markers left out). */
export function storedTodos(state: State): TodoJson[] {
  const table = (state.entities.Todo ?? {}) as Record<string, unknown>;
  return Object.values(table)
    .filter((todo): todo is TodoJson => typeof todo === 'object' && todo !== null)
    .map((todo) => ({ ...todo }))
    .sort((a, b) => a.id - b.id);
}

/** The todos the server holds, sorted by id. */
export function serverTodos(fake: ReturnType<typeof createTodoServer>): TodoJson[] {
  return [...fake.todos.values()].map((todo) => ({ ...todo })).sort((a, b) => a.id - b.id);
}

/** The parts of the state a failed or aborted request must leave alone. */
export function kept(state: State) {
  return { entities: state.entities, endpoints: state.endpoints, optimistic: state.optimistic };
}

/** Fake timers for retry, timeout and polling tests; `setImmediate` stays real so `flush` works. */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** Under fake timers: moves fake time by `ms`, then lets the requests it started reach msw and their answers come back. */
export async function tick(ms: number): Promise<void> {
  await settleNow();
  await vi.advanceTimersByTimeAsync(ms);
  await settleNow();
}

/** Under fake timers: runs everything due now (msw's own zero delays included) and the I/O it waits for, without moving time. */
async function settleNow(): Promise<void> {
  for (let round = 0; round < 4; round++) {
    await vi.advanceTimersByTimeAsync(0);
    await flush(5);
  }
}

/** Under fake timers: runs what is due now and pending I/O until `check` passes (fake time does not move). */
export async function until(check: () => void, rounds = 200): Promise<void> {
  for (let round = 0; ; round++) {
    try {
      check();
      return;
    } catch (error) {
      if (round >= rounds) throw error;
      await vi.advanceTimersByTimeAsync(0);
      await flush(1);
    }
  }
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The next requests of `method path` get these answers, one each, in order (then the todo server
 * answers again). Each is logged in `fake.requests` like the todo server's own. (msw puts handlers
 * added later first: answers for one path must be given in one call, or with `onceHandler` in one
 * `fake.server.use(...)`.)
 */
export function answerNext(
  fake: ReturnType<typeof createTodoServer>,
  method: Method,
  path: string,
  ...answers: Answer[]
): void {
  fake.server.use(...answers.map((answer) => onceHandler(fake, method, path, answer)));
}

/** One answer to the next request of `method path`, logged in `fake.requests`. */
export function onceHandler(fake: ReturnType<typeof createTodoServer>, method: Method, path: string, answer: Answer) {
  return http[method](
    `${API}${path}`,
    async ({ request }) => {
      const url = new URL(request.url);
      fake.requests.push(`${request.method} ${url.pathname}${url.search}`);
      return answer(request);
    },
    { once: true },
  );
}

type Answer = (request: Request) => Response | Promise<Response>;

/** An answer: connection refused (a network error, status 0). */
export const refused = () => HttpResponse.error();
/** An answer: this HTTP status with a JSON message. */
export const status = (code: number) => () => HttpResponse.json({ message: `failed with ${code}` }, { status: code });
/** An answer that never comes; `seen.aborted` turns true when the client aborts the request. */
export const hang = (seen?: { aborted: boolean }) => async (request: Request) => {
  request.signal.addEventListener('abort', () => seen && (seen.aborted = true));
  await delay('infinite');
  return HttpResponse.json({});
};
/** An answer held until `release()` is called, then `body` as JSON (a request the test lets through when it chooses). */
export function gated(body: JsonBodyType): { answer: Answer; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { answer: async () => (await gate, HttpResponse.json(body)), release };
}
/** A GET answer that reads the server's data when the request arrives and sends it `ms` later (a slow network). */
export const snapshotThenWait = (ms: number, read: () => unknown) => async () => {
  const body = structuredClone(read()) as JsonBodyType;
  await delay(ms);
  return HttpResponse.json(body);
};

/** A PATCH/PUT answer that applies the change to `fake`'s data when the request arrives and confirms it `ms` later. */
export const applyThenWait = (fake: ReturnType<typeof createTodoServer>, ms: number) => async (request: Request) => {
  const id = Number(new URL(request.url).pathname.split('/').pop());
  const body = (await request.json()) as Partial<TodoJson>;
  const next = request.method === 'PUT' ? ({ ...body, id } as TodoJson) : { ...fake.todos.get(id)!, ...body, id };
  fake.todos.set(id, next);
  await delay(ms);
  return HttpResponse.json(next);
};
