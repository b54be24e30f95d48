/**
 * The apps' live stream (demos/live.ts) on a real Controller: what each change does to the cached
 * lists, malformed messages, and the whole connection against the real REST server (its `/events`
 * read with fetch, as `EventSource` is not in Node 20).
 */
import { Temporal } from 'temporal-polyfill';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Controller, type ControllerAction } from '../../core/index.js';
import { LiveTodos, Todo, TodoResource, listArgs } from '../../demos/api.js';
import {
  LiveEventError,
  applyTodoEvent,
  connectTodoEvents,
  parseTodoEvent,
  type StreamStatus,
  type TodoEvent,
} from '../../demos/live.js';
import { copySeed, seedData, startRestServer, type RestServer } from '../../demos/server/restServer.mjs';
import { fetchEvents } from './sse.js';

const SOON = { timeout: 5_000, interval: 10 };
const ALL = listArgs(undefined);
const ADA = listArgs(1);
const GRACE = listArgs(2);

/** A controller holding the lists an app shows: "All users", Ada's, Grace's (first pages) and the live panel's. */
function withLists(todos = seedData().todos): Controller {
  const controller = new Controller();
  controller.setResponse(TodoResource.getList, ALL, todos.slice(0, 5));
  controller.setResponse(TodoResource.getList, ADA, todos.filter((todo) => todo.userId === 1).slice(0, 5));
  controller.setResponse(TodoResource.getList, GRACE, todos.filter((todo) => todo.userId === 2).slice(0, 5));
  controller.setResponse(LiveTodos, {}, todos);
  return controller;
}

const ids = (controller: Controller, args: { userId?: number; _limit: number }) =>
  controller.getResponse(TodoResource.getList, args).data?.map((todo) => todo.id);
const liveIds = (controller: Controller) => controller.getResponse(LiveTodos, {}).data?.map((todo) => todo.id);
const apply = (controller: Controller, event: TodoEvent) => applyTodoEvent(event, controller);

describe('applyTodoEvent', () => {
  it('a created todo joins every cached list its user matches, at the end, once', () => {
    const controller = withLists();
    const before = { all: ids(controller, ALL)!, ada: ids(controller, ADA)!, grace: ids(controller, GRACE)! };
    const todo = {
      id: 25,
      userId: 2,
      title: 'From the stream',
      completed: false,
      createdAt: '2026-01-02T03:04:05.000Z',
    };
    apply(controller, { type: 'created', todo });
    apply(controller, { type: 'created', todo }); // the app that created it also has it from its POST

    expect(ids(controller, ALL)).toEqual([...before.all, 25]);
    expect(ids(controller, GRACE)).toEqual([...before.grace, 25]);
    expect(ids(controller, ADA)).toEqual(before.ada);
    expect(liveIds(controller)?.filter((id) => id === 25)).toEqual([25]);
    const stored = controller.get(Todo, { id: 25 })!;
    expect(stored.title).toBe('From the stream');
    expect(stored.createdAt).toBeInstanceOf(Temporal.Instant);
    expect(stored.createdAt.toString()).toBe('2026-01-02T03:04:05Z');
  });

  it('an updated todo changes in every list that shows it; a new userId moves it to that user’s lists', () => {
    const controller = withLists();
    const first = seedData().todos.find((todo) => todo.id === 1)!;
    expect(first.userId).toBe(1);
    const grace = ids(controller, GRACE)!;

    apply(controller, { type: 'updated', todo: { ...first, title: 'Renamed elsewhere' } });
    for (const args of [ALL, ADA]) {
      expect(controller.getResponse(TodoResource.getList, args).data?.find((todo) => todo.id === 1)?.title).toBe(
        'Renamed elsewhere',
      );
    }
    expect(ids(controller, GRACE)).toEqual(grace);

    apply(controller, { type: 'updated', todo: { ...first, title: 'Renamed elsewhere', userId: 2 } });
    expect(ids(controller, ADA)).not.toContain(1);
    expect(ids(controller, GRACE)).toEqual([...grace, 1]);
    expect(ids(controller, ALL)).toContain(1); // "All users" matches either user: it stays where it was
    expect(controller.get(Todo, { id: 1 })?.userId).toBe(2);
  });

  it('an update of a todo the store does not hold is written but joins no list', () => {
    const controller = withLists(seedData().todos.slice(0, 10));
    const before = { all: ids(controller, ALL), ada: ids(controller, ADA), live: liveIds(controller) };
    const far = seedData().todos.find((todo) => todo.id === 20)!;
    apply(controller, { type: 'updated', todo: { ...far, title: 'On a page not loaded' } });
    expect({ all: ids(controller, ALL), ada: ids(controller, ADA), live: liveIds(controller) }).toEqual(before);
    expect(controller.get(Todo, { id: 20 })?.title).toBe('On a page not loaded');
  });

  it('a deleted todo leaves every list (its id as a number or a string)', () => {
    const controller = withLists();
    apply(controller, { type: 'deleted', id: 1 });
    apply(controller, { type: 'deleted', id: '2' });
    for (const list of [ids(controller, ALL), ids(controller, ADA), ids(controller, GRACE), liveIds(controller)]) {
      expect(list).not.toContain(1);
      expect(list).not.toContain(2);
    }
    expect(ids(controller, ALL)).toEqual([3, 4, 5]);
    expect(controller.get(Todo, { id: 1 })).toBeUndefined();
  });

  it('a move to another user marks the paged lists stale: the todo that slides into its old user’s page is fetched', () => {
    const controller = withLists();
    const first = seedData().todos.find((todo) => todo.id === 1)!;
    apply(controller, { type: 'updated', todo: { ...first, title: 'Renamed elsewhere' } });
    expect(controller.getResponse(TodoResource.getList, ADA).stale).toBe(false); // a rename shifts no page
    apply(controller, { type: 'updated', todo: { ...first, userId: 2 } });
    expect(controller.getResponse(TodoResource.getList, ADA).stale).toBe(true);
    expect(controller.getResponse(TodoResource.getList, GRACE).stale).toBe(true);
    expect(ids(controller, ADA)).not.toContain(1);
  });

  it('a deletion marks the paged lists stale: the todo that slides into the page is fetched', () => {
    const controller = withLists();
    apply(controller, { type: 'deleted', id: 1 });
    expect(controller.getResponse(TodoResource.getList, ALL).stale).toBe(true);
    expect(controller.getResponse(TodoResource.getList, ALL).data?.map((todo) => todo.id)).toEqual([2, 3, 4, 5]);
  });
});

describe('parseTodoEvent', () => {
  it('reads the three kinds of message', () => {
    expect(parseTodoEvent('{"type":"created","todo":{"id":3,"title":"a"}}')).toEqual({
      type: 'created',
      todo: { id: 3, title: 'a' },
    });
    expect(parseTodoEvent('{"type":"updated","todo":{"id":3}}')).toEqual({ type: 'updated', todo: { id: 3 } });
    expect(parseTodoEvent('{"type":"deleted","id":3}')).toEqual({ type: 'deleted', id: 3 });
  });

  it.each([
    ['{not json', /not JSON/],
    ['[1, 2]', /not an object/],
    ['null', /not an object/],
    ['{"type":"exploded","id":1}', /unknown type "exploded"/],
    ['{"todo":{"id":1}}', /unknown type undefined/],
    ['{"type":"created"}', /no todo with an id/],
    ['{"type":"updated","todo":{"title":"no id"}}', /no todo with an id/],
    ['{"type":"created","todo":[1]}', /no todo with an id/],
    ['{"type":"deleted"}', /no id/],
    ['{"type":"deleted","id":""}', /no id/],
  ])('throws a LiveEventError for %s', (data, reason) => {
    const error = (() => {
      try {
        parseTodoEvent(data);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(LiveEventError);
    expect((error as LiveEventError).name).toBe('LiveEventError');
    expect((error as LiveEventError).message).toMatch(reason);
    expect((error as LiveEventError).data).toBe(data);
  });
});

describe('connectTodoEvents, against the REST server', () => {
  let seed: ReturnType<typeof copySeed>;
  let rest: RestServer;

  beforeAll(async () => {
    seed = copySeed();
    rest = await startRestServer({ file: seed.file });
  });
  afterAll(async () => {
    await rest.close();
    seed.remove();
  });
  beforeEach(() => rest.reset());
  afterEach(() => expect.poll(() => rest.events.clients, SOON).toBe(0));

  function connected() {
    const controller = withLists(rest.data().todos);
    const statuses: StreamStatus[] = [];
    const actions: ControllerAction[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    const connection = connectTodoEvents(controller, {
      onStatus: (status) => statuses.push(status),
      events$: fetchEvents(`${rest.url}/events`),
    });
    return { controller, statuses, actions, connection };
  }
  const write = (method: string, path: string, body?: unknown) =>
    fetch(`${rest.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('applies what anyone changes; a malformed message is a pushError and the stream goes on', async () => {
    const { controller, statuses, actions, connection } = connected();
    await expect.poll(() => statuses, SOON).toEqual(['connecting', 'live']);
    const opened = rest.events.connections;

    await write('POST', '/todos', { userId: 1, title: 'Posted with curl', completed: false });
    await expect.poll(() => ids(controller, ADA), SOON).toContain(25);
    await write('PATCH', '/todos/25', { completed: true });
    await expect.poll(() => controller.get(Todo, { id: 25 })?.completed, SOON).toBe(true);

    rest.events.send('{"type":"created"}');
    rest.events.send('not json at all');
    await write('DELETE', '/todos/25');
    await expect.poll(() => ids(controller, ADA), SOON).not.toContain(25);
    const errors = actions.filter((action) => action.type === 'pushError');
    expect(errors.map((action) => action.error)).toEqual([expect.any(LiveEventError), expect.any(LiveEventError)]);
    expect(errors.map((action) => action.message)).toEqual([
      { type: 'message', data: '{"type":"created"}' },
      { type: 'message', data: 'not json at all' },
    ]);
    expect(statuses).toEqual(['connecting', 'live']); // never reconnected
    expect(rest.events.connections).toBe(opened);

    connection.unsubscribe(); // closes the stream (afterEach: the server forgets it)
  });

  it('reconnects after the stream dropped, and the lists catch up on what it missed', async () => {
    const { controller, statuses, connection } = connected();
    await expect.poll(() => statuses, SOON).toEqual(['connecting', 'live']);
    // the first open does not catch up: the data shown was just fetched (or rendered on the server)
    expect(controller.getResponse(TodoResource.getList, ADA).stale).toBe(false);
    controller.setResponse(
      TodoResource.getList,
      ADA,
      rest
        .data()
        .todos.filter((todo) => todo.userId === 1)
        .slice(0, 5),
    );
    expect(controller.getResponse(TodoResource.getList, ADA).stale).toBe(false);

    rest.events.drop();
    await expect.poll(() => statuses, SOON).toEqual(['connecting', 'live', 'reconnecting', 'live']);
    expect(controller.getResponse(TodoResource.getList, ADA).stale).toBe(true);
    expect(controller.getResponse(LiveTodos, {}).stale).toBe(true);
    await write('PATCH', '/todos/1', { title: 'After the reconnect' });
    await expect.poll(() => controller.get(Todo, { id: 1 })?.title, SOON).toBe('After the reconnect');
    connection.unsubscribe();
  });

  it('ends the connection when the controller is disposed', async () => {
    const { controller, statuses, connection } = connected();
    await expect.poll(() => statuses, SOON).toEqual(['connecting', 'live']);
    expect(rest.events.clients).toBe(1);
    controller.dispose();
    expect(connection.closed).toBe(true);
  });
});
