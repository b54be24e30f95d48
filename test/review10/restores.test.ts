/**
 * Outside review (API.md "The controller and the store": `getState()` survives JSON and `initialState`
 * restores it; "Server rendering": `takeSnapshot`/`restoreSnapshot`): restores with requests in flight,
 * expired data, errors, hostile and malformed snapshots, and restoring twice.
 */
import { describe, expect, it } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';
import { counter, json, observedWhileHeld, row, useControllers } from './fixtures.js';
import { gate } from './gate.js';

const fake = useTodoServer();
const { make } = useControllers();
const count = counter(fake);
/** A controller that holds the list of todos 'a' and 'b', to take snapshots from. */
const listServer = () => {
  const server = make();
  server.setResponse(TodoResource.getList, {}, [row(1, 'a'), row(2, 'b')]);
  return server;
};

describe('initialState with data past its expiry', () => {
  it('shows the data at once as stale, refetches in the background, never loading', async () => {
    let now = 1_000_000;
    const server = make({ now: () => now });
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'old'));
    const saved = json(server.getState());
    now += 10 * 60_000; // ten minutes later: past the 60 s expiry
    const c = make({ initialState: saved, now: () => now });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]).toMatchObject({ loading: false, stale: true, fetching: true });
    expect(s.values[0]!.data?.title).toBe('old');
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(s.last()).toMatchObject({ loading: false, stale: false, fetching: false });
    expect(s.values.every((v) => !v.loading)).toBe(true);
    expect(count('GET /todos/1')).toBe(1);
    s.unsubscribe();
  });

  it('fresh restored data makes no request', async () => {
    const server = make();
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'server'));
    const c = make({ initialState: json(server.getState()) });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]).toMatchObject({ loading: false, fetching: false, stale: false });
    await flush();
    expect(fake.requests).toHaveLength(0);
    expect(s.values).toHaveLength(1);
    s.unsubscribe();
  });
});

describe('restored errors', () => {
  it('a key with only an error refetches on subscribe, and the restored error is cleared as loading starts', async () => {
    const server = make();
    await server.fetch(TodoResource.get, { id: 40 }).catch(() => undefined);
    const c = make({ initialState: json(server.getState()) });
    const s = record(c.observe(TodoResource.get, { id: 40 }));
    expect(s.values[0]).toMatchObject({ loading: true, fetching: true, error: undefined });
    await settled(() => expect(s.last().fetching).toBe(false));
    expect((s.last().error as { status?: number } | undefined)?.status).toBe(404);
    s.unsubscribe();
  });

  it('a fetched 503 beside data, through getState() JSON: the data and a NetworkError with its status and message', async () => {
    const server = make();
    await server.fetch(TodoResource.get, { id: 1 });
    fake.fail('GET', 503);
    await server.fetch(TodoResource.get, { id: 1 }).catch(() => undefined);
    const c = make({ initialState: json(server.getState()) });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]!.data?.title).toBe('todo 1');
    const error = s.values[0]!.error as Error & { status?: number };
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('NetworkError');
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/503/);
    s.unsubscribe();
  });

  it('a restored 5xx beside restored data: the data stays and the error shows', () => {
    const server = make();
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'kept'));
    server.setError(TodoResource.get, { id: 1 }, Object.assign(new Error('down'), { status: 503 }));
    const c = make({ initialState: json(takeSnapshot(server)) });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]!.data?.title).toBe('kept');
    expect((s.values[0]!.error as { status?: number } | undefined)?.status).toBe(503);
    s.unsubscribe();
  });
});

describe('restoring while a request is in flight', () => {
  it('an older snapshot restored during a first load: the answer wins and loading ends', async () => {
    const server = make();
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'snapshot'));
    const snapshot = json(takeSnapshot(server));
    await new Promise((r) => setTimeout(r, 3));
    const c = make();
    const { held, s } = await observedWhileHeld(fake, c);
    restoreSnapshot(c, snapshot);
    held[0]!.json(row(1, 'answer'));
    await settled(() => expect(s.last().data?.title).toBe('answer'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    s.unsubscribe();
  });

  it('a newer snapshot restored during a first load: it stays, loading and fetching end, the fetch resolves its own answer', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    const fetched = c.fetch(TodoResource.get, { id: 1 });
    await settled(() => expect(held).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 3));
    const server = make();
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'snapshot'));
    restoreSnapshot(c, json(takeSnapshot(server)));
    expect(s.last().data?.title).toBe('snapshot');
    expect(s.last().loading).toBe(false);
    held[0]!.json(row(1, 'older answer'));
    expect((await fetched).title).toBe('older answer');
    await settled(() => expect(s.last().fetching).toBe(false));
    expect(s.last().data?.title).toBe('snapshot');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('snapshot');
    s.unsubscribe();
  });

  it('a replacing restore (time travel) during a load: observers end in a settled state', async () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 2 }, row(2, 'two'));
    const past = json(takeSnapshot(c));
    const { held, s } = await observedWhileHeld(fake, c);
    restoreSnapshot(c, past, { replace: true });
    for (const h of held) h.json(row(1, 'one'));
    await flush();
    for (const h of held) h.json(row(1, 'one'));
    await settled(() => expect(s.last()).toMatchObject({ loading: false, fetching: false }));
    expect(s.last().data?.title).toBe('one');
    s.unsubscribe();
  });
});

describe('restoring twice', () => {
  it('the same snapshot restored again changes nothing: no emission, no action, the same objects', async () => {
    const server = listServer();
    const snapshot = json(takeSnapshot(server));
    const c = make();
    restoreSnapshot(c, snapshot);
    const s = record(c.observe(TodoResource.getList, {}));
    const actions: unknown[] = [];
    const a = c.actions$.subscribe((action) => actions.push(action));
    const state = c.getState();
    restoreSnapshot(c, snapshot);
    restoreSnapshot(c, json(snapshot));
    await flush();
    expect(s.values).toHaveLength(1);
    expect(actions).toHaveLength(0);
    expect(c.getState().entities).toEqual(state.entities);
    s.unsubscribe();
    a.unsubscribe();
  });

  it('initialState and then restoreSnapshot of the same state: nothing changes', () => {
    const server = make();
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'x'));
    const state = json(server.getState());
    const c = make({ initialState: state });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    restoreSnapshot(c, state);
    expect(s.values).toHaveLength(1);
    s.unsubscribe();
  });
});

describe('hostile and malformed snapshots', () => {
  const hostile = `{
    "entities": {
      "__proto__": { "polluted": { "yes": true } },
      "Todo": {
        "__proto__": { "polluted": true },
        "constructor": { "id": "constructor", "title": "c" },
        "1": { "id": 1, "title": "one", "__proto__": { "admin": true }, "constructor": "x" }
      }
    },
    "endpoints": { "__proto__": { "polluted": true }, "GET http://api.test/todos/1": "1" },
    "meta": {
      "__proto__": { "date": 1, "fetchedAt": 1, "expiresAt": 4e12, "polluted": true },
      "GET http://api.test/todos/1": { "date": 1, "fetchedAt": 1, "expiresAt": 4e12, "__proto__": { "error": { "message": "x" } } }
    }
  }`;

  it('__proto__ and constructor keys stay plain data: nothing reaches Object.prototype, the entity keeps its class', () => {
    for (const via of ['initialState', 'restore'] as const) {
      const c = via === 'initialState' ? make({ initialState: JSON.parse(hostile) }) : make();
      if (via === 'restore') restoreSnapshot(c, JSON.parse(hostile));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(({} as Record<string, unknown>).error).toBeUndefined();
      const s = record(c.observe(TodoResource.get, { id: 1 }));
      const todo = s.values[0]!.data!;
      expect(todo).toBeInstanceOf(Todo);
      expect(todo.title).toBe('one');
      expect((todo as unknown as Record<string, unknown>).admin).toBeUndefined();
      expect(s.values[0]!.error).toBeUndefined();
      expect(() => JSON.stringify(c.getState())).not.toThrow();
      const odd = c.get(Todo, { id: 'constructor' } as never) as Todo | undefined;
      if (odd !== undefined) expect(odd).toBeInstanceOf(Todo);
      s.unsubscribe();
    }
  });

  it('parts of the wrong type are dropped; what is well formed is kept and later fetches work', async () => {
    const bad = {
      entities: { Todo: { 1: row(1, 'good'), 2: 'not a record', 3: null, 4: [1, 2] }, Other: 7 },
      endpoints: { 'GET http://api.test/todos/1': '1', 'GET http://api.test/todos/2': '2' },
      meta: {
        'GET http://api.test/todos/1': { date: 1, fetchedAt: 1, expiresAt: 4e12 },
        'GET http://api.test/todos/2': 'bad',
      },
      entitiesMeta: 5,
      optimistic: 'x',
    };
    for (const via of ['initialState', 'restore'] as const) {
      let c: Controller;
      if (via === 'initialState') c = make({ initialState: bad });
      else {
        c = make();
        try {
          restoreSnapshot(c, bad);
        } catch (error) {
          // an all-or-nothing refusal must be a TypeError and leave the store as it was
          expect(error).toBeInstanceOf(TypeError);
          expect(c.getState().entities).toEqual({});
          continue;
        }
      }
      expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('good');
      expect(Array.isArray(c.getState().optimistic)).toBe(true);
      const two = await c.fetch(TodoResource.get, { id: 2 });
      expect(two.title).toBe('todo 2');
      const list = await c.fetch(TodoResource.getList, {});
      expect(list.map((t) => t.id)).toEqual([1, 2, 3, 4]);
    }
  });

  it('a snapshot whose result refers to a record it lacks: the observer loads it instead of throwing', async () => {
    const snapshot = {
      entities: {},
      endpoints: { 'GET http://api.test/todos/1': '1' },
      meta: {
        'GET http://api.test/todos/1': { date: Date.now(), fetchedAt: Date.now(), expiresAt: Date.now() + 60_000 },
      },
    };
    const c = make();
    restoreSnapshot(c, snapshot);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]).toMatchObject({ loading: true });
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    s.unsubscribe();
  });

  it('a snapshot listing an invalid record: the observer of that record refetches it', async () => {
    const server = make();
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'one'));
    server.setResponse(TodoResource.get, { id: 2 }, row(2, 'two'));
    const snapshot = json(takeSnapshot(server));
    const c = make();
    restoreSnapshot(c, snapshot);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    const states: QueryState<unknown>[] = s.values as never;
    expect(states[0]!.data).toBeDefined();
    await flush();
    expect(fake.requests).toHaveLength(0);
    s.unsubscribe();
  });
});

describe('replacing restores', () => {
  it('the same state replaced twice: no emission the second time, rows kept (===)', async () => {
    const server = listServer();
    const snapshot = json(takeSnapshot(server));
    const c = make();
    restoreSnapshot(c, snapshot, { replace: true });
    const s = record(c.observe(TodoResource.getList, {}));
    const rows = s.last().data!;
    restoreSnapshot(c, json(snapshot), { replace: true });
    await flush();
    expect(s.values).toHaveLength(1);
    expect(s.last().data).toBe(rows);
    s.unsubscribe();
  });

  it('a snapshot changing one row of an observed list: one emission, the other row the same object', async () => {
    const server = listServer();
    const c = make();
    restoreSnapshot(c, json(takeSnapshot(server)));
    const s = record(c.observe(TodoResource.getList, {}));
    const [one, two] = s.last().data!;
    await new Promise((r) => setTimeout(r, 3));
    server.set(Todo, { id: 2, title: 'b2' });
    restoreSnapshot(c, json(takeSnapshot(server)));
    await flush();
    expect(s.values).toHaveLength(2);
    expect(s.last().data![0]).toBe(one);
    expect(s.last().data![1]).not.toBe(two);
    expect(s.last().data![1]!.title).toBe('b2');
    s.unsubscribe();
  });
});

describe('expired data restored during a first load', () => {
  it('the observer shows it as stale at once (no longer loading), keeps fetching, then shows the answer', async () => {
    let now = Date.now() - 600_000;
    const server = make({ now: () => now });
    server.setResponse(TodoResource.get, { id: 1 }, row(1, 'expired'));
    now += 1;
    const snapshot = json(takeSnapshot(server));
    const c = make();
    const { held, s } = await observedWhileHeld(fake, c);
    restoreSnapshot(c, snapshot);
    expect(s.last()).toMatchObject({ loading: false, fetching: true, stale: true });
    expect(s.last().data?.title).toBe('expired');
    held[0]!.json(row(1, 'answer'));
    await settled(() => expect(s.last().data?.title).toBe('answer'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false, stale: false });
    expect(held).toHaveLength(1);
    s.unsubscribe();
  });
});
