/**
 * Hostile and foreign restores: snapshots (`restoreSnapshot`) and initial states (`initialState`) whose
 * times are not finite numbers, whose values are nested beyond what the merge and the reads can walk, or
 * that come from a clock ahead of the controller's (a server's, after its `resetEntireStore`). A restore
 * is all or nothing, never freezes a record, and the controller's own fetches afterwards are written.
 * HTTP through the msw todo server.
 */
import { describe, expect, it } from 'vitest';
import {
  Controller,
  SnapshotError,
  ValidationError,
  restoreSnapshot,
  takeSnapshot,
  type ControllerOptions,
  type QueryState,
} from '../../core/index.js';
import { TodoResource, record, settled, useTodoServer, type Todo } from './faultHarness.js';

const fake = useTodoServer();

const TODO_1 = 'GET http://api.test/todos/1';
const LIST = 'GET http://api.test/todos';

function clocked(start = Date.now(), options: ControllerOptions = {}) {
  const clock = { now: start };
  const controller = new Controller({
    retry: 0,
    environment: {},
    gcTime: Infinity,
    now: () => clock.now,
    ...options,
  });
  return { controller, clock };
}

/** A snapshot of todo 1 (and its request) as fetched from the server, as plain mutable data. */
/** A snapshot the tests damage freely. */
type Loose = Record<string, any>;

async function snapshotOfTodo1(): Promise<Loose> {
  const { controller } = clocked();
  await controller.fetch(TodoResource.get, { id: 1 });
  return structuredClone(takeSnapshot(controller)) as Loose;
}

const hostileTimes: [string, unknown][] = [
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
  ['a negative time', -5],
  ['null (NaN after JSON)', null],
  ['a string', '2024-01-01'],
  ['a missing field', undefined],
];

describe('restoreSnapshot with times that are not finite numbers', () => {
  for (const [name, bad] of hostileTimes) {
    for (const where of ['entitiesMeta', 'meta'] as const) {
      it(`${name} as ${where} fetchedAt: a SnapshotError naming the field, the store unchanged, fetch resolves the server's value`, async () => {
        const snapshot = await snapshotOfTodo1();
        snapshot.entities.Todo['1'].title = 'from the hostile snapshot';
        const target = where === 'meta' ? snapshot.meta[TODO_1] : snapshot.entitiesMeta.Todo['1'];
        if (bad === undefined) delete target.fetchedAt;
        else target.fetchedAt = bad;

        const { controller } = clocked();
        const before = controller.getState();
        const states = record(controller.observe(TodoResource.get, { id: 1 }));
        expect(() => restoreSnapshot(controller, snapshot)).toThrow(SnapshotError);
        expect(controller.getState()).toBe(before);
        try {
          restoreSnapshot(controller, snapshot);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          expect((error as SnapshotError).path).toBe(
            where === 'meta' ? `meta.${TODO_1}.fetchedAt` : 'entitiesMeta.Todo.1.fetchedAt',
          );
          expect((error as Error).message).toMatch(/fetchedAt: .*finite number.*nothing of the snapshot was written/i);
        }

        fake.todos.get(1)!.title = 'the server now';
        const fetched = await controller.fetch(TodoResource.get, { id: 1 });
        expect(fetched.title).toBe('the server now');
        await settled(() => expect(states.last().data?.title).toBe('the server now'));
        states.unsubscribe();
      });
    }
  }

  it('date and expiresAt are checked as well (an expiry before the epoch is allowed: it is only stale)', async () => {
    for (const field of ['date', 'expiresAt'] as const) {
      const snapshot = await snapshotOfTodo1();
      snapshot.entitiesMeta.Todo['1'][field] = Number.NaN;
      const { controller } = clocked();
      expect(() => restoreSnapshot(controller, snapshot)).toThrow(`entitiesMeta.Todo.1.${field}`);
    }
    const snapshot = await snapshotOfTodo1();
    snapshot.meta[TODO_1].expiresAt = -1;
    const { controller } = clocked();
    restoreSnapshot(controller, snapshot);
    expect(controller.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ stale: true });
  });

  it('a NaN-dated record never freezes: every later write wins over it (initialState)', async () => {
    const snapshot = await snapshotOfTodo1();
    snapshot.entitiesMeta.Todo['1'].fetchedAt = Number.NaN;
    expect(() => new Controller({ initialState: snapshot })).toThrow(SnapshotError);
    expect(() => new Controller({ initialState: snapshot })).toThrow(/initialState/);
  });
});

/** `depth` nested objects (or arrays), built without recursion. */
function nested(depth: number, array = false): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = array ? [value] : { next: value };
  return value;
}

describe('restoreSnapshot of values nested ~150,000 levels deep', () => {
  const places = {
    'an entity record': (s: Loose, deep: unknown) => {
      s.entities.Todo['2'] = { id: 2, userId: 1, title: 'deep', completed: false, extra: deep };
    },
    'an endpoints result': (s: Loose, deep: unknown) => {
      s.endpoints['GET http://api.test/todos?userId=7'] = deep;
      s.meta['GET http://api.test/todos?userId=7'] = { ...s.meta[TODO_1] };
    },
    'a meta': (s: Loose, deep: unknown) => {
      s.meta[TODO_1].error = { name: 'Error', message: 'deep', cause: deep };
    },
  };
  for (const [where, put] of Object.entries(places)) {
    for (const array of [false, true]) {
      it(`in ${where} (${array ? 'arrays' : 'objects'}): rejected before anything is written; getState and observers agree`, async () => {
        const snapshot = await snapshotOfTodo1();
        snapshot.entities.Todo['1'].title = 'restored with the deep value';
        snapshot.entitiesMeta.Todo['1'].fetchedAt += 1_000;
        snapshot.entitiesMeta.Todo['1'].date += 1_000;
        put(snapshot, nested(150_000, array));

        const { controller } = clocked();
        await controller.fetch(TodoResource.get, { id: 1 });
        const states = record(controller.observe(TodoResource.get, { id: 1 }));
        const before = controller.getState();
        expect(() => restoreSnapshot(controller, snapshot)).toThrow(SnapshotError);
        expect(() => restoreSnapshot(controller, snapshot)).toThrow(/nested more than 4,096 levels/);
        expect(controller.getState()).toBe(before);
        expect(states.last().data?.title).toBe('todo 1');
        expect(controller.get(TodoResource.get.schema, { id: 1 })?.title).toBe('todo 1');
        states.unsubscribe();
      });
    }
  }

  it('an initialState nested that deep is rejected too', () => {
    expect(
      () => new Controller({ initialState: { entities: { Todo: { '1': { id: 1, extra: nested(150_000) } } } } }),
    ).toThrow(SnapshotError);
  });

  it('what the store itself holds (4,000 levels, as deep as JSON.stringify goes) is restored whole', () => {
    const source = clocked(1_000).controller;
    source.set(TodoResource.get.schema, { id: 1, title: 'deep' } as never);
    const snapshot = structuredClone(takeSnapshot(source)) as Loose;
    snapshot.entities.Todo['1'].extra = nested(4_000);
    const { controller } = clocked(1_000);
    restoreSnapshot(controller, JSON.parse(JSON.stringify(snapshot)));
    expect(JSON.stringify(controller.getState().entities.Todo?.['1'])).toBe(
      JSON.stringify(snapshot.entities.Todo['1']),
    );
    // a second restore of the same data compares it all (the merge walks it) and changes nothing
    const before = controller.getState();
    restoreSnapshot(controller, JSON.parse(JSON.stringify(snapshot)));
    expect(controller.getState()).toBe(before);
  });
});

describe('an initialState that is no state', () => {
  it('a JSON text not parsed, a number, a list: a SnapshotError naming initialState and what it got; null and undefined start empty', () => {
    const text = JSON.stringify({ entities: { Todo: { '1': { id: 1 } } }, endpoints: {}, meta: {}, entitiesMeta: {} });
    for (const [initialState, kind] of [
      [text, 'string "{'],
      [42, '42'],
      [[], 'array'],
    ] as const) {
      const create = () => new Controller({ environment: {}, initialState });
      expect(create).toThrow(SnapshotError);
      expect(create).toThrow(/new Controller\(\{ initialState \}\): expected a state/);
      expect(create).toThrow(kind);
    }
    for (const initialState of [null, undefined]) {
      const { entities, endpoints, meta } = new Controller({ environment: {}, initialState }).getState();
      expect({ entities, endpoints, meta }).toEqual({ entities: {}, endpoints: {}, meta: {} });
    }
  });
});

describe('a state from a clock ahead of the controller’s (a server’s), that called resetEntireStore', () => {
  const AHEAD = 10 * 60_000; // the server's clock is 10 minutes ahead

  async function serverState(): Promise<unknown> {
    const server = clocked(Date.now() + AHEAD);
    await server.controller.fetch(TodoResource.getList, {});
    server.clock.now += 1_000;
    server.controller.resetEntireStore();
    server.clock.now += 1_000;
    await server.controller.fetch(TodoResource.getList, {});
    await server.controller.fetch(TodoResource.get, { id: 1 });
    return JSON.parse(JSON.stringify(server.controller.getState()));
  }

  it('initialState: the browser’s own fetches are written and resolved; observers never stay loading', async () => {
    const browser = clocked(Date.now(), { initialState: await serverState() });
    const list = record(browser.controller.observe(TodoResource.getList, {}));
    expect(list.last()).toMatchObject({ loading: false });
    expect(list.last().data?.map((todo: Todo) => todo.title)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);

    fake.todos.get(1)!.title = 'changed on the server';
    const fetched = await browser.controller.fetch(TodoResource.get, { id: 1 });
    expect(fetched.title).toBe('changed on the server');
    await settled(() => expect(list.last().data?.[0]?.title).toBe('changed on the server'));

    browser.controller.invalidate(TodoResource.getList, {});
    fake.todos.get(2)!.title = 'changed again';
    await settled(() => expect(list.last()).toMatchObject({ loading: false, fetching: false }));
    await settled(() => expect(list.last().data?.[1]?.title).toBe('changed again'));

    browser.clock.now += 1;
    browser.controller.set(TodoResource.get.schema, { id: 3, title: 'set in the browser' } as never);
    expect(list.last().data?.[2]?.title).toBe('set in the browser');
    list.unsubscribe();
  });

  it('a new observer of a key the server never fetched loads it (no request is dropped as older than its reset)', async () => {
    const browser = clocked(Date.now(), { initialState: await serverState() });
    const states: QueryState<Todo>[] = [];
    const subscription = browser.controller.observe(TodoResource.get, { id: 2 }).subscribe((s) => states.push(s));
    await settled(() => expect(states.at(-1)).toMatchObject({ loading: false, data: { title: 'todo 2' } }));
    subscription.unsubscribe();
  });

  it('restoreSnapshot: the same; the times are kept as they are, this controller’s writes come after them', async () => {
    const browser = clocked(Date.now());
    const state = (await serverState()) as Loose;
    restoreSnapshot(browser.controller, state);
    expect(browser.controller.getState().meta[LIST]!.fetchedAt).toBe(state.meta[LIST].fetchedAt);
    expect(browser.controller.getState().meta[LIST]!.fetchedAt).toBeGreaterThan(browser.clock.now);

    fake.todos.get(1)!.title = 'changed on the server';
    const list = record(browser.controller.observe(TodoResource.getList, {}));
    browser.controller.invalidate(TodoResource.getList, {});
    const fetched = await browser.controller.fetch(TodoResource.getList, {});
    expect(fetched[0]?.title).toBe('changed on the server');
    expect(browser.controller.get(TodoResource.get.schema, { id: 1 })?.title).toBe('changed on the server');
    await settled(() => expect(list.last()).toMatchObject({ loading: false, fetching: false, stale: false }));
    expect(list.last().data?.[0]?.title).toBe('changed on the server');
    browser.controller.set(TodoResource.get.schema, { id: 2, title: 'set in the browser' } as never);
    expect(list.last().data?.[1]?.title).toBe('set in the browser');
    list.unsubscribe();
  });
});

describe('a restored error through a second JSON round trip', () => {
  it('keeps its name, message and status when the restored state is written as JSON and restored again', async () => {
    const snapshot = await snapshotOfTodo1();
    snapshot.meta[TODO_1].error = { name: 'ValidationError', message: 'title is required', status: 422 };
    const first = new Controller({ initialState: JSON.parse(JSON.stringify(snapshot)) });
    const second = new Controller({ initialState: JSON.parse(JSON.stringify(first.getState())) });
    const third = clocked().controller;
    restoreSnapshot(third, JSON.parse(JSON.stringify(second.getState())));
    for (const controller of [first, second, third]) {
      const error = controller.getState().meta[TODO_1]?.error as Error & { status?: number };
      expect(error).toBeInstanceOf(ValidationError); // restored as the class its name gives
      expect(error).toMatchObject({ name: 'ValidationError', message: 'title is required', status: 422 });
    }
    expect(JSON.parse(JSON.stringify(third.getState().meta[TODO_1]?.error))).toEqual({
      name: 'ValidationError',
      message: 'title is required',
      status: 422,
      issues: [], // none in the snapshot: a ValidationError's issues are a list
    });
  });
});
