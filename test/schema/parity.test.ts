/**
 * Behaviours of data-client's normalizr tests (Entity, Array, Object, Invalidate), held against rx-rest:
 * references given as pks, the parent seen by list items, process() on non-objects, the read depth
 * limit, Invalidate inside lists, and inline (already denormalized) entities.
 */
import { describe, expect, it } from 'vitest';
import { Entity, INVALID, MemoCache, NormalizeError, denormalize, normalize, query, schema } from '../../core/index.js';

// a User with a numeric id and a Todo with a string id (not the fixtures'): the pk conversions below depend on them
class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'User';
}

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

class Post extends Entity {
  id = 0;
  author = User.fromJS();
  todos: Todo[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'Post';
  static override schema = { author: User, todos: [Todo] };
}

describe('a nested entity given as its pk', () => {
  it('is stored as that reference and read back from the table', () => {
    const users = normalize([User], [{ id: 23, name: 'Ann' }]);
    const todos = normalize([Todo], [{ id: '5' }, { id: '6' }], [], users);
    const { result, entities } = normalize(Post, { id: 1, author: 23, todos: ['5', '6'] }, [], todos);
    expect(entities.Post!['1']).toEqual({ id: 1, author: '23', todos: ['5', '6'] });
    const post = denormalize(Post, result, { entities })!;
    expect(post.author).toBeInstanceOf(User);
    expect(post.author.name).toBe('Ann');
    expect(post.todos.map((todo) => todo.id)).toEqual(['5', '6']);
  });

  it('keeps false in a list as "no entity" and drops it on read', () => {
    const { result, entities } = normalize([Todo], [{ id: 'a' }, false]);
    expect(result).toEqual(['a', false]);
    expect(denormalize([Todo], result, { entities })!.map((todo) => todo.id)).toEqual(['a']);
  });

  it('a required reference whose entity is not in the store makes the result unusable', () => {
    const { result, entities } = normalize(Post, { id: 1, author: 99 });
    expect(new MemoCache().denormalize(Post, result, entities)).toMatchObject({ data: undefined, invalid: true });
  });
});

describe('the parent seen by list items', () => {
  it('is the object holding the list, in process() and pk()', () => {
    const seen: unknown[] = [];
    class Child extends Entity {
      id = '';
      parentId = '';
      pk() {
        return `${this.parentId}-${this.id}`;
      }
      static override key = 'Child';
      static override process(input: Record<string, unknown>, parent: unknown) {
        seen.push(parent);
        return { ...input, parentId: (parent as { id: string }).id };
      }
    }
    class Parent extends Entity {
      id = '';
      children: Child[] = [];
      pk() {
        return this.id;
      }
      static override key = 'Parent';
      static override schema = { children: [Child], more: new schema.Array(Child) };
    }
    const input = { id: 'p', children: [{ id: '1' }], more: [{ id: '2' }] };
    const { entities } = normalize(Parent, input);
    expect(Object.keys(entities.Child!)).toEqual(['p-1', 'p-2']);
    expect(seen).toHaveLength(2);
    for (const parent of seen) expect(parent).toMatchObject({ id: 'p' });
  });
});

describe('Entity.process on input that is not an object', () => {
  class Level extends Entity {
    id = 0;
    value = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'Level';
    static override process(input: unknown) {
      const [id, value] = input as [number, number];
      return { id, value };
    }
  }

  it('sees an array and turns it into the entity', () => {
    const { result, entities } = normalize([Level], [[100, 5]]);
    expect(result).toEqual(['100']);
    expect(entities.Level!['100']).toEqual({ id: 100, value: 5 });
  });

  it('names the entity when process() returns something that is not an object', () => {
    class Broken extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Broken';
      static override process(input: unknown) {
        return input as Record<string, unknown>; // wrong on purpose: an array gets through
      }
    }
    expect(() => normalize(Broken, [1])).toThrow(/Broken: process\(\) must return an object/);
  });
});

describe('reading entity chains deeper than the limit', () => {
  class Department extends Entity {
    id = 0;
    buildings: Building[] = [];
    pk() {
      return `${this.id}`;
    }
    static override key = 'Department';
    static override schema: Record<string, unknown> = {};
  }
  class Building extends Entity {
    id = 0;
    departments: Department[] = [];
    pk() {
      return `${this.id}`;
    }
    static override key = 'Building';
    static override schema = { departments: [Department] };
  }
  Department.schema = { buildings: [Building] };

  const N = 1500;
  const chain = () => {
    const departments = Array.from({ length: N }, (_, i) => ({ id: i, buildings: [i] }));
    const buildings = Array.from({ length: N }, (_, i) => ({ id: i, departments: i + 1 < N ? [i + 1] : [] }));
    const state = normalize([Department], departments);
    return normalize([Building], buildings, [], state);
  };

  it('returns the data, with the levels past the limit as pks', () => {
    const { entities } = chain();
    const read = new MemoCache().denormalize(Department, '0', entities);
    expect(read.invalid).toBe(false);
    let level: unknown = read.data;
    let depth = 0;
    while (level instanceof Department || level instanceof Building) {
      const next: unknown[] = level instanceof Department ? level.buildings : level.departments;
      level = next[0];
      depth++;
    }
    // 64 levels resolved, then one more entity read with its own fields only: its nested field holds pks
    expect(depth).toBe(65);
    expect(typeof level).toBe('string');
  });

  it('gives the same objects on a second read, and follows a change below the limit', () => {
    const state = chain();
    const memo = new MemoCache();
    const first = memo.denormalize(Department, '0', state.entities).data!;
    expect(memo.denormalize(Department, '0', state.entities).data).toBe(first);
    const changed = normalize(Building, { id: 3, departments: [4], name: 'new' }, [], state);
    const second = memo.denormalize(Department, '0', changed.entities).data!;
    expect(second).not.toBe(first);
    const b3 =
      second.buildings[0]!.departments[0]!.buildings[0]!.departments[0]!.buildings[0]!.departments[0]!.buildings[0]!;
    expect(b3).toMatchObject({ id: 3, name: 'new' });
  });

  it('still rejects input too deeply nested to normalize, with a named error', () => {
    let input: Record<string, unknown> = { id: 0, departments: [] };
    for (let i = 1; i < 20_000; i++) {
      input = { id: i, buildings: [{ id: i, departments: [input] }] };
    }
    expect(() => normalize(Department, input)).toThrow(NormalizeError);
  });
});

describe('schema.Invalidate when read', () => {
  const Deleted = new schema.Invalidate(User);

  it('a required INVALID entity makes the result unusable', () => {
    const state = normalize(User, { id: 1 });
    const deleted = normalize(Deleted, { id: 1 }, [], state);
    expect(new MemoCache().denormalize(Deleted, deleted.result, deleted.entities)).toMatchObject({
      data: undefined,
      invalid: true,
    });
    expect(new MemoCache().denormalize(User, '1', deleted.entities).invalid).toBe(true);
  });

  it('inside [{ data: Invalidate(User) }], a deleted entity and a missing one drop their item', () => {
    const listSchema = [{ data: Deleted }];
    const users = normalize([User], [{ id: 1 }, { id: 2 }, { id: 3 }]);
    const deleted = normalize(Deleted, { id: 2 }, [], users);
    const result = [{ data: '1' }, { data: '2' }, { data: '4' }, { data: '3' }];
    const read = denormalize(listSchema, result, deleted)!;
    expect(read.map((item) => item.data!.id)).toEqual([1, 3]);
  });

  it('drops INVALID entities from a list, keeping the list usable', () => {
    const users = normalize([User], [{ id: 1 }, { id: 2 }]);
    const deleted = normalize(Deleted, '1', [], users);
    expect(deleted.entities.User!['1']).toBe(INVALID);
    const read = new MemoCache().denormalize([User], ['1', '2'], deleted.entities);
    expect(read.invalid).toBe(false);
    expect(read.data!.map((user) => user.id)).toEqual([2]);
  });
});

describe('schema.Array and lists', () => {
  it('schema.Array (and [Entity]) given an object normalizes its values', () => {
    const input = { a: { id: 'a' }, b: { id: 'b' } };
    expect(normalize(new schema.Array(Todo), input).result).toEqual(['a', 'b']);
    expect(normalize([Todo], input).result).toEqual(['a', 'b']);
  });

  it('keeps null items on read, and drops undefined, missing and INVALID ones', () => {
    const { entities } = normalize([Todo], [{ id: 'a' }]);
    const read = denormalize([Todo], ['a', null, 'missing', undefined], { entities })!;
    expect(read.map((todo) => todo?.id ?? null)).toEqual(['a', null]);
  });

  it('reads already denormalized inline objects where a pk is expected as the entity', () => {
    const read = denormalize([Post], [{ id: 7, author: { id: 1, name: 'Ann' }, todos: [{ id: 'x', title: 'T' }] }], {
      entities: {},
    })!;
    expect(read[0]).toBeInstanceOf(Post);
    expect(read[0]!.author).toBeInstanceOf(User);
    expect(read[0]!.author.name).toBe('Ann');
    expect(read[0]!.todos[0]).toMatchObject({ id: 'x', title: 'T' });
    expect(read[0]!.todos[0]).toBeInstanceOf(Todo);
    const instance = User.fromJS({ id: 3 });
    expect(denormalize(User, instance, { entities: {} })).toBe(instance);
  });
});

describe('the parent at the top level of normalize', () => {
  // data-client passes the input itself as the parent of the top-level value
  it('is the input, in pk(parent) and process(input, parent)', () => {
    const seen: unknown[] = [];
    class Scoped extends Entity {
      id = '';
      pk(parent?: unknown) {
        seen.push(parent);
        return this.id;
      }
      static override key = 'Scoped';
      static override process(input: Record<string, unknown>, parent: unknown) {
        seen.push(parent);
        return { ...input };
      }
    }
    const input = { id: 'a' };
    normalize(Scoped, input);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const parent of seen) expect(parent).toBe(input);
  });

  it('is the input for a polymorphic attribute function (value, parent)', () => {
    const parents: unknown[] = [];
    const union = new schema.Union({ user: User, todo: Todo }, (value, parent) => {
      parents.push(parent);
      return typeof value.id === 'number' ? 'user' : 'todo';
    });
    const input = { id: 3, name: 'Ann' };
    const { result } = normalize(union, input);
    expect(result).toEqual({ id: '3', schema: 'user' });
    expect(parents).toEqual([input]);
  });
});

describe('a store read of an object schema', () => {
  it('keeps the non-schema members of the definition (nextPage)', () => {
    const { entities } = normalize([User], [{ id: 1, name: 'Ann' }]);
    const page = { results: new schema.All(User), nextPage: '' };
    const { data } = query(page, [], entities);
    expect(data?.nextPage).toBe('');
    expect(data?.results.map((user) => user.name)).toEqual(['Ann']);
    const wrapped = query(new schema.Object(page), [], entities).data as { nextPage?: string } | undefined;
    expect(wrapped?.nextPage).toBe('');
  });
});
