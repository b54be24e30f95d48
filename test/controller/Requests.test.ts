/**
 * The request runner (`Requests`): identical GETs in flight share one request, each `fetch` resolves its
 * own response, failures are retried with backoff, a request nobody awaits any more is aborted, and
 * writes are ordered by when their request started. Through the controller, against the todo server
 * behind msw; then the runner on its own, with what it tells its cache (`RequestListener`).
 */
import { BehaviorSubject } from 'rxjs';
import { HttpResponse, delay } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, NetworkError } from '../../core/index.js';
import { ActionLog } from '../../core/controller/ActionLog.js';
import { Environment } from '../../core/controller/Environment.js';
import { QueryReader } from '../../core/controller/QueryReader.js';
import { Requests, type RequestListener } from '../../core/controller/Requests.js';
import { defaultRetryDelay } from '../../core/controller/retry.js';
import { Store, initialState } from '../../core/store/index.js';
import {
  Todo,
  TodoResource,
  answerNext,
  applyThenWait,
  flush,
  hang,
  kept,
  record,
  refused,
  serverTodos,
  settled,
  snapshotThenWait,
  status,
  storedTodos,
  tick,
  until,
  useFakeClock,
  useTodoServer,
  type TodoJson,
} from '../reliability/faultHarness.js';

const fake = useTodoServer();

const key1 = TodoResource.get.key({ id: 1 });

/** A POST answer that stores the todo when the request arrives and confirms it `ms` later. */
const createThenWait = (ms: number) => async (request: Request) => {
  const body = (await request.json()) as Partial<TodoJson>;
  const id = Math.max(0, ...fake.todos.keys()) + 1;
  const todo: TodoJson = { id, userId: 1, title: '', completed: false, createdAt: '2024-02-01T00:00:00Z', ...body };
  fake.todos.set(id, todo);
  await delay(ms);
  return HttpResponse.json(todo, { status: 201 });
};

describe('each fetch resolves with its own response', () => {
  it('two creates in flight (they share a request key): each resolves the todo the server created for it', async () => {
    const controller = new Controller({ retry: 0 });
    answerNext(fake, 'post', '/todos', createThenWait(30), createThenWait(0));
    const [first, second] = await Promise.all([
      controller.fetch(TodoResource.getList.push, {}, { title: 'first' }),
      controller.fetch(TodoResource.getList.push, {}, { title: 'second' }),
    ]);
    expect({ id: first.id, title: first.title }).toEqual({ id: 5, title: 'first' });
    expect({ id: second.id, title: second.title }).toEqual({ id: 6, title: 'second' });
    expect(first).toBeInstanceOf(TodoResource.get.schema);
  });

  it('a create whose later sibling was deleted meanwhile still resolves its own todo', async () => {
    const controller = new Controller({ retry: 0 });
    answerNext(fake, 'post', '/todos', createThenWait(30), createThenWait(0));
    const first = controller.fetch(TodoResource.getList.push, {}, { title: 'first' });
    const second = await controller.fetch(TodoResource.getList.push, {}, { title: 'second' });
    await controller.fetch(TodoResource.delete, { id: second.id });
    expect((await first).title).toBe('first');
  });

  it('an update answered after a GET sent while it was in flight resolves what the server answered to it; the store keeps the update', async () => {
    const controller = new Controller({ retry: 0 });
    await controller.fetch(TodoResource.get, { id: 1 });
    answerNext(fake, 'patch', '/todos/1', async (request) => {
      const body = (await request.json()) as Partial<TodoJson>;
      await delay(20);
      const next = { ...fake.todos.get(1)!, ...body };
      fake.todos.set(1, next);
      return HttpResponse.json(next);
    });
    fake.todos.get(1)!.title = 'old';
    const patched = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'new' });
    await delay(1);
    const read = controller.fetch(TodoResource.get, { id: 1 });
    expect((await read).title).toBe('old');
    expect((await patched).title).toBe('new');
    // the GET was sent while the update was in flight: the server read before applying it (API.md: a response
    // to an older request never overwrites newer data), so the update's answer stays (test/review12/runner)
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('new');
  });

  it('identical GETs in flight share one request and resolve the same object, which observers show', async () => {
    const controller = new Controller({ retry: 0 });
    const stream = record(controller.observe(TodoResource.get, { id: 2 }));
    const [a, b] = await Promise.all([
      controller.fetch(TodoResource.get, { id: 2 }),
      controller.fetch(TodoResource.get, { id: 2 }),
    ]);
    expect(a).toBe(b);
    expect(fake.requests.filter((r) => r === 'GET /todos/2')).toHaveLength(1);
    await settled(() => expect(stream.last().data).toBe(a));
    stream.unsubscribe();
    expect(serverTodos(fake)).toHaveLength(4);
  });
});

describe('out-of-order responses', () => {
  it('for the same key across a reset: the answer to the older request never shows; the newer one does', async () => {
    const controller = new Controller();
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    controller.expireAll(TodoResource.get); // no-op for the ordering, keeps the stream honest
    answerNext(
      fake,
      'get',
      '/todos/1',
      snapshotThenWait(60, () => ({ ...fake.todos.get(1)!, title: 'the older answer' })),
    );
    const older = controller.fetch(TodoResource.get, { id: 1 });
    await settled(() => expect(fake.requests).toHaveLength(2));
    fake.todos.get(1)!.title = 'the newer answer';
    controller.resetEntireStore(); // the observer refetches at once: a newer request for the same key
    await settled(() => expect(stream.last().data?.title).toBe('the newer answer'));
    expect((await older).title).toBe('the older answer'); // its caller still gets it ...
    expect(stream.last().data!.title).toBe('the newer answer'); // ... the store does not
    expect(stream.values.some((state) => state.data?.title === 'the older answer')).toBe(false);
    expect(storedTodos(controller.getState())).toEqual([fake.todos.get(1)]);
    stream.unsubscribe();
  });

  it('for the same entity from two keys: an older, slower item response does not overwrite a newer list', async () => {
    const controller = new Controller();
    const item = record(controller.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(item.last().data).toBeDefined());
    answerNext(
      fake,
      'get',
      '/todos/2',
      snapshotThenWait(60, () => fake.todos.get(2)),
    );
    controller.invalidate(TodoResource.get, { id: 2 }); // starts the slow item request (it reads "todo 2")
    await settled(() => expect(fake.requests).toHaveLength(2));
    fake.todos.get(2)!.title = 'changed after the item request started';
    const list = await controller.fetch(TodoResource.getList); // starts later, answers first
    expect(list[1]!.title).toBe('changed after the item request started');
    await settled(() => expect(item.last().fetching).toBe(false));
    expect(item.last().data!.title).toBe('changed after the item request started');
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    item.unsubscribe();
  });

  it('two mutations of one todo answered in reverse order: the later request wins, as on the server', async () => {
    const controller = new Controller();
    const item = record(controller.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(item.last().data).toBeDefined());
    answerNext(fake, 'patch', '/todos/3', applyThenWait(fake, 50), applyThenWait(fake, 0));
    const first = controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'first' });
    const second = controller.fetch(TodoResource.partialUpdate, { id: 3 }, { title: 'second' });
    expect(item.last().data!.title).toBe('second'); // both optimistic layers, in order
    await second;
    expect(item.last().data!.title).toBe('second');
    await first; // answers last, with the older request's data
    expect(item.last().data!.title).toBe('second');
    expect(fake.todos.get(3)!.title).toBe('second');
    expect(storedTodos(controller.getState())).toEqual([fake.todos.get(3)]);
    item.unsubscribe();
  });

  it('two mutations started in the same millisecond (a frozen clock), answered in reverse order: the later still wins', async () => {
    const controller = new Controller({ now: () => 1_700_000_000_000 });
    await controller.fetch(TodoResource.get, { id: 2 });
    answerNext(fake, 'patch', '/todos/2', applyThenWait(fake, 40), applyThenWait(fake, 0));
    const first = controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'first' });
    const second = controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'second' });
    await Promise.all([first, second]);
    expect(fake.todos.get(2)!.title).toBe('second');
    expect(controller.getResponse(TodoResource.get, { id: 2 }).data!.title).toBe('second');
    expect(storedTodos(controller.getState())).toEqual([fake.todos.get(2)]);
  });
});

// a browser's controller retries failed GETs by default (one without a document does not): these tests are about it
describe('in a browser', () => {
  beforeEach(() => vi.stubGlobal('document', {}));
  afterEach(() => vi.unstubAllGlobals());

  describe('retries', () => {
    it('a GET failing with 503 is retried after 1 s, 2 s and 4 s; it stays loading, and the error shows only after the last attempt', async () => {
      useFakeClock();
      const controller = new Controller(); // the defaults: retry 3, min(1000 * 2 ** attempt, 30_000)
      answerNext(fake, 'get', '/todos/1', ...Array(4).fill(status(503)));
      const stream = record(controller.observe(TodoResource.get, { id: 1 }));
      await until(() => expect(fake.requests).toHaveLength(1));
      await flush(10);
      for (const [wait, count] of [
        [999, 1],
        [1, 2],
        [1_999, 2],
        [1, 3],
        [3_999, 3],
      ] as const) {
        await tick(wait);
        expect(fake.requests).toHaveLength(count);
        expect(stream.last()).toMatchObject({ data: undefined, error: undefined, loading: true, fetching: true });
      }
      await tick(1);
      expect(fake.requests).toHaveLength(4);
      // what the user sees: loading the whole time, then the error once
      expect(stream.last()).toMatchObject({
        data: undefined,
        loading: false,
        fetching: false,
        error: { name: 'NetworkError', status: 503 },
      });
      expect(stream.values.filter((state) => state.error)).toHaveLength(1);
      expect(stream.values.slice(0, -1).every((state) => state.loading && state.fetching)).toBe(true);
      // the store: only the error, nothing else
      expect(controller.getState().entities).toEqual({});
      expect(controller.getState().meta[key1]!.error).toBeInstanceOf(NetworkError);
      // and it recovers: invalidate refetches at once
      controller.invalidate(TodoResource.get, { id: 1 });
      await until(() => expect(stream.last().data?.title).toBe('todo 1'));
      expect(stream.last()).toMatchObject({ error: undefined, loading: false, fetching: false });
      expect(fake.requests).toHaveLength(5);
      stream.unsubscribe();
    });

    it('the backoff doubles up to 30 s', async () => {
      useFakeClock();
      const controller = new Controller({ retry: 6 });
      answerNext(fake, 'get', '/todos/1', ...Array(7).fill(status(500)));
      const start = Date.now();
      const done = controller.fetch(TodoResource.get, { id: 1 }).catch((error: unknown) => error);
      await until(() => expect(fake.requests).toHaveLength(1));
      await flush(10);
      // retries at 1, 3, 7, 15, 31 s, then 30 s later (not 32): 61 s
      for (const [at, count] of [
        [999, 1],
        [1_000, 2],
        [2_999, 2],
        [3_000, 3],
        [7_000, 4],
        [15_000, 5],
        [31_000, 6],
        [60_999, 6],
        [61_000, 7],
      ] as const) {
        await tick(at - (Date.now() - start));
        expect(fake.requests, `at ${at} ms`).toHaveLength(count);
      }
      expect(await done).toMatchObject({ status: 500 });
    });

    it('connection refused (status 0) is retried, and the data arrives when the server is back: no error is ever shown', async () => {
      const controller = new Controller({ retryDelay: 5 });
      answerNext(fake, 'get', '/todos', refused, refused);
      const stream = record(controller.observe(TodoResource.getList, { userId: 1 }));
      await settled(() => expect(stream.last().data).toBeDefined());
      expect(stream.last().data!.map((todo) => todo.id)).toEqual([1, 3]);
      expect(stream.values.every((state) => state.error === undefined)).toBe(true);
      expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=1', 'GET /todos?userId=1']);
      stream.unsubscribe();
    });

    it('4xx, a ParseError and a NormalizeError are never retried', async () => {
      const controller = new Controller(); // retries on, default backoff: a retry would time the test out
      for (const code of [400, 404, 409, 422]) {
        fake.fail('GET', code);
        await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({ status: code });
      }
      answerNext(fake, 'get', '/todos/1', () => HttpResponse.html('<!doctype html><p>login</p>'));
      await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({ name: 'ParseError' });
      answerNext(fake, 'get', '/todos/1', () => HttpResponse.json([{ id: 1 }]));
      await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({ name: 'NormalizeError' });
      expect(fake.requests).toHaveLength(6);
      await expect(controller.fetch(TodoResource.get, { id: 1 })).resolves.toMatchObject({ title: 'todo 1' });
    });

    it('mutations do not retry by default; an endpoint with retry does, keeping its optimistic change meanwhile', async () => {
      const controller = new Controller({ retryDelay: 5 });
      await controller.fetch(TodoResource.getList);
      fake.fail('PATCH', 503);
      await expect(controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'once' })).rejects.toMatchObject({
        status: 503,
      });
      expect(fake.requests.filter((request) => request.startsWith('PATCH'))).toHaveLength(1);
      expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));

      const list = record(controller.observe(TodoResource.getList));
      const patient = TodoResource.partialUpdate.extend({ retry: 2, retryDelay: 30 });
      fake.fail('PATCH', 503, 2);
      const saving = controller.fetch(patient, { id: 1 }, { title: 'saved on the third try' });
      expect(list.last().data![0]!.title).toBe('saved on the third try');
      await settled(() => expect(fake.requests.filter((request) => request.startsWith('PATCH'))).toHaveLength(2));
      expect(list.last().data![0]!.title).toBe('saved on the third try'); // still shown during the retries
      await saving;
      expect(fake.requests.filter((request) => request.startsWith('PATCH'))).toHaveLength(4);
      expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
      expect(controller.getState().optimistic).toEqual([]);
      list.unsubscribe();
    });

    it("an endpoint's retry and retryDelay override the controller's", async () => {
      const controller = new Controller({ retry: 1, retryDelay: 5 });
      fake.fail('GET', 502, 10);
      await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({ status: 502 });
      expect(fake.requests).toHaveLength(2);
      await expect(controller.fetch(TodoResource.get.extend({ retry: false }), { id: 1 })).rejects.toMatchObject({
        status: 502,
      });
      expect(fake.requests).toHaveLength(3);
      const waits: [number, number][] = [];
      const custom = TodoResource.get.extend({
        retry: 3,
        retryDelay: (attempt, error) => {
          waits.push([attempt, (error as NetworkError).status]);
          return 1;
        },
      });
      await expect(controller.fetch(custom, { id: 1 })).rejects.toMatchObject({ status: 502 });
      expect(fake.requests).toHaveLength(7);
      expect(waits).toEqual([
        [0, 502],
        [1, 502],
        [2, 502],
      ]);
      fake.clearFailures();
      await expect(controller.fetch(custom, { id: 1 })).resolves.toBeInstanceOf(Todo);
    });

    it('identical GETs in flight share one request, its retries included', async () => {
      const controller = new Controller({ retryDelay: 20 });
      fake.fail('GET', 503, 1);
      const first = controller.fetch(TodoResource.get, { id: 2 });
      const stream = record(controller.observe(TodoResource.get, { id: 2 }));
      await settled(() => expect(fake.requests).toHaveLength(1));
      await flush();
      const second = controller.fetch(TodoResource.get, { id: 2 }); // joins during the backoff
      expect(stream.last()).toMatchObject({ loading: true, fetching: true, error: undefined });
      const [a, b] = await Promise.all([first, second]);
      expect(a).toBe(b);
      expect(stream.last().data).toBe(a);
      expect(fake.requests).toEqual(['GET /todos/2', 'GET /todos/2']);
      stream.unsubscribe();
    });

    it('resetEntireStore during the backoff stops the retries: the caller gets the last error, nothing is stored', async () => {
      useFakeClock();
      const controller = new Controller();
      await controller.fetch(TodoResource.get, { id: 1 }).catch(() => {});
      fake.fail('GET', 503, 10);
      const failing = controller.fetch(TodoResource.getList).catch((error: unknown) => error);
      await until(() => expect(fake.requests).toHaveLength(2));
      controller.resetEntireStore();
      expect(await failing).toMatchObject({ name: 'NetworkError', status: 503 });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fake.requests).toHaveLength(2);
      expect(controller.getState()).toMatchObject({ entities: {}, endpoints: {}, meta: {}, optimistic: [] });
      fake.clearFailures();
      const list = controller.fetch(TodoResource.getList);
      await until(() => expect(fake.requests).toHaveLength(3));
      expect((await list).map((todo) => todo.id)).toEqual([1, 2, 3, 4]);
    });

    it('a retryDelay that resets the store stops the retries at once: the caller gets the last error without waiting', async () => {
      useFakeClock();
      const controller = new Controller({
        retryDelay: () => {
          controller.resetEntireStore();
          return 60_000;
        },
      });
      fake.fail('GET', 503, 10);
      const failing = controller.fetch(TodoResource.getList).catch((error: unknown) => error);
      await until(() => expect(fake.requests).toHaveLength(1));
      expect(await failing).toMatchObject({ name: 'NetworkError', status: 503 }); // no timer had to run
      expect(fake.requests).toHaveLength(1);
      expect(controller.getState().meta).toEqual({});
    });

    it('resetEntireStore while a retry is on the wire: it settles without writing and is not retried again', async () => {
      const controller = new Controller({ retryDelay: 1 });
      answerNext(fake, 'get', '/todos/3', status(500), async () => {
        await delay(40);
        return HttpResponse.json(
          { id: 3, title: 'from before the reset', userId: 1, completed: false, createdAt: '2024-01-03T00:00:00Z' },
          { status: 500 },
        );
      });
      const failing = controller.fetch(TodoResource.get, { id: 3 }).catch((error: unknown) => error);
      await settled(() => expect(fake.requests).toHaveLength(2));
      controller.resetEntireStore();
      expect(await failing).toMatchObject({ status: 500 });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(fake.requests).toHaveLength(2);
      expect(controller.getState().meta).toEqual({});
      await expect(controller.fetch(TodoResource.get, { id: 3 })).resolves.toMatchObject({ title: 'todo 3' });
    });
  });

  describe('abort when the last observer leaves', () => {
    it('a refresh nobody awaits any more is aborted: the store keeps the previous data, no error is stored', async () => {
      const controller = new Controller();
      await controller.fetch(TodoResource.get, { id: 1 });
      const state = controller.getState();
      controller.expireAll(TodoResource.get);
      const seen = { aborted: false };
      answerNext(fake, 'get', '/todos/1', hang(seen));
      const stream = record(controller.observe(TodoResource.get, { id: 1 }));
      expect(stream.last()).toMatchObject({ data: { title: 'todo 1' }, fetching: true, stale: true });
      await settled(() => expect(fake.requests).toHaveLength(2)); // on the wire
      stream.unsubscribe();
      await settled(() => expect(seen.aborted).toBe(true));
      await flush();
      expect(kept(controller.getState())).toEqual(kept(state));
      expect(controller.getState().meta[key1]!.error).toBeUndefined();
      expect(controller.getResponse(TodoResource.get, { id: 1 }).data!.title).toBe('todo 1');
      // a new observer starts a new request at once
      fake.todos.get(1)!.title = 'fresh';
      const again = record(controller.observe(TodoResource.get, { id: 1 }));
      await settled(() => expect(again.last().data!.title).toBe('fresh'));
      expect(fake.requests).toEqual(['GET /todos/1', 'GET /todos/1', 'GET /todos/1']);
      again.unsubscribe();
    });

    it('a first load nobody awaits any more is aborted and leaves nothing behind', async () => {
      const controller = new Controller();
      const seen = { aborted: false };
      answerNext(fake, 'get', '/todos', hang(seen));
      const stream = record(controller.observe(TodoResource.getList, { userId: 2 }));
      expect(stream.last()).toMatchObject({ loading: true });
      await settled(() => expect(fake.requests).toHaveLength(1)); // on the wire
      stream.unsubscribe();
      await settled(() => expect(seen.aborted).toBe(true));
      await flush();
      expect(controller.getState()).toMatchObject({ entities: {}, endpoints: {}, meta: {}, optimistic: [] });
      await expect(controller.fetch(TodoResource.getList, { userId: 2 })).resolves.toHaveLength(2);
    });

    it('is not aborted while another observer or a controller.fetch caller still waits for it', async () => {
      const controller = new Controller();
      fake.setLatency(30);
      const a = record(controller.observe(TodoResource.get, { id: 3 }));
      const b = record(controller.observe(TodoResource.get, { id: 3 }));
      a.unsubscribe();
      await settled(() => expect(b.last().data?.title).toBe('todo 3'));
      b.unsubscribe();

      controller.expireAll(TodoResource.get);
      const c = record(controller.observe(TodoResource.get, { id: 3 }));
      expect(c.last().fetching).toBe(true);
      fake.todos.get(3)!.title = 'awaited';
      const awaited = controller.fetch(TodoResource.get, { id: 3 }); // joins the observer's request
      c.unsubscribe();
      await expect(awaited).resolves.toMatchObject({ title: 'awaited' });
      expect(controller.getResponse(TodoResource.get, { id: 3 }).data!.title).toBe('awaited');
      expect(fake.requests).toEqual(['GET /todos/3', 'GET /todos/3']);
    });

    it('leaving during the backoff stops the retries; nothing is stored', async () => {
      useFakeClock();
      const controller = new Controller();
      fake.fail('GET', 503, 10);
      const stream = record(controller.observe(TodoResource.get, { id: 4 }));
      await until(() => expect(fake.requests).toHaveLength(1));
      await flush(10);
      stream.unsubscribe();
      await tick(60_000);
      expect(fake.requests).toHaveLength(1);
      expect(controller.getState().meta).toEqual({});
      fake.clearFailures();
      const again = record(controller.observe(TodoResource.get, { id: 4 }));
      await until(() => expect(again.last().data?.title).toBe('todo 4'));
      again.unsubscribe();
    });
  });
});

describe('what the runner tells its cache (RequestListener)', () => {
  /** A runner over a fresh store, with a listener that notes each call and the key's status at that moment. */
  function runner(online$?: BehaviorSubject<boolean>) {
    const store = new Store(initialState());
    const environment = new Environment(
      { online$ },
      { onReconnect: () => undefined, onPollingChange: () => undefined, onFocus: () => undefined },
    );
    const told: string[] = [];
    const listener: RequestListener = {
      onFetchingChange: (key) =>
        told.push(
          `${key}: ${requests.isFetching(key) ? 'fetching' : 'idle'}${requests.isPaused(key) ? ', paused' : ''}`,
        ),
      onWritten: (key) => told.push(`${key}: written`),
    };
    const requests = new Requests(
      store,
      new QueryReader(store),
      environment,
      listener,
      { retry: 0, retryDelay: defaultRetryDelay, now: () => Date.now(), scheduler: undefined },
      new ActionLog(),
    );
    return { store, requests, told };
  }

  it('one call when a GET starts, one when it ends, with its response written in between', async () => {
    const { store, requests, told } = runner();
    const todo = await requests.request(TodoResource.get, [{ id: 1 }], key1, true);
    expect(todo).toMatchObject({ id: 1, title: 'todo 1' });
    expect(told).toEqual([`${key1}: fetching`, `${key1}: written`, `${key1}: idle`]);
    expect(store.current.endpoints[key1]).toBe('1');
  });

  it('a failed GET: its error is written, then it ends', async () => {
    const { requests, told } = runner();
    answerNext(fake, 'get', '/todos/1', status(404));
    await expect(requests.request(TodoResource.get, [{ id: 1 }], key1, true)).rejects.toThrow(/404/);
    expect(told).toEqual([`${key1}: fetching`, `${key1}: written`, `${key1}: idle`]);
  });

  it('offline: the call says paused, and the runner calls again when the network is back', async () => {
    const online$ = new BehaviorSubject(false);
    const { requests, told } = runner(online$);
    const done = requests.request(TodoResource.get, [{ id: 1 }], key1, true);
    expect(told).toEqual([`${key1}: fetching, paused`]);
    await flush();
    expect(requests.isPaused(key1)).toBe(true);
    online$.next(true);
    await done;
    expect(told.at(-3)).toBe(`${key1}: fetching`);
    expect(told.slice(-2)).toEqual([`${key1}: written`, `${key1}: idle`]);
  });

  it('a mutation (never shared) is not announced as fetching: only its write is', async () => {
    const { requests, told } = runner();
    const key = TodoResource.partialUpdate.key({ id: 1 }, { title: 'renamed' });
    await requests.request(TodoResource.partialUpdate, [{ id: 1 }, { title: 'renamed' }], key, true);
    expect(told).toEqual([`${key}: written`, `${key}: idle`]);
  });
});
