import { describe, expect, it, vi } from 'vitest';
import { INVALID, SnapshotError, schema } from '../../core/index.js';
import { Store, initialState, reducer, restoreState, type State } from '../../core/store/index.js';
import { Todo } from '../fixtures/entities.js';

const respond = (state: State, key: string, response: unknown, fetchedAt: number, s: unknown = [Todo]) =>
  reducer(state, {
    type: 'response',
    key,
    schema: s,
    args: [],
    response,
    fetchedAt,
    date: fetchedAt + 5,
    expiresAt: fetchedAt + 60_000,
  });

describe('reducer', () => {
  it('stores a response: entities, the normalized result and its meta, and says what changed', () => {
    const { state, changes } = respond(initialState(), 'GET /todos', [{ id: 1 }, { id: 2 }], 100);
    expect(state.endpoints['GET /todos']).toEqual(['1', '2']);
    expect(state.entities.Todo).toEqual({ '1': { id: 1 }, '2': { id: 2 } });
    expect(state.meta['GET /todos']).toEqual({ date: 105, fetchedAt: 100, expiresAt: 60_100 });
    expect(changes.endpoints).toEqual(['GET /todos']);
    expect(changes.entities).toEqual([
      ['Todo', '1'],
      ['Todo', '2'],
    ]);
  });

  it('is copy-on-write: unchanged parts keep their identity', () => {
    const first = respond(initialState(), 'GET /todos', [{ id: 1 }], 100).state;
    const second = respond(first, 'GET /todos/1', { id: 1 }, 200, Todo).state;
    expect(second.entities).toBe(first.entities); // same data: nothing copied
    expect(second.endpoints).not.toBe(first.endpoints);
    expect(second.endpoints['GET /todos']).toBe(first.endpoints['GET /todos']);
  });

  it('keeps data on error and records the error; an older response does not replace a newer result', () => {
    const loaded = respond(initialState(), 'GET /todos', [{ id: 1 }], 100).state;
    const failed = reducer(loaded, {
      type: 'error',
      key: 'GET /todos',
      error: new Error('boom'),
      fetchedAt: 200,
      date: 210,
      expiresAt: 1210,
    }).state;
    expect(failed.endpoints['GET /todos']).toEqual(['1']);
    expect(failed.meta['GET /todos']!.error!.message).toBe('boom');
    const newer = respond(failed, 'GET /todos', [{ id: 2 }], 300).state;
    expect(newer.meta['GET /todos']!.error).toBeUndefined();
    const older = respond(newer, 'GET /todos', [{ id: 3 }], 250);
    expect(older.state.endpoints['GET /todos']).toEqual(['2']);
    expect(older.changes.endpoints).toEqual([]);
  });

  it('invalidates and expires by key', () => {
    const loaded = respond(
      respond(initialState(), 'GET /todos', [{ id: 1 }], 100).state,
      'GET /todos?userId=1',
      [{ id: 1 }],
      100,
    ).state;
    const invalid = reducer(loaded, { type: 'invalidate', keys: ['GET /todos'], date: 500 }).state;
    expect(invalid.meta['GET /todos']!.invalidated).toBe(true);
    expect(invalid.meta['GET /todos?userId=1']!.invalidated).toBeUndefined();
    const expired = reducer(loaded, { type: 'expire', keys: ['GET /todos', 'GET /todos?userId=1'], date: 500 }).state;
    expect(expired.meta['GET /todos']!.expiresAt).toBeLessThan(500);
    expect(expired.meta['GET /todos?userId=1']!.expiresAt).toBeLessThan(500);
    expect(expired.endpoints).toBe(loaded.endpoints);
  });

  it('reset empties the store and ignores writes of requests started before it', () => {
    const loaded = respond(initialState(), 'GET /todos', [{ id: 1 }], 100).state;
    const reset = reducer(loaded, { type: 'reset', date: 150 });
    expect(reset.state.entities).toEqual({});
    expect(reset.changes.entities).toBe('all');
    const late = respond(reset.state, 'GET /todos', [{ id: 9 }], 120);
    expect(late.state).toBe(reset.state);
  });

  it('adds optimistic layers and removes exactly the settled one', () => {
    const layer = (id: number) => ({
      id,
      key: `PATCH /todos/${id}`,
      schema: Todo,
      args: [],
      response: { id, completed: true },
      fetchedAt: id,
    });
    let state = reducer(initialState(), { type: 'optimistic', layer: layer(1) }).state;
    state = reducer(state, { type: 'optimistic', layer: layer(2) }).state;
    const failed = reducer(state, {
      type: 'error',
      key: 'PATCH /todos/1',
      error: new Error('no'),
      fetchedAt: 1,
      date: 3,
      expiresAt: 4,
      settles: 1,
    });
    expect(failed.state.optimistic.map((l) => l.id)).toEqual([2]);
    expect(failed.changes.optimistic).toBe(true);
  });

  it('marks invalidated entities INVALID through an Invalidate schema', () => {
    const loaded = respond(initialState(), 'GET /todos', [{ id: 1 }], 100).state;
    const deleted = respond(loaded, 'DELETE /todos/1', { id: 1 }, 200, new schema.Invalidate(Todo)).state;
    expect(deleted.entities.Todo!['1']).toBe(INVALID);
  });
});

describe('Store and restoreState', () => {
  it('emits each new state on state$ and the transition to its listeners', () => {
    const store = new Store(initialState());
    const states: State[] = [];
    const transitions: unknown[] = [];
    store.state$.subscribe((s) => states.push(s));
    store.listen((t) => transitions.push(t.changes.endpoints));
    store.dispatch({
      type: 'response',
      key: 'GET /todos',
      schema: [Todo],
      args: [],
      response: [{ id: 1 }],
      fetchedAt: 1,
      date: 1,
      expiresAt: 2,
    });
    store.dispatch({ type: 'expire', keys: ['GET /nothing'], date: 3 });
    expect(states).toHaveLength(2);
    expect(transitions).toEqual([['GET /todos']]);
    expect(store.getState()).toBe(states[1]);
  });

  it('hands a late state$ subscriber the latest state, written while nothing subscribed', () => {
    const store = new Store(initialState());
    store.dispatch({ type: 'expire', keys: [], date: 1 });
    store.dispatch({ type: 'setEntity', schema: Todo, args: [], value: { id: 1, title: 'a' }, date: 2, expiresAt: 3 });
    const written = store.getState();
    expect(written.entities.Todo?.['1']).toMatchObject({ title: 'a' });
    const states: State[] = [];
    store.state$.subscribe((s) => states.push(s));
    expect(states).toEqual([written]);
    expect(states[0]).toBe(written);
  });

  it('calls the listeners of each write in the order they listened; one removed during a write is not called', () => {
    const store = new Store(initialState());
    const calls: string[] = [];
    let stopB = () => {};
    const stopA = store.listen(() => {
      calls.push('a');
      stopB();
    });
    stopB = store.listen(() => calls.push('b'));
    store.listen(() => calls.push('c'));
    store.dispatch({ type: 'setEntity', schema: Todo, args: [], value: { id: 1 }, date: 1, expiresAt: 2 });
    expect(calls).toEqual(['a', 'c']);
    stopA();
    store.dispatch({ type: 'setEntity', schema: Todo, args: [], value: { id: 2 }, date: 2, expiresAt: 3 });
    expect(calls).toEqual(['a', 'c', 'c']);
  });

  it('a listener added during a write hears the next write, not that one', () => {
    const store = new Store(initialState());
    const calls: number[] = [];
    let added = false;
    store.listen(() => {
      if (added) return;
      added = true;
      store.listen((t) =>
        calls.push(t.state.lastReset + (t.changes.entities === 'all' ? 0 : t.changes.entities.length)),
      );
    });
    store.dispatch({ type: 'setEntity', schema: Todo, args: [], value: { id: 1 }, date: 1, expiresAt: 2 });
    expect(calls).toEqual([]);
    store.dispatch({ type: 'setEntity', schema: Todo, args: [], value: { id: 2 }, date: 2, expiresAt: 3 });
    expect(calls).toEqual([1]);
  });

  it('a listener that throws is reported on its own, and the write and the other listeners go on', async () => {
    const thrown: unknown[] = [];
    const onError = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', onError);
    try {
      const store = new Store(initialState());
      const heard: string[] = [];
      store.listen(() => {
        throw new Error('listener broke');
      });
      store.listen(() => heard.push('after'));
      const transition = store.dispatch({
        type: 'setEntity',
        schema: Todo,
        args: [],
        value: { id: 1 },
        date: 1,
        expiresAt: 2,
      });
      expect(transition.changes.entities).toEqual([['Todo', '1']]);
      expect(store.getState().entities.Todo?.['1']).toBeDefined();
      expect(heard).toEqual(['after']);
      await vi.waitFor(() => expect(thrown).toHaveLength(1));
      expect((thrown[0] as Error).message).toBe('listener broke');
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  it('restores a JSON round-tripped state with prototype-free tables', () => {
    const store = new Store(initialState());
    store.dispatch({
      type: 'response',
      key: 'GET /todos',
      schema: [Todo],
      args: [],
      response: JSON.parse('[{"id":1},{"id":2,"__proto__":{"polluted":true}}]'),
      fetchedAt: 1,
      date: 1,
      expiresAt: 2,
    });
    const restored = restoreState(JSON.parse(JSON.stringify(store.getState())), Infinity);
    expect(restored.entities.Todo).toEqual(store.getState().entities.Todo);
    expect(Object.getPrototypeOf(restored.entities.Todo)).toBeNull();
    expect(restored.endpoints['GET /todos']).toEqual(['1', '2']);
    expect(restored.meta['GET /todos']).toMatchObject({ date: 1, fetchedAt: 1, expiresAt: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(() => restoreState('garbage', Infinity)).toThrow(SnapshotError); // a JSON text not parsed: no state
    expect(restoreState(undefined, Infinity)).toEqual(initialState());
  });
});
