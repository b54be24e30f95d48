/**
 * takeSnapshot(controller) and restoreSnapshot(controller, snapshot): the state as plain data and back, merged by request
 * start time (the newest wins, as within one controller), with the changes of every action attached so
 * that a snapshot of one change carries only what it touched.
 */
import { describe, expect, it } from 'vitest';
import {
  Controller,
  INVALID,
  RestEndpoint,
  SnapshotError,
  ValidationError,
  restoreSnapshot,
  schema,
  takeSnapshot,
  type ControllerAction,
  type QueryState,
  type StateSnapshot,
} from '../../core/index.js';
import { Article, Todo, TodoList } from '../fixtures/entities.js';

const offline = {
  urlPrefix: 'http://snapshot.test',
  fetchResponse: (): Promise<Response> => Promise.reject(new Error('no request may leave these tests')),
};
const getTodo = new RestEndpoint({ ...offline, path: '/todos/:id', schema: Todo });
const getTodos = new RestEndpoint({ ...offline, path: '/todos', schema: TodoList });
const getArticle = new RestEndpoint({ ...offline, path: '/articles/:id', schema: Article });
const deleteTodo = new RestEndpoint({
  ...offline,
  path: '/todos/:id',
  method: 'DELETE',
  schema: new schema.Invalidate(Todo),
});

/** A controller on a clock the test moves. */
function clocked(start = 1_000) {
  const clock = { now: start };
  const controller = new Controller({ now: () => clock.now, retry: 0, gcTime: Infinity });
  return { clock, controller };
}

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('takeSnapshot', () => {
  it('is plain data: JSON and structured clone keep it whole, without optimistic layers', () => {
    const { controller } = clocked();
    controller.setResponse(getTodos, {}, [
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
    ]);
    const snapshot = takeSnapshot(controller);
    expect(roundTrip(snapshot)).toEqual(structuredClone(snapshot));
    expect(Object.keys(snapshot.entities.Todo!)).toEqual(['1', '2']);
    expect(snapshot.meta[getTodos.key({})]?.fetchedAt).toBe(1_000);
    expect(snapshot).not.toHaveProperty('optimistic');
  });

  it('leaves records marked INVALID out unless asked, then lists them', () => {
    const { controller } = clocked();
    controller.setResponse(getTodos, {}, [{ id: 1 }, { id: 2 }]);
    controller.setResponse(deleteTodo, { id: 2 }, { id: 2 });
    expect(Object.keys(takeSnapshot(controller).entities.Todo!)).toEqual(['1']);
    expect(takeSnapshot(controller).invalid).toBeUndefined();
    expect(takeSnapshot(controller, { invalid: true }).invalid).toEqual([['Todo', '2']]);
  });

  it('with an action’s changes, holds only the records and request keys it touched', () => {
    const { controller } = clocked();
    controller.setResponse(getTodos, {}, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    const actions: ControllerAction[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    controller.setResponse(getTodo, { id: 2 }, { id: 2, title: 'changed' });
    controller.set(Todo, { id: 3, completed: true });
    controller.invalidate(getTodos, {});

    expect(actions.map((a) => a.type)).toEqual(['set', 'set', 'invalidate']);
    const [response, set, invalidate] = actions.map((a) => takeSnapshot(controller, { changes: a.changes }));
    expect(Object.keys(response!.entities.Todo!)).toEqual(['2']);
    expect(Object.keys(response!.endpoints)).toEqual([getTodo.key({ id: 2 })]);
    expect(set!.entities).toEqual({ Todo: { '3': expect.objectContaining({ id: 3, completed: true }) } });
    expect(set!.endpoints).toEqual({});
    expect(Object.keys(invalidate!.meta)).toEqual([getTodos.key({})]);
    expect(invalidate!.meta[getTodos.key({})]?.invalidated).toBe(true);
    expect(invalidate!.entities).toEqual({});
  });

  it('gives an error as plain fields', () => {
    const { controller } = clocked();
    controller.setError(getTodo, { id: 1 }, Object.assign(new Error('gone'), { name: 'RequestError', status: 404 }));
    const meta = roundTrip(takeSnapshot(controller)).meta[getTodo.key({ id: 1 })];
    expect(meta?.error).toEqual({ name: 'RequestError', message: 'gone', status: 404 });
  });

  it("carries a ValidationError's issues (JSON-safe), entity and pk: restored, it is a ValidationError again", () => {
    const { controller } = clocked();
    const refused = new ValidationError(
      [
        { message: 'Expected string', path: ['title'] },
        { message: 'Too short', path: [{ key: 'items' }, 0, Symbol.for('s')] },
      ],
      { id: 1, title: 1 },
      { entity: 'Todo', pk: '1' },
    );
    controller.setError(getTodo, { id: 1 }, refused);
    const snapshot = roundTrip(takeSnapshot(controller));
    const issues = [
      { message: 'Expected string', path: ['title'] },
      { message: 'Too short', path: ['items', 0, 'Symbol(s)'] },
    ];
    expect(snapshot.meta[getTodo.key({ id: 1 })]?.error).toEqual({
      name: 'ValidationError',
      message: refused.message,
      issues,
      entity: 'Todo',
      pk: '1',
    });
    const browser = clocked().controller;
    restoreSnapshot(browser, snapshot);
    const error = browser.getState().meta[getTodo.key({ id: 1 })]?.error;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ name: 'ValidationError', message: refused.message, issues, entity: 'Todo', pk: '1' });
    // restored again, it holds the same (its message enumerable, as every restored error's)
    expect(roundTrip(takeSnapshot(browser)).meta[getTodo.key({ id: 1 })]?.error).toEqual(
      snapshot.meta[getTodo.key({ id: 1 })]?.error,
    );
  });

  it('a ValidationError in a getState() JSON (an embedded state) is one again in the controller it starts', () => {
    const { controller } = clocked();
    controller.setError(
      getTodo,
      { id: 2 },
      new ValidationError([{ message: 'Expected number', path: ['id'] }], {}, { entity: 'Todo', pk: '2' }),
    );
    const browser = new Controller({ initialState: roundTrip(controller.getState()), retry: 0 });
    const error = browser.getState().meta[getTodo.key({ id: 2 })]?.error;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ issues: [{ message: 'Expected number', path: ['id'] }], entity: 'Todo', pk: '2' });
    expect(error?.message).toMatch(/Todo "2" failed its validator at id: Expected number/);
  });

  it('with keys, holds those results and meta and every record they reach (nested ones too), nothing else', () => {
    const { controller } = clocked();
    controller.setResponse(getTodos, {}, [{ id: 1 }, { id: 2 }]);
    controller.setResponse(getTodo, { id: 3 }, { id: 3 });
    controller.setResponse(
      getArticle,
      { id: 7 },
      {
        id: 7,
        author: { id: 'ann' },
        comments: [{ id: 70, author: { id: 'bob' } }],
      },
    );
    const snapshot = roundTrip(takeSnapshot(controller, { keys: [getArticle.key({ id: 7 }), getTodo.key({ id: 3 })] }));
    expect(Object.keys(snapshot.endpoints).sort()).toEqual([getArticle.key({ id: 7 }), getTodo.key({ id: 3 })].sort());
    expect(Object.keys(snapshot.meta).sort()).toEqual(Object.keys(snapshot.endpoints).sort());
    expect(Object.keys(snapshot.entities).sort()).toEqual(['Article', 'Comment', 'Todo', 'User']);
    expect(Object.keys(snapshot.entities.Todo!)).toEqual(['3']);
    expect(Object.keys(snapshot.entities.User!).sort()).toEqual(['ann', 'bob']);
    const other = new Controller({ retry: 0 });
    restoreSnapshot(other, snapshot);
    expect(other.getResponse(getArticle, { id: 7 }).data?.comments[0]?.author.id).toBe('bob');
    expect(other.getResponse(getTodos, {}).data).toBeUndefined();
  });
});

describe('restoreSnapshot', () => {
  it('brings a snapshot into an empty controller: observers read it without a request', () => {
    const first = clocked().controller;
    first.setResponse(getTodos, {}, [
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
    ]);
    const { controller } = clocked(2_000);
    restoreSnapshot(controller, roundTrip(takeSnapshot(first)));
    const states: QueryState<Todo[]>[] = [];
    controller.observe(getTodos, {}).subscribe((state) => states.push(state));
    expect(states.at(-1)?.data?.map((todo) => todo.title)).toEqual(['a', 'b']);
    expect(states.at(-1)?.data?.[0]).toBeInstanceOf(Todo);
  });

  it('keeps the newer of two records and results, by request start', () => {
    const older = clocked(1_000).controller;
    older.setResponse(getTodo, { id: 1 }, { id: 1, title: 'old' });
    const newer = clocked(2_000).controller;
    newer.setResponse(getTodo, { id: 1 }, { id: 1, title: 'new' });

    restoreSnapshot(newer, takeSnapshot(older));
    expect(newer.get(Todo, { id: 1 })?.title).toBe('new');
    expect(takeSnapshot(newer).meta[getTodo.key({ id: 1 })]?.fetchedAt).toBe(2_000);

    restoreSnapshot(older, takeSnapshot(newer));
    expect(older.get(Todo, { id: 1 })?.title).toBe('new');
    expect(takeSnapshot(older).meta[getTodo.key({ id: 1 })]?.fetchedAt).toBe(2_000);
  });

  it('observers see each restore that follows another (tables the store wrote in place)', () => {
    const { controller: source, clock: sourceClock } = clocked(1_000);
    source.setResponse(getTodos, {}, [
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
    ]);
    const { controller, clock } = clocked(500);
    restoreSnapshot(controller, takeSnapshot(source));
    const list: QueryState<Todo[]>[] = [];
    const all: QueryState<Todo[]>[] = [];
    controller.observe(getTodos, {}).subscribe((state) => list.push(state));
    controller.observe(new schema.All(Todo)).subscribe((state) => all.push(state));
    expect(list.at(-1)?.data?.map((todo) => todo.title)).toEqual(['a', 'b']);

    sourceClock.now = 2_000;
    source.set(Todo, { id: 2, title: 'b renamed' });
    source.set(Todo, { id: 3, title: 'c' });
    restoreSnapshot(
      controller,
      takeSnapshot(source, {
        changes: {
          entities: [
            ['Todo', '2'],
            ['Todo', '3'],
          ],
          endpoints: [],
        },
      }),
    );
    expect(list.at(-1)?.data?.map((todo) => todo.title)).toEqual(['a', 'b renamed']);
    expect(all.at(-1)?.data?.map((todo) => todo.title)).toEqual(['a', 'b renamed', 'c']);
    clock.now = 3_000;
    controller.set(Todo, { id: 1, title: 'a renamed' });
    expect(list.at(-1)?.data?.map((todo) => todo.title)).toEqual(['a renamed', 'b renamed']);
  });

  it('re-emits only the observers of what changed, and keeps unchanged records as they were', () => {
    const { controller } = clocked();
    controller.setResponse(getTodos, {}, [
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
    ]);
    const list: QueryState<Todo[]>[] = [];
    const one: QueryState<Todo>[] = [];
    controller.observe(getTodos, {}).subscribe((state) => list.push(state));
    controller.setResponse(getTodo, { id: 1 }, { id: 1, title: 'a' });
    controller.observe(getTodo, { id: 1 }).subscribe((state) => one.push(state));
    const [listBefore, oneBefore] = [list.length, one.length];
    const other = clocked(5_000).controller;
    other.set(Todo, { id: 2, title: 'b, from elsewhere' });

    restoreSnapshot(controller, takeSnapshot(other));
    expect(list.length).toBe(listBefore + 1);
    expect(list.at(-1)?.data?.[1]?.title).toBe('b, from elsewhere');
    expect(list.at(-1)?.data?.[0]).toBe(list.at(-2)?.data?.[0]);
    expect(one.length).toBe(oneBefore);
  });

  it('joins an invalidation of the same response, and a later response clears it', () => {
    const a = clocked(1_000);
    const b = clocked(1_000);
    a.controller.setResponse(getTodos, {}, [{ id: 1 }]);
    restoreSnapshot(b.controller, takeSnapshot(a.controller));
    const actions: ControllerAction[] = [];
    a.controller.actions$.subscribe((action) => actions.push(action));
    a.controller.invalidate(getTodos, {});
    restoreSnapshot(b.controller, roundTrip(takeSnapshot(a.controller, { changes: actions[0]!.changes })));
    expect(b.controller.getResponse(getTodos, {}).invalid).toBe(true);

    b.clock.now = 3_000;
    b.controller.setResponse(getTodos, {}, [{ id: 1 }, { id: 2 }]);
    restoreSnapshot(a.controller, takeSnapshot(b.controller));
    expect(a.controller.getResponse(getTodos, {})).toMatchObject({ invalid: false, stale: false });
    expect(a.controller.getResponse(getTodos, {}).data?.length).toBe(2);
  });

  it('applies a deletion listed in invalid, and not one older than the record', () => {
    const a = clocked(1_000);
    a.controller.setResponse(getTodos, {}, [{ id: 1 }, { id: 2 }]);
    const b = clocked(1_000);
    restoreSnapshot(b.controller, takeSnapshot(a.controller));
    a.clock.now = 2_000;
    a.controller.setResponse(deleteTodo, { id: 2 }, { id: 2 });
    const deletion = takeSnapshot(a.controller, { invalid: true });

    restoreSnapshot(b.controller, deletion);
    expect(b.controller.get(Todo, { id: 2 })).toBeUndefined();
    expect(b.controller.getResponse(getTodos, {}).data?.map((todo) => todo.id)).toEqual([1]);

    const c = clocked(5_000);
    c.controller.set(Todo, { id: 2, title: 'written after the deletion' });
    restoreSnapshot(c.controller, deletion);
    expect(c.controller.get(Todo, { id: 2 })?.title).toBe('written after the deletion');
  });

  it('writes nothing that started before the last reset', () => {
    const old = clocked(1_000).controller;
    old.setResponse(getTodos, {}, [{ id: 1 }]);
    const { controller, clock } = clocked(2_000);
    controller.resetEntireStore();
    clock.now = 3_000;
    restoreSnapshot(controller, takeSnapshot(old));
    expect(controller.getState().entities).toEqual({});
    expect(controller.getResponse(getTodos, {}).data).toBeUndefined();
  });

  it('replace takes the snapshot as the whole state', () => {
    const { controller } = clocked(1_000);
    controller.setResponse(getTodos, {}, [{ id: 1, title: 'first' }]);
    const past = takeSnapshot(controller);
    controller.setResponse(getTodos, {}, [{ id: 1, title: 'second' }, { id: 2 }]);
    const states: QueryState<Todo[]>[] = [];
    controller.observe(getTodos, {}).subscribe((state) => states.push(state));
    expect(states.at(-1)?.data?.length).toBe(2);

    restoreSnapshot(controller, past, { replace: true });
    expect(states.at(-1)?.data?.map((todo) => todo.title)).toEqual(['first']);
    expect(Object.keys(controller.getState().entities.Todo!)).toEqual(['1']);
  });

  it('replace keeps the records a snapshot lists as invalid marked INVALID', () => {
    const { controller } = clocked(1_000);
    controller.setResponse(getTodos, {}, [{ id: 1 }, { id: 2 }]);
    controller.setResponse(deleteTodo, { id: 2 }, { id: 2 });
    const past = roundTrip(takeSnapshot(controller, { invalid: true }));
    controller.setResponse(getTodo, { id: 3 }, { id: 3 });

    restoreSnapshot(controller, past, { replace: true });
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID);
    expect(takeSnapshot(controller, { invalid: true })).toEqual(past);
  });

  it('reports a restore action with its changes, and none for a snapshot that changes nothing', () => {
    const source = clocked(1_000).controller;
    source.setResponse(getTodo, { id: 1 }, { id: 1 });
    const { controller } = clocked(1_000);
    const actions: ControllerAction[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    restoreSnapshot(controller, takeSnapshot(source));
    restoreSnapshot(controller, takeSnapshot(source));
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      type: 'restore',
      changes: { entities: [['Todo', '1']], endpoints: [getTodo.key({ id: 1 })] },
    });
  });

  it('refuses what is no snapshot with a TypeError and keeps the store', () => {
    const { controller } = clocked();
    controller.setResponse(getTodo, { id: 1 }, { id: 1, title: 'kept' });
    const before = controller.getState();
    for (const bad of [null, 'state', 42, [], { hello: 'world' }, undefined]) {
      expect(() => restoreSnapshot(controller, bad)).toThrow(/restoreSnapshot expects a state snapshot/);
    }
    expect(controller.getState()).toBe(before);
  });

  it('drops malformed parts and is safe with hostile keys', () => {
    const { controller } = clocked();
    controller.setResponse(getTodo, { id: 1 }, { id: 1, title: 'kept' });
    const hostile = JSON.parse(`{
      "entities": { "Todo": { "__proto__": { "id": 9 }, "2": { "id": 2, "title": "ok" }, "3": "not a record" },
                    "constructor": { "x": { "polluted": true } } },
      "entitiesMeta": { "Todo": { "2": { "date": 5000, "fetchedAt": 5000, "expiresAt": 9000 }, "1": "not a meta" } },
      "endpoints": { "__proto__": ["1"] },
      "meta": { "k": 7 }
    }`) as StateSnapshot;
    restoreSnapshot(controller, hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('id');
    expect(controller.get(Todo, { id: 1 })?.title).toBe('kept');
    expect(controller.get(Todo, { id: 2 })?.title).toBe('ok');
    expect(controller.getState().entities.Todo?.['3']).toBeUndefined();
  });

  it('drops the malformed parts of a ValidationError (issues no list, a pk or entity no string) and keeps the rest', () => {
    const { controller } = clocked();
    const snapshot = JSON.parse(`{
      "entities": {}, "entitiesMeta": {}, "endpoints": {},
      "meta": {
        "a": { "date": 5000, "fetchedAt": 5000, "expiresAt": 9000,
               "error": { "name": "ValidationError", "message": 7, "issues": "not a list", "entity": {}, "pk": { "id": 1 } } },
        "b": { "date": 5000, "fetchedAt": 5000, "expiresAt": 9000,
               "error": { "name": "ValidationError", "message": "refused", "entity": "Todo", "pk": "3",
                          "issues": [null, 4, { "message": 3 }, { "message": "no path", "path": "title" },
                                     { "message": "odd keys", "path": [{ "key": "tags" }, 1, { "x": 1 }, null] }] } }
      }
    }`) as StateSnapshot;
    expect(() => restoreSnapshot(controller, snapshot)).not.toThrow();
    const { a, b } = controller.getState().meta;
    expect(a?.error).toBeInstanceOf(ValidationError);
    expect(a?.error).toMatchObject({ issues: [], entity: undefined, pk: undefined });
    expect(a?.error?.message).toMatch(/responseSchema/); // no message given: its own, from what is left
    expect(b?.error).toBeInstanceOf(ValidationError);
    expect(b?.error).toMatchObject({
      message: 'refused',
      entity: 'Todo',
      pk: '3',
      issues: [{ message: 'no path' }, { message: 'odd keys', path: ['tags', 1, '[object Object]', 'null'] }],
    });
    // and they travel on as plain data
    expect(() => JSON.stringify(takeSnapshot(controller))).not.toThrow();
  });

  it('refuses a snapshot whose times are not numbers with a SnapshotError naming the field, writing nothing of it', () => {
    const { controller } = clocked();
    controller.setResponse(getTodo, { id: 1 }, { id: 1, title: 'kept' });
    const before = controller.getState();
    const snapshot = JSON.parse(`{
      "entities": { "Todo": { "1": { "id": 1, "title": "replaced" }, "2": { "id": 2 } } },
      "entitiesMeta": { "Todo": { "2": { "date": 5000, "fetchedAt": 5000, "expiresAt": 9000 },
                                  "1": { "date": "soon", "fetchedAt": null, "expiresAt": 9000 } } },
      "endpoints": {}, "meta": {}
    }`) as StateSnapshot;
    expect(() => restoreSnapshot(controller, snapshot)).toThrow(SnapshotError);
    expect(() => restoreSnapshot(controller, snapshot)).toThrow(
      'restoreSnapshot: entitiesMeta.Todo.1.date: string "soon" is not a time',
    );
    expect(controller.getState()).toBe(before);
  });

  it('throws once disposed', () => {
    const { controller } = clocked();
    controller.dispose();
    expect(() => restoreSnapshot(controller, takeSnapshot(controller))).toThrow(
      'restoreSnapshot() was called after controller.dispose()',
    );
  });

  it('refuses what is no controller with a TypeError naming the function (arguments swapped)', () => {
    const { controller } = clocked();
    controller.setResponse(getTodo, { id: 1 }, { id: 1, title: 'kept' });
    const snapshot = takeSnapshot(controller);
    const before = controller.getState();
    const swapped = (): void => (restoreSnapshot as (...args: unknown[]) => void)(snapshot, controller);
    expect(swapped).toThrow(TypeError);
    expect(swapped).toThrow('restoreSnapshot expects a Controller as its first argument, got an object');
    expect(() => (takeSnapshot as (value: unknown) => unknown)(undefined)).toThrow(
      'takeSnapshot expects a Controller as its first argument, got undefined',
    );
    expect(controller.getState()).toBe(before);
  });
});

describe('a snapshot dated ahead of this controller’s clock (a forged one, a server clock ahead)', () => {
  const lifetime = 60_000;
  const server = (at: number) => {
    const { controller } = clocked(at);
    controller.setResponse(getTodos, {}, [{ id: 1, title: 'a' }]);
    return roundTrip(controller.getState());
  };
  /** An endpoint of the same key that counts the requests it makes. */
  const counting = () => {
    const requests: string[] = [];
    const counted = getTodos.extend({
      fetchResponse: (url: string) => {
        requests.push(url);
        return Promise.resolve(new Response('[]', { headers: { 'Content-Type': 'application/json' } }));
      },
    });
    return { requests, counted };
  };
  const year = 365 * 86_400_000;
  const now = 1_000_000_000;

  it.each([
    [
      'new Controller({ initialState })',
      (state: unknown, now: number) => new Controller({ initialState: state, now: () => now }),
    ],
    [
      'restoreSnapshot',
      (state: unknown, now: number) => {
        const controller = new Controller({ now: () => now });
        restoreSnapshot(controller, state);
        return controller;
      },
    ],
  ] as const)(
    'a date far ahead counts as now: fresh for the endpoint’s lifetime from now at most (%s)',
    (_, restore) => {
      const state = server(now + year);
      expect(getTodos.dataExpiryLength).toBe(lifetime);
      const fresh = restore(state, now).getResponse(getTodos, {});
      expect(fresh.stale).toBe(false);
      expect(fresh.expiresAt).toBeLessThanOrEqual(now + lifetime);
      const later = restore(state, now).getState().meta[getTodos.key({})]!;
      expect(later.date).toBe(now);
      // the times that order writes are kept: this controller's later writes come after them
      expect(later.fetchedAt).toBe(now + year);
    },
  );

  it('past the lifetime from now, a key restored with a date far ahead is stale and its observer refetches', async () => {
    const state = server(now + year);
    const { requests, counted } = counting();
    const clock = { now };
    const controller = new Controller({ initialState: state, now: () => clock.now, retry: 0 });
    clock.now = now + lifetime + 1;
    expect(controller.getResponse(counted, {}).stale).toBe(true);
    const states: QueryState<Todo[]>[] = [];
    const sub = controller.observe(counted, {}).subscribe((s) => states.push(s));
    expect(states.at(-1)).toMatchObject({ loading: false, fetching: true, stale: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(requests).toEqual([counted.url({})]);
    sub.unsubscribe();
    controller.dispose();
  });

  it('a server a few seconds ahead: the hydrated key stays fresh and its observer makes no request', async () => {
    const state = server(now + 5_000);
    const { requests, counted } = counting();
    const clock = { now };
    const controller = new Controller({ initialState: state, now: () => clock.now, retry: 0 });
    const states: QueryState<Todo[]>[] = [];
    const sub = controller.observe(counted, {}).subscribe((s) => states.push(s));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(requests).toEqual([]);
    expect(states.at(-1)).toMatchObject({ loading: false, fetching: false, stale: false });
    expect(states.at(-1)?.data?.map((todo) => todo.title)).toEqual(['a']);
    clock.now = now + lifetime - 1;
    expect(controller.getResponse(counted, {}).stale).toBe(false);
    sub.unsubscribe();
    controller.dispose();
  });
});
