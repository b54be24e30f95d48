import { describe, expect, it } from 'vitest';
import {
  Entity,
  MemoCache,
  appendUnique,
  collectionArgsKey,
  denormalize,
  normalize,
  schema,
  type NormalizedTables,
} from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';

const todos = (...ids: number[]) => ids.map((id) => ({ id, userId: id % 2 ? 1 : 2, title: `t${id}` }));

/** Loads the lists a UI typically has: everything, user 1's, user 2's, and user 1's sorted. */
function loadLists(collection: schema_Collection) {
  let state: NormalizedTables | undefined;
  for (const args of [{}, { userId: 1 }, { userId: 2 }, { userId: 1, orderBy: 'title' }]) {
    const ids = [1, 2, 3, 4].filter((id) => !('userId' in args) || (id % 2 ? 1 : 2) === args.userId);
    state = normalize(collection, todos(...ids), [args], state);
  }
  return state!;
}
type schema_Collection = InstanceType<typeof schema.Collection<[typeof Todo]>>;

const read = (collection: schema_Collection, state: NormalizedTables, args: object) =>
  denormalize(collection, collectionArgsKey(args), state)!.map((t) => t.id);

describe('schema.Collection', () => {
  it('stores each list under the arguments that produced it', () => {
    const collection = new schema.Collection([Todo]);
    const state = loadLists(collection);
    expect(Object.keys(state.entities[collection.key]!).sort()).toEqual(
      ['{"orderBy":"title","userId":"1"}', '{"userId":"1"}', '{"userId":"2"}', '{}'].sort(),
    );
    expect(read(collection, state, {})).toEqual([1, 2, 3, 4]);
    expect(read(collection, state, { userId: 2 })).toEqual([2, 4]);
    const first = normalize(collection, todos(1), [{ userId: 1, page: undefined }]);
    expect(first.result).toBe('{"userId":"1"}');
  });

  it('push adds the created entity to the end of every list whose arguments match the URL args and body', () => {
    const collection = new schema.Collection([Todo]);
    const state = loadLists(collection);
    const created = normalize(
      collection.push,
      { id: 5, userId: 1, title: 'new' },
      [{}, { userId: 1, title: 'new' }],
      state,
    );
    expect(created.result).toBe('5');
    expect(read(collection, created, {})).toEqual([1, 2, 3, 4, 5]);
    expect(read(collection, created, { userId: 1 })).toEqual([1, 3, 5]);
    expect(read(collection, created, { userId: 2 })).toEqual([2, 4]);
    // orderBy does not filter, so the sorted list of user 1 receives it too
    expect(read(collection, created, { userId: 1, orderBy: 'title' })).toEqual([1, 3, 5]);
    expect(denormalize(collection.push, created.result, created)).toBeInstanceOf(Todo);
  });

  it('matches on URL arguments too (POST /users/:userId/todos)', () => {
    const collection = new schema.Collection([Todo]);
    const state = loadLists(collection);
    const created = normalize(
      collection.push,
      { id: 6, title: 'via url' },
      [{ userId: 2 }, { title: 'via url' }],
      state,
    );
    expect(read(collection, created, { userId: 2 })).toEqual([2, 4, 6]);
    expect(read(collection, created, { userId: 1 })).toEqual([1, 3]);
  });

  it('unshift adds to the start, and neither adds an entity twice', () => {
    const collection = new schema.Collection([Todo]);
    const state = loadLists(collection);
    const created = normalize(collection.unshift, { id: 7, userId: 1 }, [{}, { userId: 1 }], state);
    expect(read(collection, created, { userId: 1 })).toEqual([7, 1, 3]);
    const again = normalize(collection.unshift, { id: 7, userId: 1, title: 'edited' }, [{}, { userId: 1 }], created);
    expect(read(collection, again, { userId: 1 })).toEqual([7, 1, 3]);
  });

  it('nonFilterArgumentKeys as an option (list, RegExp, predicate) and as a method override', () => {
    const asList = new schema.Collection([Todo], { nonFilterArgumentKeys: ['sort'] });
    const asRegExp = new schema.Collection([Todo], { nonFilterArgumentKeys: /^sort$/ });
    const asPredicate = new schema.Collection([Todo], { nonFilterArgumentKeys: (key) => key === 'sort' });
    class SortInsensitive extends schema.Collection<[typeof Todo]> {
      override nonFilterArgumentKeys(key: string) {
        return key === 'sort';
      }
    }
    const asMethod = new SortInsensitive([Todo]);
    for (const collection of [asList, asRegExp, asPredicate, asMethod]) {
      const state = normalize(collection, todos(1), [{ userId: 1, sort: 'title' }]);
      const withOrder = normalize(collection, todos(1), [{ userId: 1, orderBy: 'x' }], state);
      const created = normalize(collection.push, { id: 9, userId: 1 }, [{}, { userId: 1 }], withOrder);
      expect(read(collection, created, { userId: 1, sort: 'title' })).toEqual([1, 9]);
      // with the option set, `order*` is no longer ignored by default
      expect(read(collection, created, { userId: 1, orderBy: 'x' })).toEqual([1]);
    }
  });

  it('addWith builds an adder with its own merge and filter (pagination)', () => {
    const collection = new schema.Collection([Todo]);
    const withoutPage = (...args: readonly any[]) => {
      const { page: _page, ...rest } = (args[0] ?? {}) as Record<string, unknown>;
      const wanted = collectionArgsKey(rest);
      return (listArgs: Readonly<Record<string, string>>) => collectionArgsKey(listArgs) === wanted;
    };
    const getPage = collection.addWith(appendUnique, withoutPage);
    const state = loadLists(collection);
    const paged = normalize(getPage, todos(3, 5, 7), [{ userId: 1, page: 2 }], state);
    expect(paged.result).toEqual(['3', '5', '7']);
    expect(read(collection, paged, { userId: 1 })).toEqual([1, 3, 5, 7]);
    expect(read(collection, paged, {})).toEqual([1, 2, 3, 4]);
    expect(read(collection, paged, { userId: 1, orderBy: 'title' })).toEqual([1, 3]);
    const prepend = collection.addWith((existing, incoming) => [...incoming, ...existing]);
    const prepended = normalize(prepend, [{ id: 8, userId: 2 }], [{ userId: 2 }], state);
    expect(read(collection, prepended, { userId: 2 })).toEqual([8, 2, 4]);
  });

  it('a collection nested in an entity is stored under its parent and read back', () => {
    class Owner extends Entity {
      id = 0;
      todos: Todo[] = [];
      pk() {
        return `${this.id}`;
      }
      static override key = 'Owner';
      static override schema = {
        todos: new schema.Collection([Todo], { nestKey: (parent) => ({ userId: parent.id }) }),
      };
    }
    const state = normalize(Owner, { id: 1, todos: todos(1, 3) });
    const owner = denormalize(Owner, state.result, state)!;
    expect(owner.todos.map((t) => t.id)).toEqual([1, 3]);
    expect(state.entities['[Todo]']!['{"userId":"1"}']).toEqual(['1', '3']);
    // shared with the top-level list of the same arguments: a push reaches the nested list too
    const created = normalize(Owner.schema.todos.push, { id: 5, userId: 1 }, [{}, { userId: 1 }], state);
    expect(denormalize(Owner, state.result, created)!.todos.map((t) => t.id)).toEqual([1, 3, 5]);
  });

  it('keeps the list identity across unrelated writes and drops invalidated items without a refetch', () => {
    const collection = new schema.Collection([Todo]);
    const memo = new MemoCache();
    const state = loadLists(collection);
    const key = collectionArgsKey({ userId: 1 });
    const first = memo.denormalize(collection, key, state.entities).data!;
    const unrelated = normalize(Todo, { id: 2, title: 'user 2 edit' }, [], state);
    expect(memo.denormalize(collection, key, unrelated.entities).data).toBe(first);
    const deleted = normalize(new schema.Invalidate(Todo), { id: 3 }, [], state);
    const after = memo.denormalize(collection, key, deleted.entities);
    expect(after.invalid).toBe(false);
    expect(after.data!.map((t) => t.id)).toEqual([1]);
    expect(after.data![0]).toBe(first[0]);
  });
});
