/**
 * Soak: many observe/unsubscribe cycles and many polling intervals leave nothing behind: no query
 * streams, no path-index entries, no requests in flight, no subscribers on the store, no timers; and
 * the heap does not grow with the number of cycles.
 *
 * The controller's bookkeeping is private, so it is read through test hooks that the package does
 * not export (`controllerInternals`, `storeInternals`, `streamInternals`).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { controllerInternals } from '../../core/controller/Controller.js';
import { streamInternals, type QueryStream } from '../../core/controller/QueryStream.js';
import { storeInternals } from '../../core/store/Store.js';
import { Controller, Entity, createResource, watchQuery, type QueryState } from '../../core/index.js';
// a plain Todo (no deserializer): the heap measured below holds only what its reads make
import { PlainTodo as Todo } from '../fixtures/entities.js';

const API = 'http://soak.test';

const TodoResource = createResource({
  urlPrefix: API,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
});
const LiveResource = createResource({
  urlPrefix: API,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
  pollFrequency: 1_000,
});

const todos = new Map<number, { id: number; userId: number; title: string }>();
for (let id = 1; id <= 100; id++) todos.set(id, { id, userId: id % 3, title: `todo ${id}` });
let requests = 0;
let pending = 0;
const server = setupServer(
  http.get(`${API}/todos`, ({ request }) => {
    requests++;
    const userId = new URL(request.url).searchParams.get('userId');
    return HttpResponse.json([...todos.values()].filter((todo) => userId === null || String(todo.userId) === userId));
  }),
  http.get(`${API}/todos/:id`, async ({ params }) => {
    requests++;
    pending++;
    try {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const todo = todos.get(Number(params.id));
      return todo ? HttpResponse.json(todo) : HttpResponse.json({}, { status: 404 });
    } finally {
      pending--;
    }
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
afterEach(() => vi.useRealTimers());

// ---- what is left behind ------------------------------------------------------------------------------

/** The controller's private bookkeeping. */
function internals(controller: Controller) {
  const { cache, store } = controllerInternals(controller);
  const subjects = storeInternals(store);
  return {
    streams: cache.streams,
    byPath: cache.byPath,
    inFlight: cache.requests.inFlight,
    /** Subscribers of the store's state subject and of its transitions (the controller's own one). */
    storeObservers: () => ({
      state: subjects.state.observers.length,
      transitions: subjects.transitions.length,
    }),
  };
}

/** A stream's own subscribers and its polling subscription. */
function streamParts(stream: QueryStream | undefined) {
  const s = streamInternals(stream!);
  return { observers: s.subject.observers.length, polling: s.poll !== undefined };
}

function expectNothingLeft(controller: Controller): void {
  const parts = internals(controller);
  expect(parts.streams.size, 'query streams').toBe(0);
  expect(parts.byPath.size, 'path index entries').toBe(0);
  expect(parts.inFlight.size, 'requests in flight').toBe(0);
  expect(parts.storeObservers()).toEqual({ state: 0, transitions: 1 });
  expect(controller.getState().optimistic).toEqual([]);
}

/** `global.gc`, exposed on demand when node was started without --expose-gc. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Waits (on the real clock) until `done()`. Not `vi.waitFor`: under fake timers it advances them at
 * every check, which would add polling ticks.
 */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('observe / unsubscribe cycles', () => {
  it(
    '10,000 cycles over cached, fresh data leave no stream, index entry or subscriber, and no heap growth',
    { timeout: 30_000 },
    async () => {
      // Date too: the data stays younger than LiveResource's period, so its polling subscriber's timer starts without a poll
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
      const controller = new Controller({ retry: false });
      // every result cached and fresh: the cycles below never fetch
      controller.setResponse(TodoResource.getList, {}, [...todos.values()]);
      for (const todo of todos.values()) controller.setResponse(TodoResource.get, { id: todo.id }, todo);
      const start = requests;
      const gc = collector();

      let emissions = 0;
      const cycle = (i: number) => {
        const id = (i % 100) + 1;
        const subscriptions = [
          controller.observe(TodoResource.get, { id }).subscribe(() => emissions++),
          watchQuery(controller, TodoResource.get, [{ id }], { poll: false }).subscribe(() => emissions++),
          controller.observe(TodoResource.getList).subscribe(() => emissions++),
        ];
        if (i % 7 === 0) subscriptions.push(controller.observe(LiveResource.get, { id }).subscribe(() => emissions++));
        const stream = internals(controller).streams.get(TodoResource.get.key({ id }));
        expect(stream).toBeDefined();
        // a write while subscribed goes through the path index
        if (i % 50 === 0) controller.setResponse(TodoResource.get, { id }, { ...todos.get(id)!, title: `cycle ${i}` });
        for (const subscription of subscriptions) subscription.unsubscribe();
        expect(streamParts(stream)).toEqual({ observers: 0, polling: false });
      };

      for (let i = 0; i < 1_000; i++) cycle(i); // warm up
      expectNothingLeft(controller);
      const before = heapAfterGc(gc);
      for (let i = 1_000; i < 11_000; i++) cycle(i);
      const after = heapAfterGc(gc);

      expectNothingLeft(controller);
      expect(requests).toBe(start);
      expect(emissions).toBeGreaterThanOrEqual(11_000 * 3);
      expect(vi.getTimerCount()).toBe(0);
      // A leak of one stream (a BehaviorSubject, its state, a path index Set) per cycle is well over
      // 200 bytes: 10,000 cycles would add more than 2 MB. Measured growth is ~0-200 KB.
      expect(after - before).toBeLessThan(2_000_000);
    },
  );

  it(
    '1,000 cycles that start a request and leave before or after it answers leave nothing once settled',
    { timeout: 30_000 },
    async () => {
      // No heap bound here: msw/undici themselves keep ~9 KB per aborted fetch for a while (measured with
      // plain fetch() and no rx-rest at all), which would drown the signal.
      const controller = new Controller({ retry: false });
      const start = requests;
      for (let i = 0; i < 1_000; i++) {
        const id = (i % 100) + 1;
        controller.invalidate(TodoResource.get, { id });
        let state: QueryState<Todo> | undefined;
        const sent = requests;
        const subscription = controller.observe(TodoResource.get, { id }).subscribe((s) => (state = s));
        expect(state!.fetching).toBe(true);
        if (i % 2 === 0)
          await until(() => requests > sent, 'the request to reach the server'); // leave while it is answered
        else await until(() => state!.fetching === false, 'the response'); // leave after it is stored
        subscription.unsubscribe();
        expect(internals(controller).streams.size).toBe(0);
      }
      await until(() => pending === 0 && internals(controller).inFlight.size === 0, 'every request to settle');
      expect(requests - start).toBe(1_000);
      expectNothingLeft(controller);
      expect(controller.getResponse(TodoResource.get, { id: 42 }).data!.title).toBe('todo 42');
    },
  );
});

describe('polling', () => {
  it(
    '1,000 polling intervals: one timer per key, every tick one request per key, nothing left after',
    { timeout: 30_000 },
    async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const controller = new Controller({ retry: false });
      const last = new Map<string, QueryState<unknown>>();
      const subscribe = (
        name: string,
        source: { subscribe(fn: (s: QueryState<unknown>) => void): { unsubscribe(): void } },
      ) => source.subscribe((state) => last.set(name, state));
      const subscriptions = [
        subscribe('one a', controller.observe(LiveResource.get, { id: 1 })),
        subscribe('one b', controller.observe(LiveResource.get, { id: 1 })),
        subscribe('one c', controller.observe(LiveResource.get, { id: 1 })),
        subscribe('list a', controller.observe(LiveResource.getList, { userId: 1 })),
        subscribe('list b', controller.observe(LiveResource.getList, { userId: 1 })),
        // a non-polling reader of a polled key adds no timer
        subscribe('one quiet', watchQuery(controller, LiveResource.get, [{ id: 1 }], { poll: false })),
      ];
      const idle = () => pending === 0 && [...last.values()].every((state) => !state.fetching);
      await until(idle, 'the first requests');
      expect(vi.getTimerCount()).toBe(2);
      const start = requests;

      for (let tick = 1; tick <= 1_000; tick++) {
        if (tick % 100 === 0) {
          todos.get(1)!.title = `tick ${tick}`;
          // subscribers coming and going do not add timers
          const extra = controller.observe(LiveResource.get, { id: 1 }).subscribe(() => {});
          expect(vi.getTimerCount()).toBe(2);
          extra.unsubscribe();
        }
        await vi.advanceTimersByTimeAsync(1_000);
        await until(idle, `the requests of tick ${tick}`);
        if (tick % 100 === 0) expect((last.get('one quiet')!.data as Todo).title).toBe(`tick ${tick}`);
      }
      expect(requests - start).toBe(2 * 1_000);
      expect(vi.getTimerCount()).toBe(2);
      expect(internals(controller).streams.size).toBe(2);

      const streams = [...internals(controller).streams.values()];
      for (const subscription of subscriptions) subscription.unsubscribe();
      expect(vi.getTimerCount()).toBe(0);
      for (const stream of streams) expect(streamParts(stream)).toEqual({ observers: 0, polling: false });
      const count = requests;
      await vi.advanceTimersByTimeAsync(10_000);
      expect(requests).toBe(count);
      expectNothingLeft(controller);
      todos.get(1)!.title = 'todo 1';
    },
  );
});

describe('what outlives a store', () => {
  // a class of its own: its first normalize and its first read happen in this test
  class Note extends Entity {
    id = 0;
    text = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'SoakNote';
  }
  const NoteResource = createResource({ urlPrefix: API, path: '/notes/:id', schema: Note });

  /** Writes and reads a list in a controller of its own, and returns weak references to what it made. */
  function readAndDrop(): WeakRef<object>[] {
    const controller = new Controller();
    controller.setResponse(
      NoteResource.getList,
      {},
      [1, 2, 3].map((id) => ({ id, text: `kept ${id}` })),
    );
    const read = controller.getResponse(NoteResource.getList, {}).data as Note[];
    expect(read.map((note) => note.text)).toEqual(['kept 1', 'kept 2', 'kept 3']);
    return [...read.map((note) => new WeakRef(note)), new WeakRef(controller.getState().entities[Note.key] as object)];
  }

  it('no store data stays reachable once the controller and its reads are dropped (the shape keepers hold none)', async () => {
    const gc = collector();
    // in a function of its own: the test's (async) frame keeps no stale reference to a read value
    const records = readAndDrop();
    await new Promise((resolve) => setTimeout(resolve, 0)); // weak references are kept until the job ends
    gc();
    gc();
    expect(records.map((ref) => ref.deref() === undefined)).toEqual([true, true, true, true]);
  });
});
