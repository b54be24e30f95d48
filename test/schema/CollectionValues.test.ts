/**
 * Collections of `schema.Values` (data-client's `new Collection(new schema.Values(Todo))`): an object of
 * entities stored under the request's arguments, `assign` merging created entries into the matching
 * objects, `remove` taking entries out, and `move` taking an entity from the objects its old values
 * matched into those its new values match. Cases ported from data-client's Collection tests.
 */
import { describe, expect, it } from 'vitest';
import { collectionArgsKey, denormalize, normalize, schema, type NormalizedTables } from '../../core/index.js';
import { SchemaDefinitionError } from '../../core/errors.js';
import { Todo } from '../fixtures/entities.js';

const todosById = new schema.Collection(new schema.Values(Todo));

function load(): NormalizedTables {
  const one = normalize(todosById, { '10': { id: 10, userId: 1, title: 'movable' } }, [{ userId: 1 }]);
  return normalize(todosById, { '20': { id: 20, userId: 2, title: 'other' } }, [{ userId: 2 }], one);
}

const read = (state: NormalizedTables, args: object) => denormalize(todosById, collectionArgsKey(args), state)!;

describe('a Collection of schema.Values', () => {
  it('is keyed {Todo} and stores an object of pks under the arguments', () => {
    expect(todosById.key).toBe('{Todo}');
    const state = load();
    expect(state.entities['{Todo}']!['{"userId":"1"}']).toEqual({ '10': '10' });
    const values = read(state, { userId: 1 });
    expect(Object.keys(values)).toEqual(['10']);
    expect(values['10']).toBeInstanceOf(Todo);
    expect(values['10']!.title).toBe('movable');
    expect(() => normalize(todosById, [{ id: 1 }], [{}])).toThrow(/expected an object/);
  });

  it('assign merges the entries of a response into every matching object', () => {
    const state = load();
    const assigned = normalize(todosById.assign, { '11': { id: 11, userId: 1, title: 'new' } }, [{ userId: 1 }], state);
    expect(Object.keys(read(assigned, { userId: 1 }))).toEqual(['10', '11']);
    expect(Object.keys(read(assigned, { userId: 2 }))).toEqual(['20']);
    const back = denormalize(todosById.assign, assigned.result, assigned) as Record<string, Todo>;
    expect(back['11']).toBeInstanceOf(Todo);
  });

  it('remove takes the entities of a response out of the matching objects', () => {
    const state = load();
    const removed = normalize(todosById.remove, { '10': { id: 10, userId: 1 } }, [{ userId: 1 }], state);
    expect(Object.keys(read(removed, { userId: 1 }))).toEqual([]);
    expect(Object.keys(read(removed, { userId: 2 }))).toEqual(['20']);
  });

  it('move takes an entity from the objects its old values matched into those its new values match', () => {
    const state = load();
    const moved = normalize(
      todosById.move,
      { id: 10, userId: 2, title: 'movable' },
      [{ id: 10 }, { userId: 2 }],
      state,
    );
    expect(Object.keys(read(moved, { userId: 1 }))).toHaveLength(0);
    expect(Object.keys(read(moved, { userId: 2 })).sort()).toEqual(['10', '20']);
    expect(read(moved, { userId: 2 })['10']!.userId).toBe(2);
    // staying in the same object changes only the entity
    const stays = normalize(
      todosById.move,
      { id: 10, userId: 2, title: 'renamed' },
      [{ id: 10 }, { userId: 2 }],
      moved,
    );
    expect(Object.keys(read(stays, { userId: 2 })).sort()).toEqual(['10', '20']);
    expect(read(stays, { userId: 2 })['10']!.title).toBe('renamed');
  });

  it('has no push or unshift (an object has no order): using them is a named error', () => {
    expect(() => todosById.push).toThrow(SchemaDefinitionError);
    expect(() => todosById.unshift).toThrow(/assign/);
  });
});
