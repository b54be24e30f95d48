import { describe, expect, it } from 'vitest';
import { Controller, Entity, MemoCache, RestEndpoint, schema } from '../../core/index.js';
import { query } from '../../core/schema/index.js';
import { Store, initialState, type State } from '../../core/store/index.js';
import { Todo } from '../fixtures/entities.js';

const write = (store: Store, id: number, title: string, at: number) =>
  store.dispatch({
    type: 'response',
    key: `GET /todos/${id}`,
    schema: Todo,
    args: [],
    response: { id, title },
    fetchedAt: at,
    date: at,
    expiresAt: at + 60_000,
  });

/** A deep copy of the parts of a state that a write could change in place. */
const copyOf = (state: State) =>
  JSON.parse(JSON.stringify({ entities: state.entities, endpoints: state.endpoints, meta: state.meta }));

describe('Store: single-record writes and the states it hands out', () => {
  it('writes a table the store alone holds in place: a write does not copy the table', () => {
    const store = new Store(initialState());
    write(store, 1, 'a', 1);
    const table = store.current.entities.Todo;
    const meta = store.current.meta;
    write(store, 2, 'b', 2);
    expect(store.current.entities.Todo).toBe(table);
    expect(store.current.meta).toBe(meta);
    expect(store.current.entities.Todo).toEqual({ '1': { id: 1, title: 'a' }, '2': { id: 2, title: 'b' } });
  });

  it('never changes a state handed out by getState(): the next write copies what it changes', () => {
    const store = new Store(initialState());
    write(store, 1, 'a', 1);
    const snapshot = store.getState();
    const before = copyOf(snapshot);
    write(store, 1, 'changed', 2);
    write(store, 2, 'b', 3);
    expect(copyOf(snapshot)).toEqual(before);
    expect(store.current.entities.Todo).not.toBe(snapshot.entities.Todo);
    expect(store.current.entities.Todo?.['1']).toEqual({ id: 1, title: 'changed' });
  });

  it('never changes a state emitted by state$', () => {
    const store = new Store(initialState());
    const seen: { state: State; copy: unknown }[] = [];
    const subscription = store.state$.subscribe((state) => seen.push({ state, copy: copyOf(state) }));
    for (let i = 1; i <= 5; i++) write(store, i % 2, `title ${i}`, i);
    subscription.unsubscribe();
    expect(seen).toHaveLength(6);
    for (const { state, copy } of seen) expect(copyOf(state)).toEqual(copy);
  });

  it('every write gives a new state and new roots, so readers that compare by identity see the change', () => {
    const store = new Store(initialState());
    write(store, 1, 'a', 1);
    const state = store.current;
    write(store, 1, 'b', 2);
    expect(store.current).not.toBe(state);
    expect(store.current.entities).not.toBe(state.entities);
  });

  it('lists every record an in-place write changed, and an Invalidate write too', () => {
    const store = new Store(initialState());
    write(store, 1, 'a', 1);
    const changed = write(store, 1, 'b', 2).changes.entities;
    expect(changed).toEqual([['Todo', '1']]);
    const invalidated = store.dispatch({
      type: 'response',
      key: 'DELETE /todos/1',
      schema: new schema.Invalidate(Todo),
      args: [],
      response: { id: 1 },
      fetchedAt: 3,
      date: 3,
      expiresAt: 3,
    });
    expect(invalidated.changes.entities).toEqual([['Todo', '1']]);
  });

  it('through the controller: getState() snapshots stay as they were across later setResponse calls', () => {
    const get = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/todos/:id', schema: Todo });
    const controller = new Controller();
    controller.setResponse(get, { id: 1 }, { id: 1, title: 'a' });
    const snapshot = controller.getState();
    const before = copyOf(snapshot);
    for (let i = 0; i < 20; i++) controller.setResponse(get, { id: i % 3 }, { id: i % 3, title: `t${i}` });
    expect(copyOf(snapshot)).toEqual(before);
    expect(controller.getResponse(get, { id: 2 }).data?.title).toBe('t17');
  });

  it('a table written in place drops what was derived from it: All reads and index lookups see new rows', () => {
    class Member extends Entity {
      id = 0;
      username = '';
      pk() {
        return `${this.id}`;
      }
      static override indexes = ['username'];
    }
    const store = new Store(initialState());
    const add = (id: number, username: string, at: number) =>
      store.dispatch({
        type: 'response',
        key: `GET /members/${id}`,
        schema: Member,
        args: [],
        response: { id, username },
        fetchedAt: at,
        date: at,
        expiresAt: at + 60_000,
      });
    const memo = new MemoCache();
    const all = new schema.All(Member);
    add(1, 'ann', 1);
    const table = store.current.entities.Member;
    expect(query(all, [], store.current.entities, memo).data?.map((m) => m.username)).toEqual(['ann']);
    expect(query(Member, [{ username: 'ann' }], store.current.entities, memo).data?.id).toBe(1);
    add(2, 'bob', 2);
    expect(store.current.entities.Member).toBe(table); // written in place
    expect(query(all, [], store.current.entities, memo).data?.map((m) => m.username)).toEqual(['ann', 'bob']);
    expect(query(Member, [{ username: 'bob' }], store.current.entities, memo).data?.id).toBe(2);
    add(1, 'anne', 3);
    expect(query(Member, [{ username: 'ann' }], store.current.entities, memo).data).toBeUndefined();
    expect(query(Member, [{ username: 'anne' }], store.current.entities, memo).data?.id).toBe(1);
  });
});
