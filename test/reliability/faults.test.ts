/**
 * HTTP faults, one by one: error statuses (for a first load, for a refresh over cached data, and for
 * an optimistic mutation), bodies that are not JSON, empty bodies and JSON of the wrong shape. Each
 * test says what the user sees, checks that the store lost nothing, and that the controller works on.
 */
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, NetworkError, NormalizeError, ParseError } from '../../core/index.js';
import {
  TodoResource,
  answerNext,
  kept,
  record,
  serverTodos,
  settled,
  storedTodos,
  useTodoServer,
} from './faultHarness.js';

const fake = useTodoServer();

// a browser's controller retries failed GETs by default (one without a document does not): these tests are about it
beforeEach(() => vi.stubGlobal('document', {}));
afterEach(() => vi.unstubAllGlobals());

const STATUSES = [400, 401, 403, 404, 409, 422, 500, 502, 503] as const;
/** Retries on, without waiting: a 5xx is tried 4 times, a 4xx once. */
const controllerFor = (options: { now?: () => number } = {}) => new Controller({ retryDelay: 0, ...options });
const attempts = (status: number) => (status >= 500 ? 4 : 1);

describe.each(STATUSES)('HTTP %i', (status) => {
  it('on a first load: the error shows (no data), the store holds only the error, and invalidate recovers', async () => {
    const controller = controllerFor();
    fake.fail('GET', status, attempts(status));
    const stream = record(controller.observe(TodoResource.getList, { userId: 1 }));
    await settled(() => expect(stream.last().error).toBeDefined());
    expect(stream.last()).toMatchObject({
      data: undefined,
      loading: false,
      fetching: false,
      error: { name: 'NetworkError', status },
    });
    expect(stream.last().error!.message).toContain(
      `GET http://api.test/todos?userId=1 (endpoint Todo.getList) answered ${status}`,
    );
    expect(fake.requests).toHaveLength(attempts(status));
    expect(controller.getState()).toMatchObject({ entities: {}, endpoints: {}, optimistic: [] });
    controller.invalidate(TodoResource.getList, { userId: 1 });
    await settled(() => expect(stream.last().data?.map((todo) => todo.id)).toEqual([1, 3]));
    expect(stream.last().error).toBeUndefined();
    stream.unsubscribe();
  });

  it(`on a refresh over cached data: ${status >= 500 ? 'the data stays on screen beside the error' : 'the error replaces the data on screen'}; the store keeps the data`, async () => {
    let now = 1_000;
    const controller = controllerFor({ now: () => now });
    const stream = record(controller.observe(TodoResource.getList));
    await settled(() => expect(stream.last().data).toBeDefined());
    const data = stream.last().data;
    const before = kept(controller.getState());
    fake.fail('GET', status, attempts(status));
    now += 61_000;
    controller.expireAll(TodoResource.getList);
    await settled(() => expect(stream.last().error).toBeDefined());
    expect(stream.last()).toMatchObject({ error: { status }, fetching: false, loading: false });
    if (status >= 500) expect(stream.last().data).toBe(data);
    else expect(stream.last().data).toBeUndefined();
    expect(kept(controller.getState())).toEqual(before);
    expect(controller.getState().entities).toBe(before.entities);
    expect(controller.getResponse(TodoResource.getList).data).toEqual(data);
    // the next successful refresh clears the error and shows the server's data
    fake.todos.get(4)!.title = 'after the failure';
    controller.invalidate(TodoResource.getList);
    await settled(() => expect(stream.last().data?.[3]?.title).toBe('after the failure'));
    expect(stream.last().error).toBeUndefined();
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    stream.unsubscribe();
  });

  it('on an optimistic mutation: shown at once, rolled back on the error, the server unchanged; the next change works', async () => {
    const controller = controllerFor();
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toBeDefined());
    const entities = controller.getState().entities;
    const titles = () => list.last().data!.map((todo) => todo.title);
    fake.fail('PATCH', status);
    fake.setLatency(10);
    const failing = controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'rejected' });
    expect(titles()).toEqual(['todo 1', 'rejected', 'todo 3', 'todo 4']);
    const error = await failing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({
      status,
      method: 'PATCH',
      url: 'http://api.test/todos/2',
      endpoint: 'Todo.partialUpdate',
    });
    expect(titles()).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    expect(list.last().error).toBeUndefined(); // a mutation's error goes to its caller, not to the list
    expect(controller.getState().entities).toBe(entities);
    expect(controller.getState().optimistic).toEqual([]);
    expect(fake.requests.filter((request) => request.startsWith('PATCH'))).toHaveLength(1); // mutations are not retried
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    await controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'accepted' });
    expect(titles()).toEqual(['todo 1', 'accepted', 'todo 3', 'todo 4']);
    expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
    list.unsubscribe();
  });
});

describe('bodies that are not what the endpoint expects', () => {
  /** Loads todo 1, answers the next GET with `answer`, and returns what the refresh did. */
  async function refreshWith(answer: () => Response) {
    let now = 1_000;
    const controller = controllerFor({ now: () => now });
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data).toBeDefined());
    const before = kept(controller.getState());
    answerNext(fake, 'get', '/todos/1', answer);
    now += 61_000;
    const error = await controller.fetch(TodoResource.get, { id: 1 }).catch((e: unknown) => e);
    return { controller, stream, before, error: error as Error };
  }

  /** After the failure: the store lost nothing, one request was made (no retry), and the next fetch works. */
  async function expectIntactAndWorking({ controller, stream, before }: Awaited<ReturnType<typeof refreshWith>>) {
    expect(kept(controller.getState())).toEqual(before);
    expect(controller.getState().entities).toBe(before.entities);
    expect(fake.requests).toHaveLength(2);
    fake.todos.get(1)!.title = 'good JSON again';
    await controller.fetch(TodoResource.get, { id: 1 });
    expect(stream.last()).toMatchObject({ error: undefined, data: { title: 'good JSON again' } });
    stream.unsubscribe();
  }

  it('an HTML error page with status 200 is a ParseError with a clear message; the data stays on screen beside it, the store keeps it', async () => {
    const result = await refreshWith(() =>
      HttpResponse.html('<!doctype html><html><body><h1>Please sign in</h1></body></html>'),
    );
    expect(result.error).toBeInstanceOf(ParseError);
    expect(result.error).toMatchObject({
      status: 200,
      contentType: 'text/html',
      endpoint: 'Todo.get',
      url: 'http://api.test/todos/1',
    });
    expect(result.error.message).toMatch(
      /^GET http:\/\/api\.test\/todos\/1 \(endpoint Todo\.get\) answered 200 with content-type "text\/html" and a body that is not JSON \(Unexpected token '<'.*\): "<!doctype html><html><body><h1>Please sign in.*Check urlPrefix and path: an HTML page usually means/,
    );
    expect(result.stream.last()).toMatchObject({ data: { id: 1 }, error: result.error, loading: false });
    await expectIntactAndWorking(result);
  });

  it('truncated JSON is a ParseError naming the cut-off body', async () => {
    const result = await refreshWith(
      () => new HttpResponse('{"id": 1, "title": "cut off he', { headers: { 'content-type': 'application/json' } }),
    );
    expect(result.error).toBeInstanceOf(ParseError);
    expect(result.error.message).toMatch(
      /answered 200 with content-type "application\/json" and a body that is not JSON \(Unterminated string in JSON.*\): "\{\\"id\\": 1, \\"title\\": \\"cut off he"/,
    );
    await expectIntactAndWorking(result);
  });

  it('an empty body with 200 resolves null (the API contract) and stores null for that request only', async () => {
    const result = await refreshWith(() => new HttpResponse(null, { status: 200 }));
    expect(result.error).toBeNull(); // resolved, not rejected
    expect(result.stream.last()).toMatchObject({ data: null, error: undefined, loading: false, fetching: false });
    expect(result.controller.getState().entities).toBe(result.before.entities); // todo 1 itself is untouched
    expect(result.controller.getState().endpoints[TodoResource.get.key({ id: 1 })]).toBeNull();
    await result.controller.fetch(TodoResource.get, { id: 1 });
    expect(result.stream.last().data!.title).toBe('todo 1');
    result.stream.unsubscribe();
  });

  it.each([
    [
      'a list for an entity',
      [{ id: 1, title: 'x' }],
      'Todo',
      /^Todo: expected an object but got an array \(length 1\)/,
    ],
    [
      'an entity without its pk',
      { title: 'no id' },
      'Todo',
      /^Todo: no usable primary key: pk\(\) returned "undefined" for \{"title":"no id"\}/,
    ],
    [
      'a pk of the wrong type (an object)',
      { id: { value: 1 }, title: 'x' },
      'Todo',
      /^Todo: (no usable primary key: pk\(\) returned "\[object Object\]"|the pk field "id" must be a string or a number)/,
    ],
    [
      'a pk of the wrong type (a boolean)',
      { id: true, title: 'x' },
      'Todo',
      /^Todo: the pk field "id" must be a string or a number, but it is boolean true/,
    ],
    [
      'a null pk',
      { id: null, title: 'x' },
      'Todo',
      /^Todo: (no usable primary key: pk\(\) returned "null"|the pk field "id")/,
    ],
  ])('%s is a NormalizeError naming the entity; nothing is stored', async (_name, body, schemaKey, message) => {
    const result = await refreshWith(() => HttpResponse.json(body));
    expect(result.error).toBeInstanceOf(NormalizeError);
    expect(result.error).toMatchObject({
      schemaKey,
      request: { method: 'GET', url: 'http://api.test/todos/1', endpoint: 'Todo.get' },
    });
    expect(result.error.message).toMatch(message);
    expect(result.error.message).toContain('In the response to GET http://api.test/todos/1 (endpoint Todo.get).');
    expect(result.stream.last()).toMatchObject({ data: undefined, error: result.error, loading: false });
    expect(result.controller.getState().meta[TodoResource.get.key({ id: 1 })]!.error).toBe(result.error);
    await expectIntactAndWorking(result);
  });

  it.each([
    [
      'an object where a list is expected',
      { id: 9, title: 'one' },
      /^Collection\[Todo\]: expected an array but got an object/,
    ],
    ['a list with one bad item', [{ id: 1, title: 'fine' }, { title: 'no id' }], /^Todo: no usable primary key/],
  ])(
    'for a list, %s is a NormalizeError; the cached list and its todos are untouched',
    async (_name, body, message) => {
      let now = 1_000;
      const controller = controllerFor({ now: () => now });
      const stream = record(controller.observe(TodoResource.getList));
      await settled(() => expect(stream.last().data).toBeDefined());
      const before = kept(controller.getState());
      answerNext(fake, 'get', '/todos', () => HttpResponse.json(body));
      now += 61_000;
      const error = await controller.fetch(TodoResource.getList).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NormalizeError);
      expect((error as Error).message).toMatch(message);
      expect(stream.last()).toMatchObject({ data: undefined, error, loading: false });
      expect(kept(controller.getState())).toEqual(before);
      expect(controller.getState().entities).toBe(before.entities);
      expect(storedTodos(controller.getState())).toEqual(serverTodos(fake));
      await controller.fetch(TodoResource.getList);
      expect(stream.last()).toMatchObject({ error: undefined });
      expect(stream.last().data!.map((todo) => todo.id)).toEqual([1, 2, 3, 4]);
      stream.unsubscribe();
    },
  );
});
