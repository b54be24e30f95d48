/**
 * rx-rest/devtools against the Redux DevTools extension's page API. The extension is a browser
 * extension that cannot run in Node, so `fakeExtension` implements its protocol as its page script
 * does: `connect(options)` gives `init`, `send`, `subscribe` (returning an unsubscribe), `unsubscribe`
 * and `error`; states and actions are turned into JSON on their way to the monitor, and the monitor's
 * messages (`DISPATCH` with `JUMP_TO_STATE`, ...) carry the state as that JSON. HTTP goes through msw;
 * test/e2e/devtools.e2e.ts checks the same in Chromium with a demo app.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectDevtools, type DevtoolsConnection, type DevtoolsMessage } from '../../../adapters/devtools/index.js';
import { Controller, takeSnapshot, type StateSnapshot } from '../../../core/index.js';
import { TodoResource, record, settled, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();

interface Sent {
  /** What was passed, kept by reference (the extension serializes later, in batches). */
  readonly action: unknown;
  readonly state: unknown;
  /** Its JSON when it was passed. */
  readonly json: string;
}

/** A stand-in for `window.__REDUX_DEVTOOLS_EXTENSION__` that records what the page sends. */
function fakeExtension() {
  const connections: (DevtoolsConnection & {
    options: Record<string, unknown>;
    inits: Sent[];
    sends: Sent[];
    listeners: Set<(message: DevtoolsMessage) => void>;
    /** A message of the monitor to the page. */
    dispatch(message: unknown): void;
    /** The monitor's time travel to the state sent with action `index` (0: the init state). */
    jump(index: number, type?: 'JUMP_TO_STATE' | 'JUMP_TO_ACTION'): void;
  })[] = [];
  return {
    connections,
    connect(options: Record<string, unknown>) {
      const listeners = new Set<(message: DevtoolsMessage) => void>();
      const inits: Sent[] = [];
      const sends: Sent[] = [];
      const connection = {
        options,
        inits,
        sends,
        listeners,
        init: (state: unknown) => inits.push({ action: undefined, state, json: JSON.stringify(state) }),
        send: (action: unknown, state: unknown) =>
          sends.push({ action, state, json: JSON.stringify({ action, state }) }),
        subscribe(listener: (message: DevtoolsMessage) => void) {
          listeners.add(listener);
          return () => void listeners.delete(listener);
        },
        unsubscribe: () => listeners.clear(),
        error: () => {},
        dispatch: (message: unknown) => [...listeners].forEach((listener) => listener(message as DevtoolsMessage)),
        jump(index: number, type: 'JUMP_TO_STATE' | 'JUMP_TO_ACTION' = 'JUMP_TO_STATE') {
          const state = index === 0 ? inits[0]!.json : JSON.stringify(JSON.parse(sends[index - 1]!.json).state);
          connection.dispatch({ type: 'DISPATCH', payload: { type, index, actionId: index }, state });
        },
      };
      connections.push(connection);
      return connection;
    },
  };
}

/** A page with the extension installed (`window.__REDUX_DEVTOOLS_EXTENSION__`), until the test ends. */
function installExtension() {
  const extension = fakeExtension();
  vi.stubGlobal('window', { __REDUX_DEVTOOLS_EXTENSION__: extension });
  return extension;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const titles = (state: StateSnapshot | unknown) =>
  Object.values((state as StateSnapshot).entities.Todo ?? {}).map((todo) => (todo as { title: string }).title);

/** A connected controller with a todo list loaded (actions: the list's fetch). */
async function connectedWithList(options?: Parameters<typeof connectDevtools>[1]) {
  const extension = installExtension();
  const controller = new Controller({ retry: 0 });
  const teardown = connectDevtools(controller, options);
  const connection = extension.connections[0]!;
  await controller.fetch(TodoResource.getList, {});
  return { controller, teardown, connection, extension };
}

describe('connectDevtools without the extension', () => {
  it('does nothing in Node (no window), in a page without the extension, or with something else in its place', async () => {
    for (const window of [undefined, {}, { __REDUX_DEVTOOLS_EXTENSION__: 42 }, { __REDUX_DEVTOOLS_EXTENSION__: {} }]) {
      if (window !== undefined) vi.stubGlobal('window', window);
      const warn = vi.spyOn(console, 'warn');
      const controller = new Controller({ retry: 0 });
      const teardown = connectDevtools(controller, { name: 'todos' });
      await controller.fetch(TodoResource.get, { id: 1 });
      expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('todo 1');
      expect(teardown()).toBeUndefined();
      expect(warn).not.toHaveBeenCalled();
      vi.unstubAllGlobals();
    }
    expect(globalThis).not.toHaveProperty('window');
  });
});

describe('connectDevtools reporting', () => {
  it('connects with its options and the features it supports, then sends the initial state', () => {
    const extension = installExtension();
    const controller = new Controller({ retry: 0 });
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'before' });
    connectDevtools(controller, { name: 'todos', maxAge: 30, actionsDenylist: ['rx-rest/gc'] });
    const [connection] = extension.connections;
    expect(connection!.options).toEqual({
      name: 'todos',
      maxAge: 30,
      actionsDenylist: ['rx-rest/gc'],
      features: { pause: true, export: true, import: 'custom', jump: true },
    });
    expect(connection!.inits).toHaveLength(1);
    expect(connection!.inits[0]!.state).toEqual(takeSnapshot(controller, { invalid: true }));
    expect(titles(connection!.inits[0]!.state)).toEqual(['before']);
    expect(connection!.listeners.size).toBe(1);
  });

  it('sends each action as plain data with the state after it', async () => {
    const { controller, connection } = await connectedWithList();
    await controller.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'renamed' });
    fake.fail('GET', 500);
    await expect(controller.fetch(TodoResource.get, { id: 3 })).rejects.toThrow();
    controller.invalidate(TodoResource.get, { id: 1 });

    const types = connection.sends.map((sent) => (sent.action as { type: string }).type);
    expect(types).toEqual([
      'rx-rest/fetch',
      'rx-rest/optimistic',
      'rx-rest/fetch',
      'rx-rest/setError',
      'rx-rest/invalidate',
    ]);
    for (const sent of connection.sends) {
      // what JSON and structured clone give back is what was sent: no functions, classes or Errors
      expect(roundTrip(sent.action)).toEqual(sent.action);
      expect(structuredClone(sent.action)).toEqual(sent.action);
      expect(roundTrip(sent.state)).toEqual(sent.state);
      expect(structuredClone(sent.state)).toEqual(sent.state);
    }
    expect(connection.sends[0]!.action).toMatchObject({
      type: 'rx-rest/fetch',
      key: TodoResource.getList.key({}),
      endpoint: TodoResource.getList.name,
      method: 'GET',
      args: [{}],
      changes: { endpoints: [TodoResource.getList.key({})] },
    });
    expect(connection.sends[2]!.action).toMatchObject({
      endpoint: TodoResource.partialUpdate.name,
      method: 'PATCH',
      args: [{ id: 2 }, { title: 'renamed' }],
    });
    expect(connection.sends[3]!.action).toMatchObject({
      type: 'rx-rest/setError',
      key: TodoResource.get.key({ id: 3 }),
      error: expect.stringContaining('500'),
    });
    expect(titles(connection.sends[0]!.state)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    expect(titles(connection.sends[2]!.state)).toEqual(['todo 1', 'renamed', 'todo 3', 'todo 4']);
    expect(connection.sends.at(-1)!.state).toEqual(takeSnapshot(controller, { invalid: true }));
  });

  it('keeps each state as it was sent while the store moves on (the extension serializes later)', async () => {
    const { controller, connection } = await connectedWithList();
    controller.set(TodoResource.get.schema, { id: 1, title: 'changed' });
    await controller.fetch(TodoResource.delete, { id: 2 });
    controller.resetEntireStore();
    expect(connection.sends.length).toBeGreaterThanOrEqual(4);
    for (const sent of connection.sends)
      expect(JSON.stringify({ action: sent.action, state: sent.state })).toBe(sent.json);
    expect(JSON.stringify(connection.inits[0]!.state)).toBe(connection.inits[0]!.json);
  });

  it('lists deleted records as invalid in the state', async () => {
    const { controller, connection } = await connectedWithList();
    await controller.fetch(TodoResource.delete, { id: 2 });
    const state = connection.sends.at(-1)!.state as StateSnapshot;
    expect(state.invalid).toEqual([['Todo', '2']]);
  });

  it('a failing send is warned about and never reaches the app', async () => {
    const { controller, connection } = await connectedWithList();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    connection.send = () => {
      throw new Error('message port closed');
    };
    controller.set(TodoResource.get.schema, { id: 1, title: 'still written' });
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('still written');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('message port closed'), expect.any(Error));
  });
});

describe('connectDevtools time travel', () => {
  it('JUMP_TO_STATE and JUMP_TO_ACTION change what observers see, and are not sent back', async () => {
    const { controller, connection } = await connectedWithList();
    controller.set(TodoResource.get.schema, { id: 1, title: 'first edit' });
    controller.set(TodoResource.get.schema, { id: 1, title: 'second edit' });
    const list = record(controller.observe(TodoResource.getList, {}));
    const one = record(controller.observe(TodoResource.get, { id: 1 }));
    expect(list.last().data?.[0]?.title).toBe('second edit');
    const sent = connection.sends.length;

    connection.jump(1);
    expect(list.last().data?.map((todo) => todo.title)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    expect(one.last().data?.title).toBe('todo 1');
    connection.jump(2, 'JUMP_TO_ACTION');
    expect(list.last().data?.[0]?.title).toBe('first edit');
    expect(one.last().data?.title).toBe('first edit');
    expect(takeSnapshot(controller, { invalid: true })).toEqual(roundTrip(connection.sends[1]!.state));
    expect(connection.sends).toHaveLength(sent);

    // the app's own changes after a jump are reported again
    controller.set(TodoResource.get.schema, { id: 3, title: 'after the jump' });
    expect(connection.sends).toHaveLength(sent + 1);
    expect(fake.requests).toEqual(['GET /todos']);
    list.unsubscribe();
    one.unsubscribe();
  });

  it('a jump back to before a deletion shows the record again, and forward hides it again', async () => {
    const { controller, connection } = await connectedWithList();
    await controller.fetch(TodoResource.delete, { id: 2 });
    const list = record(controller.observe(TodoResource.getList, {}));
    expect(list.last().data?.map((todo) => todo.id)).toEqual([1, 3, 4]);
    connection.jump(1);
    expect(list.last().data?.map((todo) => todo.id)).toEqual([1, 2, 3, 4]);
    connection.jump(connection.sends.length);
    expect(list.last().data?.map((todo) => todo.id)).toEqual([1, 3, 4]);
    expect(controller.getState().entities.Todo?.['2']).toEqual(expect.anything());
    expect(takeSnapshot(controller, { invalid: true }).invalid).toEqual([['Todo', '2']]);
    list.unsubscribe();
  });

  it('RESET goes back to the state at connection, COMMIT and ROLLBACK start the history anew', async () => {
    const { controller, connection } = await connectedWithList();
    const dispatch = (type: string, state?: string) =>
      connection.dispatch({ type: 'DISPATCH', payload: { type }, state });

    dispatch('COMMIT');
    expect(connection.inits).toHaveLength(2);
    expect(titles(connection.inits[1]!.state)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    const committed = connection.inits[1]!.json;

    controller.set(TodoResource.get.schema, { id: 1, title: 'uncommitted' });
    dispatch('ROLLBACK', committed);
    expect(controller.get(TodoResource.get.schema, { id: 1 })?.title).toBe('todo 1');
    expect(connection.inits).toHaveLength(3);
    expect(connection.inits[2]!.json).toBe(committed);

    dispatch('RESET');
    expect(controller.getState().entities).toEqual({});
    expect(controller.getResponse(TodoResource.getList, {}).data).toBeUndefined();
    expect(connection.inits).toHaveLength(4);
    expect(connection.inits[3]!.json).toBe(connection.inits[0]!.json);
    expect(connection.sends).toHaveLength(2); // the fetch and the set: none of the messages was sent back
  });

  it('IMPORT_STATE applies the last state of the imported history and shows that history', async () => {
    const { controller, connection } = await connectedWithList();
    const source = new Controller();
    source.setResponse(TodoResource.get, { id: 9 }, { id: 9, title: 'imported' });
    const nextLiftedState = {
      actionsById: { 0: { action: { type: '@@INIT' } }, 1: { action: { type: 'rx-rest/set' } } },
      computedStates: [
        { state: roundTrip(takeSnapshot(new Controller())) },
        { state: roundTrip(takeSnapshot(source)) },
      ],
      stagedActionIds: [0, 1],
      currentStateIndex: 1,
      nextActionId: 2,
    };
    const sent = connection.sends.length;
    connection.dispatch({ type: 'DISPATCH', payload: { type: 'IMPORT_STATE', nextLiftedState } });
    expect(controller.get(TodoResource.get.schema, { id: 9 })?.title).toBe('imported');
    expect(controller.getResponse(TodoResource.getList, {}).data).toBeUndefined();
    expect(connection.sends).toHaveLength(sent + 1);
    expect(connection.sends.at(-1)).toMatchObject({ action: null, state: nextLiftedState });
  });
});

describe('connectDevtools and bad messages', () => {
  it('warns about a state it cannot apply, and keeps the store', async () => {
    const { controller, connection } = await connectedWithList();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const before = controller.getState();
    const jump = (state: unknown) =>
      connection.dispatch({ type: 'DISPATCH', payload: { type: 'JUMP_TO_STATE' }, state });
    jump('{"entities": {');
    jump(undefined);
    jump('"a string"');
    jump('{"hello": "world"}');
    jump('[1, 2, 3]');
    connection.dispatch({ type: 'DISPATCH', payload: { type: 'ROLLBACK' }, state: 'not json' });
    connection.dispatch({
      type: 'DISPATCH',
      payload: { type: 'IMPORT_STATE', nextLiftedState: { computedStates: [] } },
    });
    connection.dispatch({ type: 'DISPATCH', payload: { type: 'IMPORT_STATE' } });
    expect(warn).toHaveBeenCalledTimes(8);
    for (const [text] of warn.mock.calls)
      expect(text).toMatch(/^rx-rest\/devtools: ignored a \w+ message of Redux DevTools: /);
    expect(warn.mock.calls[0]![0]).toMatch(/JUMP_TO_STATE.*JSON/);
    expect(warn.mock.calls[3]![0]).toMatch(/restoreSnapshot expects a state snapshot/);
    expect(controller.getState()).toBe(before);
    expect(connection.inits).toHaveLength(1);
  });

  it('ignores, silently, messages of other kinds and of no known shape', async () => {
    const { controller, connection } = await connectedWithList();
    const warn = vi.spyOn(console, 'warn');
    const before = controller.getState();
    for (const message of [
      null,
      undefined,
      42,
      'DISPATCH',
      {},
      { type: 'START' },
      { type: 'ACTION', payload: '{"type":"rx-rest/reset"}' },
      { type: 'DISPATCH' },
      { type: 'DISPATCH', payload: null },
      { type: 'DISPATCH', payload: { type: 'TOGGLE_ACTION', id: 1 }, state: '{}' },
    ])
      connection.dispatch(message);
    expect(warn).not.toHaveBeenCalled();
    expect(controller.getState()).toBe(before);
  });
});

describe('connectDevtools teardown', () => {
  it('stops both ways: no more actions sent, no more messages applied', async () => {
    const { controller, connection, teardown } = await connectedWithList();
    const sent = connection.sends.length;
    teardown();
    expect(connection.listeners.size).toBe(0);
    controller.set(TodoResource.get.schema, { id: 1, title: 'not reported' });
    expect(connection.sends).toHaveLength(sent);
    connection.jump(0);
    expect(controller.get(TodoResource.get.schema, { id: 1 })?.title).toBe('not reported');
  });

  it('works as a manager: started with the controller, stopped by dispose()', async () => {
    const extension = installExtension();
    const controller = new Controller({ retry: 0, managers: [(c) => connectDevtools(c, { name: 'managed' })] });
    const connection = extension.connections[0]!;
    expect(connection.options.name).toBe('managed');
    const list = record(controller.observe(TodoResource.getList, {}));
    await settled(() => expect(connection.sends).toHaveLength(1));
    list.unsubscribe();
    controller.dispose();
    expect(connection.listeners.size).toBe(0);
  });

  it('started by hand, not as a manager: a disposed controller closes the connection (as syncTabs stops)', () => {
    const extension = installExtension();
    const controller = new Controller();
    const teardown = connectDevtools(controller);
    const connection = extension.connections[0]!;
    const close = vi.spyOn(connection, 'unsubscribe');
    controller.dispose();
    expect(connection.listeners.size).toBe(0);
    expect(close).toHaveBeenCalledTimes(1);
    teardown(); // the app's own teardown afterwards closes nothing twice
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('given a controller already disposed: connects, closes at once and listens to nothing', () => {
    const extension = installExtension();
    const controller = new Controller();
    controller.dispose();
    const teardown = connectDevtools(controller);
    const connection = extension.connections[0]!;
    expect(connection.listeners.size).toBe(0);
    expect(connection.inits).toHaveLength(0);
    expect(teardown()).toBeUndefined();
  });

  it('removes its listener and closes the connection (unsubscribe()), once', () => {
    const extension = installExtension();
    const controller = new Controller();
    const teardown = connectDevtools(controller);
    const connection = extension.connections[0]!;
    const close = vi.spyOn(connection, 'unsubscribe');
    teardown();
    expect(connection.listeners.size).toBe(0);
    expect(close).toHaveBeenCalledTimes(1);
  });
});
