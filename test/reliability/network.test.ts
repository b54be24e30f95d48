/**
 * The network half of reliability: timeouts, aborts by the endpoint's signal, flapping availability and
 * recovery after a failed first load (retries with backoff and the abort when the last observer leaves
 * are the request runner's: test/controller/Requests.test.ts). Every test
 * says what the user sees, checks that nothing in the store was lost, and that the controller still
 * works afterwards.
 */
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  Controller,
  peekQuery,
  NetworkError,
  RequestError,
  TimeoutError,
  type QueryState,
} from '../../core/index.js';
import {
  TodoResource,
  Todo,
  answerNext,
  flush,
  hang,
  kept,
  record,
  refused,
  serverTodos,
  settled,
  status,
  storedTodos,
  testController,
  tick,
  until,
  useFakeClock,
  useTodoServer,
} from './faultHarness.js';

const fake = useTodoServer();

// a browser's controller retries failed GETs by default (one without a document does not): these tests are about it
beforeEach(() => vi.stubGlobal('document', {}));
afterEach(() => vi.unstubAllGlobals());

describe('timeout', () => {
  it('a request that never answers rejects with a TimeoutError naming the endpoint, the request and the limit; the fetch is aborted', async () => {
    const seen = { aborted: false };
    answerNext(fake, 'get', '/todos/1', hang(seen));
    const slow = TodoResource.get.extend({ timeout: 30 });
    const error = await slow({ id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(RequestError); // the base of every error of one request
    expect(error).toMatchObject({
      name: 'TimeoutError',
      status: 0,
      timeout: 30,
      method: 'GET',
      url: 'http://api.test/todos/1',
      endpoint: 'Todo.get',
    });
    expect((error as Error).message).toContain(
      'GET http://api.test/todos/1 (endpoint Todo.get) got no complete response within its timeout of 30 ms',
    );
    await settled(() => expect(seen.aborted).toBe(true));
  });

  it('through the controller: cached data stays on screen with the TimeoutError, the store keeps it, and the next fetch works', async () => {
    const controller = testController();
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    const data = stream.last().data;
    const before = kept(controller.getState());
    answerNext(fake, 'get', '/todos/1', hang());
    await expect(controller.fetch(TodoResource.get.extend({ timeout: 20 }), { id: 1 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(stream.last()).toMatchObject({ data, fetching: false, loading: false, error: { name: 'TimeoutError' } });
    expect(kept(controller.getState())).toEqual(before);
    expect(controller.getState().entities).toBe(before.entities);
    fake.todos.get(1)!.title = 'answered in time';
    await controller.fetch(TodoResource.get, { id: 1 });
    expect(stream.last()).toMatchObject({ error: undefined, data: { title: 'answered in time' } });
    stream.unsubscribe();
  });

  it('a timeout counts as a network error: it is retried, and an attempt in time succeeds', async () => {
    const controller = new Controller({ retryDelay: 1 });
    answerNext(fake, 'get', '/todos/2', hang(), hang());
    const todo = await controller.fetch(TodoResource.get.extend({ timeout: 20 }), { id: 2 });
    expect(todo.title).toBe('todo 2');
    expect(fake.requests).toEqual(['GET /todos/2', 'GET /todos/2', 'GET /todos/2']);
  });

  it('the timeout runs on fake timers too', async () => {
    useFakeClock();
    const controller = testController();
    answerNext(fake, 'get', '/todos/2', hang());
    const failing = controller
      .fetch(TodoResource.get.extend({ timeout: 10_000 }), { id: 2 })
      .catch((error: unknown) => error);
    await until(() => expect(fake.requests).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(peekQuery(controller, TodoResource.get, { id: 2 }).fetching).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(await failing).toBeInstanceOf(TimeoutError);
  });
});

describe('abort with a signal', () => {
  it('aborting a refresh rejects with an AbortError; the store and the screen keep the data, no error is stored', async () => {
    const controller = new Controller();
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    const data = stream.last().data;
    const state = controller.getState();
    fake.setLatency(50);
    const abort = new AbortController();
    const refreshing = controller.fetch(TodoResource.get.extend({ signal: abort.signal }), { id: 1 });
    expect(stream.last()).toMatchObject({ data, fetching: true });
    abort.abort();
    const error = await refreshing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ method: 'GET', url: 'http://api.test/todos/1', endpoint: 'Todo.get' });
    expect((error as Error).message).toContain('GET http://api.test/todos/1 (endpoint Todo.get) was aborted');
    expect((error as Error).cause).toMatchObject({ name: 'AbortError' }); // fetch's DOMException
    expect(stream.last()).toMatchObject({ data, error: undefined, loading: false, fetching: false });
    expect(controller.getState()).toBe(state);
    fake.setLatency(0);
    await expect(controller.fetch(TodoResource.get, { id: 1 })).resolves.toMatchObject({ title: 'todo 1' });
  });

  it('an endpoint whose signal is already aborted sends nothing, and an observer of it does not fetch in a loop', async () => {
    const controller = new Controller();
    const abort = new AbortController();
    abort.abort('navigated away');
    const dead = TodoResource.get.extend({ signal: abort.signal });
    await expect(controller.fetch(dead, { id: 2 })).rejects.toMatchObject({
      name: 'AbortError',
      cause: 'navigated away',
    });
    const stream = record(controller.observe(dead, { id: 2 }));
    await flush(10);
    expect(stream.last()).toEqual({
      data: undefined,
      error: undefined,
      loading: false,
      fetching: false,
      stale: false,
      paused: false,
    });
    expect(fake.requests).toEqual([]);
    expect(controller.getState().meta).toEqual({});
    stream.unsubscribe();
  });

  it('an aborted optimistic mutation is rolled back at once; the store then follows the server', async () => {
    const controller = new Controller();
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    const state = controller.getState();
    fake.setLatency(40);
    const abort = new AbortController();
    const renaming = controller.fetch(
      TodoResource.partialUpdate.extend({ signal: abort.signal }),
      { id: 1 },
      { title: 'never mind' },
    );
    expect(list.last().data![0]!.title).toBe('never mind');
    abort.abort();
    await expect(renaming).rejects.toBeInstanceOf(AbortError);
    expect(list.last().data![0]!.title).toBe('todo 1');
    expect(controller.getState().entities).toBe(state.entities);
    expect(controller.getState().optimistic).toEqual([]);
    expect(controller.getState().meta).toEqual(state.meta);
    // an abort does not undo what the server may already have done: a refresh shows its data
    await new Promise((resolve) => setTimeout(resolve, 60));
    fake.setLatency(0);
    controller.invalidateAll(TodoResource.getList);
    await settled(() =>
      expect(list.last().data?.map((todo) => todo.title)).toEqual(serverTodos(fake).map((todo) => todo.title)),
    );
    list.unsubscribe();
  });

  it("a signal in getRequestInit gives fetch's own abort, reported as a named AbortError", async () => {
    const abort = new AbortController();
    const get = TodoResource.get.extend({
      getRequestInit(body) {
        return { ...TodoResource.get.getRequestInit(body), signal: abort.signal };
      },
    });
    fake.setLatency(30);
    const pending = get({ id: 1 });
    abort.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({
      name: 'AbortError',
      method: 'GET',
      url: 'http://api.test/todos/1',
      endpoint: 'Todo.get',
    });
  });
});

describe('flapping availability', () => {
  it('fail, succeed, fail, succeed: the retries recover every time; the data is never lost and no error shows', async () => {
    useFakeClock();
    const controller = new Controller({ retryDelay: 500 });
    const Live = TodoResource.get.extend({ pollFrequency: 10_000 });
    const stream = record(controller.observe(Live, { id: 1 }));
    await until(() => expect(stream.last().data?.title).toBe('todo 1'));
    const from = stream.values.length - 1;
    await flush(10);
    for (let round = 1; round <= 6; round++) {
      answerNext(fake, 'get', '/todos/1', round % 2 ? refused : status(503));
      fake.todos.get(1)!.title = `version ${round}`;
      await tick(round === 1 ? 10_000 : 9_500); // the poll (every 10 s): fails
      expect(fake.requests).toHaveLength(2 * round);
      expect(stream.last()).toMatchObject({
        fetching: true,
        error: undefined,
        data: { title: round === 1 ? 'todo 1' : `version ${round - 1}` },
      });
      await tick(500); // the retry: succeeds
      expect(fake.requests).toHaveLength(2 * round + 1);
      expect(stream.last().data!.title).toBe(`version ${round}`);
    }
    const seen = stream.values.slice(from);
    expect(seen.every((state) => state.data !== undefined && state.error === undefined && !state.loading)).toBe(true);
    expect(storedTodos(controller.getState())).toEqual([fake.todos.get(1)]);
    stream.unsubscribe();
  });

  it('without retries: each failure shows its error beside the kept data, each success clears it', async () => {
    let now = 1_000;
    const controller = testController({ now: () => now });
    const stream = record(controller.observe(TodoResource.getList));
    await settled(() => expect(stream.last().data).toBeDefined());
    const from = stream.values.length - 1;
    for (let round = 1; round <= 4; round++) {
      const failing = round % 2 === 1;
      if (failing) answerNext(fake, 'get', '/todos', round === 1 ? refused : status(502));
      else fake.todos.get(2)!.title = `round ${round}`;
      now += 61_000;
      controller.expireAll(TodoResource.getList);
      await settled(() => expect(stream.last().fetching).toBe(false));
      const shown = stream.last();
      expect(shown.data!.map((todo) => todo.id)).toEqual([1, 2, 3, 4]);
      if (failing) expect(shown.error).toMatchObject({ name: 'NetworkError', status: round === 1 ? 0 : 502 });
      else expect(shown).toMatchObject({ error: undefined, stale: false });
    }
    expect(stream.values.slice(from).every((state) => state.data?.length === 4)).toBe(true);
    expect(stream.last().data![1]!.title).toBe('round 4');
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    stream.unsubscribe();
  });
});

describe('recovery after a failed first load', () => {
  const summary = (state: QueryState<Todo>) =>
    `${state.data?.title ?? '-'}|${state.loading ? 'L' : ''}${state.fetching ? 'F' : ''}${state.error ? `E${(state.error as NetworkError).status}` : ''}`;

  it('after the retries fail, a new subscriber (once errorExpiryLength passed) refetches and everyone gets the data', async () => {
    useFakeClock();
    const controller = new Controller();
    answerNext(fake, 'get', '/todos/2', ...Array(4).fill(status(500)));
    const first = record(controller.observe(TodoResource.get, { id: 2 }));
    await flush(10);
    for (const wait of [1_000, 2_000, 4_000]) await tick(wait);
    expect(first.last().error).toBeDefined();
    expect(first.values.map(summary)).toEqual(['-|LF', '-|E500']);
    // at once: within errorExpiryLength (1 s) a new subscriber sees the error and does not hammer the server
    const impatient = record(controller.observe(TodoResource.get, { id: 2 }));
    expect(impatient.last()).toMatchObject({ error: { status: 500 }, loading: false });
    impatient.unsubscribe();
    expect(fake.requests).toHaveLength(4);
    await tick(1_000);
    const later = record(controller.observe(TodoResource.get, { id: 2 }));
    await until(() => expect(first.last().data?.title).toBe('todo 2'));
    expect(later.last().data).toBe(first.last().data);
    // the refetch shows loading without the old error (it is cleared when loading becomes true)
    expect(first.values.map(summary)).toEqual(['-|LF', '-|E500', '-|LF', 'todo 2|']);
    expect(fake.requests).toHaveLength(5);
    first.unsubscribe();
    later.unsubscribe();
  });

  it('a new mount after everyone left (a Retry that remounts the list) refetches at once, even within errorExpiryLength', async () => {
    const controller = testController();
    fake.fail('GET', 404);
    const first = record(controller.observe(TodoResource.get, { id: 3 }));
    await settled(() => expect(first.last().error).toBeDefined());
    expect(first.last()).toMatchObject({ data: undefined, loading: false, error: { status: 404 } });
    first.unsubscribe(); // e.g. an <ErrorBoundary> shows its fallback instead of the list
    expect(peekQuery(controller, TodoResource.get, { id: 3 })).toMatchObject({
      loading: true,
      fetching: true,
      error: undefined, // cleared when loading becomes true
    });
    const remounted = record(controller.observe(TodoResource.get, { id: 3 }));
    expect(remounted.values[0]).toMatchObject({ data: undefined, loading: true, error: undefined });
    await settled(() => expect(remounted.last().data?.title).toBe('todo 3'));
    expect(remounted.last().error).toBeUndefined();
    expect(fake.requests).toEqual(['GET /todos/3', 'GET /todos/3']);
    remounted.unsubscribe();
  });

  it('invalidate refetches at once, even within errorExpiryLength', async () => {
    const controller = testController();
    fake.fail('GET', 503);
    const stream = record(controller.observe(TodoResource.getList, { userId: 2 }));
    await settled(() => expect(stream.last().error).toBeDefined());
    expect(stream.last()).toMatchObject({ data: undefined, loading: false, error: { status: 503 } });
    controller.invalidate(TodoResource.getList, { userId: 2 });
    await settled(() => expect(stream.last().data?.map((todo) => todo.id)).toEqual([2, 4]));
    expect(stream.last().error).toBeUndefined();
    stream.unsubscribe();
  });
});

describe('error messages name the endpoint, the method and URL, the status and the cause', () => {
  it.each([
    [
      'a 404',
      () => status(404)(),
      /^GET http:\/\/api\.test\/todos\/7 \(endpoint Todo\.get\) answered 404 .*with ".*failed with 404.*"\. Check the path/,
    ],
    [
      'a 503',
      () => status(503)(),
      /^GET http:\/\/api\.test\/todos\/7 \(endpoint Todo\.get\) answered 503 .*failed with 503.*retrying later may help/,
    ],
    [
      'connection refused',
      () => refused(),
      /^GET http:\/\/api\.test\/todos\/7 \(endpoint Todo\.get\) failed before any response \(status 0\): TypeError: Failed to fetch\. .*check that the server runs/,
    ],
    [
      'an HTML page',
      () => HttpResponse.html('<html>Sign in</html>'),
      /^GET http:\/\/api\.test\/todos\/7 \(endpoint Todo\.get\) answered 200 with content-type "text\/html" and a body that is not JSON \(Unexpected token .*\): "<html>Sign in<\/html>"/,
    ],
  ])('%s', async (_name, answer, message) => {
    answerNext(fake, 'get', '/todos/7', answer);
    const error = await testController()
      .fetch(TodoResource.get, { id: 7 })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(message);
    expect(error).toMatchObject({ method: 'GET', url: 'http://api.test/todos/7', endpoint: 'Todo.get' });
  });

  it('a NormalizeError from the controller names the entity and the request', async () => {
    answerNext(fake, 'get', '/todos/7', () => HttpResponse.json({ title: 'no id' }));
    const error = await testController()
      .fetch(TodoResource.get, { id: 7 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'NormalizeError', schemaKey: 'Todo' });
    expect((error as Error).message).toMatch(
      /^Todo: no usable primary key.*\. In the response to GET http:\/\/api\.test\/todos\/7 \(endpoint Todo\.get\)\.$/,
    );
  });
});
