/**
 * Bad input: responses that do not fit their schema, keys and pks that look like `Object.prototype`
 * members, and cycles (in the input and in the stored graph).
 *
 * Requirement: each bad input gets a clear NormalizeError (naming the entity key and what was found)
 * or is handled safely; the tables passed in are never corrupted; `Object.prototype` is never touched.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Entity,
  INVALID,
  MemoCache,
  NormalizeError,
  denormalize,
  normalize,
  schema,
  type NormalizedTables,
} from '../../core/index.js';
import { Article, Todo, TodoList, User } from '../fixtures/entities.js';
import { own } from '../fixtures/own.js';

// ---- helpers --------------------------------------------------------------------------------------

/** Runs `fn` and returns what it threw (fails the test when it does not throw). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a NormalizeError, but the call returned normally');
}

/** Asserts `fn` throws a NormalizeError for `schemaKey` whose message names the key and matches `found`. */
function expectNormalizeError(fn: () => unknown, schemaKey: string, found: RegExp): NormalizeError {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(NormalizeError);
  const normalizeError = error as NormalizeError;
  expect(normalizeError.name).toBe('NormalizeError');
  expect(normalizeError.schemaKey).toBe(schemaKey);
  expect(normalizeError.message).toContain(schemaKey);
  expect(normalizeError.message).toMatch(found);
  return normalizeError;
}

/** A JSON snapshot of the tables (INVALID shown as a string), to prove they did not change. */
function snapshot(state: NormalizedTables): string {
  return JSON.stringify({ entities: state.entities, entitiesMeta: state.entitiesMeta }, (_key, value: unknown) =>
    typeof value === 'symbol' ? String(value) : value,
  );
}

/** Freezes a value deeply: any write into it throws (ES modules are strict). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/** Pre-filled, deep-frozen tables: Todos (one INVALID, one with pk `__proto__`), Articles, Users. */
function seededState(): NormalizedTables {
  let state: NormalizedTables = normalize(
    [Todo],
    [
      { id: 1, title: 'old' },
      { id: 2, title: 'two' },
      { id: 9, title: 'to delete' },
      { id: '__proto__', title: 'proto pk' },
    ],
  );
  state = normalize(new schema.Invalidate(Todo), '9', [], state);
  state = normalize(
    [Article],
    [
      {
        id: 1,
        title: 'A',
        author: { id: 'ann', name: 'Ann' },
        comments: [{ id: 10, body: 'hi', author: { id: 'bob', name: 'Bob' } }],
      },
    ],
    [],
    state,
  );
  return deepFreeze({ entities: state.entities, entitiesMeta: state.entitiesMeta });
}

// ---- Object.prototype is never touched -----------------------------------------------------------

const untouched = [
  Object.prototype,
  Array.prototype,
  Function.prototype,
  Entity.prototype,
  Todo.prototype,
  User.prototype,
];
const ownKeysBefore = untouched.map((proto) => Reflect.ownKeys(proto).map(String).sort());

afterEach(() => {
  untouched.forEach((proto, i) => expect(Reflect.ownKeys(proto).map(String).sort()).toEqual(ownKeysBefore[i]));
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
});

// ---- entities with cycles, guarded against runaway reads ------------------------------------------

/**
 * Every entity build on read calls this (as a field deserializer). A read that never settles throws
 * instead of hanging the test run.
 */
let builds = 0;
function countBuild<T>(value: T): T {
  if (++builds > 10_000) throw new Error('denormalize did not terminate (more than 10000 entity builds)');
  return value;
}
beforeEach(() => {
  builds = 0;
});

/** A user who points at another user (and so, possibly, back at itself). */
class Person extends Entity {
  id = '';
  name = '';
  bestFriend: Person | undefined = undefined;
  pk() {
    return this.id;
  }
  static override key = 'Person';
}
Person.schema = { name: countBuild, bestFriend: Person };

/** Post.author -> Author.posts -> Post. */
class Author extends Entity {
  id = '';
  name = '';
  posts: Post[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Author';
}
class Post extends Entity {
  id = 0;
  title = '';
  author = Author.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'Post';
}
Author.schema = { name: countBuild, posts: [Post] };
Post.schema = { title: countBuild, author: Author };

// ==================================================================================================

describe('a response without a usable pk', () => {
  it('rejects a Todo without id (pk() gives "undefined"), naming Todo and the input', () => {
    const error = expectNormalizeError(() => normalize(Todo, { title: 'no id' }), 'Todo', /"undefined"/);
    expect(error.message).toContain('"title":"no id"');
    expect(error.input).toEqual({ title: 'no id' });
  });

  it.each([
    ['null', null, /"null"/],
    ['an empty string', '', /""/],
    ['NaN', NaN, /"NaN"/],
    ['an object', { nested: 1 }, /\[object Object\]/],
    ['an empty array', [], /""/],
    ['undefined, explicitly', undefined, /"undefined"/],
  ])('rejects a Todo whose id is %s', (_label, id, found) => {
    expectNormalizeError(() => normalize(Todo, { id, title: 't' }), 'Todo', found);
  });

  it.each([
    ['an object', { value: 1 }, /returned \{"value":1\}/],
    ['an array', ['u1'], /returned \["u1"\]/],
    ['true', true, /returned true/],
    ['false', false, /returned false/],
    ['NaN', NaN, /returned/],
    ['Infinity', Infinity, /returned/],
    ['null', null, /returned (null|undefined)/],
    ['an empty string', '', /returned ""/],
  ])('rejects a pk() that returns %s (not a string or number)', (_label, id, found) => {
    expectNormalizeError(() => normalize(User, { id, name: 'x' }), 'User', found);
  });

  it('says NaN (not null) in the message when pk() returns NaN', () => {
    // preview() uses JSON.stringify, which prints NaN as null: the message then misreports what was found.
    expectNormalizeError(() => normalize(User, { id: NaN }), 'User', /NaN/);
  });

  it('rejects an array id that template-stringifies to another pk instead of overwriting that entity', () => {
    const state = seededState();
    const before = snapshot(state);
    // `${[1]}` === '1': without a check, this response silently replaces Todo 1.
    expectNormalizeError(() => normalize(Todo, { id: [1], title: 'hijacked' }, [], state), 'Todo', /\[1\]/);
    expect(snapshot(state)).toBe(before);
  });

  it('rejects a boolean id behind a template-literal pk()', () => {
    expectNormalizeError(() => normalize(Todo, { id: true, title: 't' }), 'Todo', /true/);
  });

  it('accepts falsy but usable pks: the number 0 and the string "0"', () => {
    expect(normalize(Todo, { id: 0 }).result).toBe('0');
    expect(normalize(User, { id: 0 }).result).toBe('0');
    expect(normalize(User, { id: '0' }).result).toBe('0');
  });

  it('rejects a nested entity without pk, naming the nested entity', () => {
    const input = { id: 1, title: 'A', author: { name: 'nobody' }, comments: [] };
    const error = expectNormalizeError(() => normalize(Article, input), 'User', /returned undefined/);
    expect(error.message).toContain('"name":"nobody"');
  });

  it('rejects the whole list when one item has no pk, writing none of it', () => {
    const state = seededState();
    const before = snapshot(state);
    const input = [{ id: 1, title: 'new' }, { id: 3, title: 'three' }, { title: 'no id' }];
    expectNormalizeError(() => normalize([Todo], input, [], state), 'Todo', /"undefined"/);
    expect(snapshot(state)).toBe(before);
    expect((state.entities.Todo!['1'] as { title: string }).title).toBe('old');
    expect(Object.keys(state.entities.Todo!)).not.toContain('3');
  });

  it('rejects pks that cannot identify an entity in schema.Invalidate', () => {
    const invalidate = new schema.Invalidate(Todo);
    expectNormalizeError(() => normalize(invalidate, { title: 'no id' }), 'Todo', /"undefined"/);
    expectNormalizeError(() => normalize(invalidate, ''), 'Todo', /""/);
    expectNormalizeError(() => normalize(invalidate, NaN), 'Todo', /returned/);
    expectNormalizeError(() => normalize(invalidate, [1]), 'Todo', /array/);
    expectNormalizeError(() => normalize(invalidate, true), 'Todo', /boolean true/);
  });
});

describe('an array where an entity is expected', () => {
  it('rejects an array at the top level, naming Todo and suggesting [Todo]', () => {
    const error = expectNormalizeError(() => normalize(Todo, [{ id: 1 }]), 'Todo', /an array \(length 1\)/);
    expect(error.message).toContain('[Todo]');
  });

  it('rejects an array in a nested entity field, naming the nested entity', () => {
    const input = { id: 1, title: 'A', author: [{ id: 'ann' }], comments: [] };
    expectNormalizeError(() => normalize(Article, input), 'User', /an array \(length 1\)/);
  });

  it('rejects an array item that is itself an array', () => {
    expectNormalizeError(() => normalize([Todo], [[{ id: 1 }]]), 'Todo', /an array/);
  });
});

describe('a primitive where an object is expected (and an object where a list is)', () => {
  it.each([
    ['a boolean', true, /boolean true/],
    ['NaN', NaN, /number NaN/],
    ['the string "undefined"', 'undefined', /string "undefined"/],
    ['Infinity', Infinity, /number Infinity/],
  ])('rejects %s given for an Entity (it cannot be a pk)', (_label, input, found) => {
    const error = expectNormalizeError(() => normalize(Todo, input), 'Todo', found);
    expect(error.message).toMatch(/an object or a pk/);
  });

  it('takes a string or a number given for an Entity as its pk, writing nothing', () => {
    expect(normalize(Todo, 'abc').result).toBe('abc');
    const { result, entities } = normalize(Todo, 42);
    expect(result).toBe('42');
    expect(Object.keys(entities)).toEqual([]);
  });

  it.each([
    ['a string', 'abc', /string "abc"/],
    ['a number', 42, /number 42/],
    ['a boolean', false, /boolean false/],
    ['an array', [{ id: 1 }], /an array/],
  ])('rejects %s given for the object schema { results: [Todo] }', (_label, input, found) => {
    const error = expectNormalizeError(() => normalize({ results: [Todo] }, input), '{results}', found);
    expect(error.message).toContain('results');
    expectNormalizeError(() => normalize(new schema.Object({ results: [Todo] }), input), '{results}', found);
  });

  it.each([
    ['a string', 'abc', /string "abc"/],
    ['a number', 7, /number 7/],
  ])('rejects %s given for the list [Todo]', (_label, input, found) => {
    expectNormalizeError(() => normalize([Todo], input), '[Todo]', found);
    expectNormalizeError(() => normalize(new schema.Array(Todo), input), '[Todo]', found);
  });

  it('rejects an object given for a Collection, naming the collection', () => {
    expectNormalizeError(
      () => normalize(TodoList, { results: [] }),
      'Collection[Todo]',
      /expected an array but got an object/,
    );
  });

  it('rejects a primitive that cannot be a pk in a nested entity field and in a list of entities', () => {
    const article = { id: 1, title: 'A', author: true, comments: [] };
    expectNormalizeError(() => normalize(Article, article), 'User', /boolean true/);
    expectNormalizeError(() => normalize([Todo], [1, NaN]), 'Todo', /number NaN/);
    const listAsString = { id: 1, title: 'A', author: { id: 'ann' }, comments: 'none' };
    expectNormalizeError(() => normalize(Article, listAsString), '[Comment]', /string "none"/);
  });

  it('passes null and undefined through without writing anything', () => {
    for (const input of [null, undefined]) {
      const { result, entities } = normalize(Todo, input);
      expect(result).toBe(input);
      expect(Object.keys(entities)).toEqual([]);
      expect(denormalize(Todo, result, { entities })).toBe(input);
    }
  });
});

describe('__proto__, constructor and prototype keys in a response', () => {
  const evil = '{"polluted":"yes","title":"from __proto__"}';

  it('stores and reads a top-level __proto__ key as plain data', () => {
    const input = JSON.parse(`{"id":1,"title":"real","__proto__":${evil}}`);
    expect(Object.keys(input)).toContain('__proto__'); // JSON.parse makes it an own key
    const { result, entities } = normalize(Todo, input);

    const record = entities.Todo!['1'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(record)).not.toEqual(expect.objectContaining({ polluted: 'yes' }));
    expect(record.polluted).toBeUndefined();
    expect(own(record, '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });

    const todo = denormalize(Todo, result, { entities })!;
    expect(todo).toBeInstanceOf(Todo);
    expect(Object.getPrototypeOf(todo)).toBe(Todo.prototype);
    expect(todo.title).toBe('real');
    expect((todo as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(own(todo, '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });
    const restored = JSON.parse(JSON.stringify(entities)) as { Todo: Record<string, unknown> };
    expect(own(restored.Todo['1'], '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });
  });

  it('keeps constructor and prototype keys as data and the class of the instance', () => {
    const input = JSON.parse(
      '{"id":1,"title":"t","constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
    );
    const { result, entities } = normalize(Todo, input);
    const todo = denormalize(Todo, result, { entities })!;
    expect(todo).toBeInstanceOf(Todo);
    expect(Object.getPrototypeOf(todo)).toBe(Todo.prototype);
    expect(own(todo, 'constructor')).toEqual({ prototype: { polluted: 'yes' } });
    expect(own(todo, 'prototype')).toEqual({ polluted: 'yes' });
    expect(todo.pk()).toBe('1');
    expect(Todo.prototype.constructor).toBe(Todo);
  });

  it('keeps a __proto__ key of a nested entity as data', () => {
    const input = JSON.parse(
      `{"id":1,"title":"A","author":{"id":"ann","name":"Ann","__proto__":${evil}},"comments":[{"id":10,"author":{"id":"bob","__proto__":${evil}}}]}`,
    );
    const { result, entities } = normalize(Article, input);
    expect(Object.keys(entities.User!).sort()).toEqual(['ann', 'bob']);
    const article = denormalize(Article, result, { entities })!;
    expect(article.author).toBeInstanceOf(User);
    expect(Object.getPrototypeOf(article.author)).toBe(User.prototype);
    expect(article.author.name).toBe('Ann');
    expect(own(article.author, '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });
    expect(Object.getPrototypeOf(article.comments[0]!.author)).toBe(User.prototype);
  });

  it('keeps a __proto__ key inside a plain (non-schema) field and in an object schema envelope', () => {
    const input = JSON.parse(`{"results":[{"id":1,"meta":{"__proto__":${evil}}}],"total":1,"__proto__":${evil}}`);
    const envelope = { results: [Todo], total: 0 };
    const { result, entities } = normalize(envelope, input);
    expect(own(result, '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });
    const read = denormalize(envelope, result, { entities })!;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect((read as Record<string, unknown>).polluted).toBeUndefined();
    expect(own(read, '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });
    const meta = (read.results[0] as unknown as { meta: object }).meta;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(own(meta, '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });
  });

  it('keeps __proto__ as data through an update (merge) of the same entity', () => {
    const first = normalize(Todo, JSON.parse(`{"id":1,"title":"a","__proto__":${evil}}`));
    const second = normalize(Todo, { id: 1, title: 'b' }, [], first);
    const todo = denormalize(Todo, '1', second)!;
    expect(todo.title).toBe('b');
    expect(Object.getPrototypeOf(todo)).toBe(Todo.prototype);
    expect(own(todo, '__proto__')).toEqual({ polluted: 'yes', title: 'from __proto__' });
  });

  it('Entity.fromJS keeps __proto__ and constructor props as data', () => {
    const todo = Todo.fromJS(JSON.parse(`{"id":3,"constructor":"c","__proto__":${evil}}`));
    expect(Object.getPrototypeOf(todo)).toBe(Todo.prototype);
    expect(todo).toBeInstanceOf(Todo);
    expect(todo.id).toBe(3);
    expect(own(todo, 'constructor')).toBe('c');
    expect((todo as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a response field that shares its name with a getter without throwing', () => {
    class Person2 extends Entity {
      id = 0;
      first = '';
      last = '';
      get full() {
        return `${this.first} ${this.last}`;
      }
      pk() {
        return `${this.id}`;
      }
      static override key = 'Person2';
    }
    // The server sends a field the client computes: assigning it onto the instance throws a TypeError.
    const { result, entities } = normalize(Person2, { id: 1, first: 'Ada', last: 'L', full: 'from server' });
    let person: Person2 | undefined;
    expect(() => {
      person = denormalize(Person2, result, { entities });
    }).not.toThrow();
    expect(person).toBeInstanceOf(Person2);
    expect(person!.first).toBe('Ada');
  });
});

describe('pks that name Object.prototype members', () => {
  const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', 'prototype'];

  it.each(names)('stores and reads the pk %s as plain data', (pk) => {
    const { result, entities } = normalize(
      [Todo],
      [
        { id: pk, title: `title of ${pk}` },
        { id: 1, title: 'one' },
      ],
    );
    expect(result).toEqual([pk, '1']);
    expect(Object.keys(entities.Todo!).sort()).toEqual([pk, '1'].sort());
    expect(own(entities.Todo, pk)).toEqual({ id: pk, title: `title of ${pk}` });

    const todos = denormalize([Todo], result, { entities })!;
    expect(todos.map((todo) => todo.title)).toEqual([`title of ${pk}`, 'one']);
    expect(todos[0]).toBeInstanceOf(Todo);
    expect(Object.getPrototypeOf(todos[0])).toBe(Todo.prototype);
    expect(todos[0]!.id).toBe(pk);
    expect(todos[0]!.pk()).toBe(pk);

    const memo = new MemoCache();
    expect(memo.denormalize(Todo, pk, entities).data).toBe(memo.denormalize(Todo, pk, entities).data);
  });

  it.each(names)('updates the entity with pk %s without touching other tables or prototypes', (pk) => {
    const first = normalize(User, { id: pk, name: 'a' });
    const second = normalize(User, { id: pk, name: 'b' }, [], first);
    expect(denormalize(User, pk, first)!.name).toBe('a');
    expect(denormalize(User, pk, second)!.name).toBe('b');
    expect(Object.keys(second.entities)).toEqual(['User']);
    expect(Object.keys(second.entities.User!)).toEqual([pk]);
  });

  it.each(names)('reads a pk %s that was never stored as missing, not as an inherited member', (pk) => {
    const { entities } = normalize(Todo, { id: 1 });
    expect(denormalize(Todo, pk, { entities })).toBeUndefined();
    expect(denormalize([Todo], [pk, '1'], { entities })!.map((todo) => todo.id)).toEqual([1]);
    expect(new MemoCache().denormalize(Todo, pk, entities).invalid).toBe(true);
  });

  it('invalidates the pk __proto__ as data, leaving the other entities readable', () => {
    const loaded = normalize([Todo], [{ id: '__proto__' }, { id: 1 }]);
    const { entities } = normalize(new schema.Invalidate(Todo), '__proto__', [], loaded);
    expect(own(entities.Todo, '__proto__')).toBe(INVALID);
    expect(Object.getPrototypeOf(entities.Todo)).not.toBe(INVALID);
    expect(denormalize([Todo], ['__proto__', '1'], { entities })!.map((todo) => todo.id)).toEqual([1]);
  });

  it('works with entity tables named like Object.prototype members', () => {
    class Ctor extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'constructor';
    }
    const restored = JSON.parse(JSON.stringify(normalize(Todo, { id: 1 }))) as NormalizedTables;
    expect(denormalize(Ctor, '1', restored)).toBeUndefined();
    const { result, entities } = normalize(Ctor, { id: 1 }, [], restored);
    expect(Object.keys(entities).sort()).toEqual(['Todo', 'constructor']);
    expect(denormalize(Ctor, result, { entities })).toBeInstanceOf(Ctor);
    expect(restored.entities.constructor).toBe(Object);
  });

  it('does not match a collection stored under a __proto__ argument with a request that has none', () => {
    const args = JSON.parse('{"__proto__":"{}"}');
    const listed = normalize(TodoList, [{ id: 1 }], [args]);
    const listKey = Object.keys(listed.entities['[Todo]']!)[0]!;
    expect(listKey).toBe('{"__proto__":"{}"}');
    // A push with no arguments reads `urlArgs.__proto__` (Object.prototype, which stringifies to "{}").
    const pushed = normalize(TodoList.push, { id: 2 }, [{}], listed);
    expect(own(pushed.entities['[Todo]'], listKey)).toEqual(['1']);
  });
});

describe('state restored with JSON.parse(JSON.stringify(...))', () => {
  const build = () => {
    let state: NormalizedTables = normalize(
      [Todo],
      JSON.parse(
        '[{"id":"__proto__","title":"p"},{"id":"constructor","title":"c"},{"id":1,"title":"one","__proto__":{"polluted":"yes"}}]',
      ),
    );
    state = normalize(
      Person,
      { id: 'toString', name: 'T', bestFriend: { id: 'hasOwnProperty', name: 'H' } },
      [],
      state,
    );
    return JSON.parse(JSON.stringify(state)) as NormalizedTables & { result: unknown };
  };

  it('holds dangerous pks as own keys of plain objects', () => {
    const restored = build();
    expect(Object.getPrototypeOf(restored.entities.Todo)).toBe(Object.prototype);
    expect(Object.keys(restored.entities.Todo!)).toEqual(['1', '__proto__', 'constructor']);
  });

  it('reads the restored state as plain data', () => {
    const restored = build();
    const todos = denormalize([Todo], ['__proto__', 'constructor', '1', 'hasOwnProperty'], restored)!;
    expect(todos.map((todo) => todo.title)).toEqual(['p', 'c', 'one']);
    for (const todo of todos) expect(Object.getPrototypeOf(todo)).toBe(Todo.prototype);
    expect(own(todos[2], '__proto__')).toEqual({ polluted: 'yes' });
    const person = denormalize(Person, 'toString', restored)!;
    expect(person.bestFriend!.name).toBe('H');
    expect(Object.getPrototypeOf(person.bestFriend)).toBe(Person.prototype);
  });

  it('normalizes into the restored state safely and leaves it unchanged', () => {
    const restored = build();
    const before = snapshot(restored);
    const next = normalize(
      [Todo],
      JSON.parse(
        '[{"id":"__proto__","title":"p2"},{"id":"hasOwnProperty","title":"h"},{"id":1,"title":"one2"},{"id":"valueOf"}]',
      ),
      [],
      restored,
    );
    const withPerson = normalize(Person, { id: 'hasOwnProperty', name: 'H2' }, [], next);

    expect(snapshot(restored)).toBe(before);
    expect(Object.getPrototypeOf(restored.entities.Todo)).toBe(Object.prototype);
    expect(restored.entities.Todo!.constructor).toEqual({ id: 'constructor', title: 'c' });

    const todos = denormalize(
      [Todo],
      ['__proto__', 'constructor', 'hasOwnProperty', '1', 'valueOf', 'toString'],
      withPerson,
    )!;
    expect(todos.map((todo) => todo.title)).toEqual(['p2', 'c', 'h', 'one2', '']);
    expect(own(todos[3], '__proto__')).toEqual({ polluted: 'yes' }); // kept by the merge
    for (const todo of todos) expect(Object.getPrototypeOf(todo)).toBe(Todo.prototype);
    expect(denormalize(Person, 'toString', withPerson)!.bestFriend!.name).toBe('H2');
  });

  it('rejects bad input against the restored state without changing it', () => {
    const restored = deepFreeze(build());
    const before = snapshot(restored);
    expectNormalizeError(
      () => normalize([Todo], [{ id: 'constructor', title: 'x' }, { title: 'no id' }], [], restored),
      'Todo',
      /"undefined"/,
    );
    expect(snapshot(restored)).toBe(before);
  });
});

describe('cyclic input', () => {
  it('rejects a -> b -> a between entities with a NormalizeError, not a stack overflow', () => {
    const a: Record<string, unknown> = { id: 'a', name: 'A' };
    const b = { id: 'b', name: 'B', bestFriend: a };
    a.bestFriend = b;
    expectNormalizeError(() => normalize(Person, a), 'Person', /cycle/);
  });

  it('rejects an entity that refers to itself', () => {
    const a: Record<string, unknown> = { id: 'a' };
    a.bestFriend = a;
    expectNormalizeError(() => normalize(Person, a), 'Person', /cycle/);
  });

  it('rejects a cycle across entity types: Post.author -> Author.posts -> Post', () => {
    const post: Record<string, unknown> = { id: 1, title: 'p' };
    const author = { id: 'u', name: 'U', posts: [post] };
    post.author = author;
    expectNormalizeError(() => normalize(Post, post), 'Post', /cycle/);
    expectNormalizeError(() => normalize([Author], [author]), 'Author', /cycle/);
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const ann = { id: 'ann', name: 'Ann' };
    const { result, entities } = normalize([Person], [{ id: 'a', bestFriend: ann }, { id: 'b', bestFriend: ann }, ann]);
    expect(result).toEqual(['a', 'b', 'ann']);
    const people = denormalize([Person], result, { entities })!;
    expect(people[0]!.bestFriend).toBe(people[2]);
    expect(people[1]!.bestFriend).toBe(people[2]);
  });

  it('rejects a cycle in a plain (non-schema) field with a NormalizeError', () => {
    // obj.self = obj in a field without schema is stored as is: the state no longer survives JSON.stringify.
    const todo: Record<string, unknown> = { id: 1, title: 't' };
    todo.self = todo;
    expectNormalizeError(() => normalize(Todo, todo), 'Todo', /cycle/);
  });

  it('rejects a cycle in a plain field next to a nested-schema field, which holds an object', () => {
    const extra: Record<string, unknown> = { note: 'n' };
    extra.self = extra;
    const person = { id: 'a', name: 'A', bestFriend: { id: 'b', name: 'B' }, extra };
    expectNormalizeError(() => normalize(Person, person), 'Person', /cycle/);
    const { entities } = normalize(Person, { ...person, extra: { note: 'n', list: [{ deep: true }] } });
    expect(entities.Person!.a).toEqual({
      id: 'a',
      name: 'A',
      bestFriend: 'b',
      extra: { note: 'n', list: [{ deep: true }] },
    });
  });

  it('does not overflow the stack when a cyclic plain field is normalized over a stored one', () => {
    const first: Record<string, unknown> = { id: 1 };
    first.self = first;
    const second: Record<string, unknown> = { id: 1 };
    second.self = second;
    // Either normalize rejects the cyclic input (NormalizeError), or it must at least not recurse forever
    // comparing it with the stored record (jsonEqual).
    expect(() => normalize(Todo, second, [], normalize(Todo, first))).toThrow(NormalizeError);
  });
});

describe('cycles in the stored graph', () => {
  /** a.bestFriend = b and b.bestFriend = a, written by two responses. */
  const friends = () => {
    const first = normalize(Person, { id: 'a', name: 'A', bestFriend: { id: 'b', name: 'B' } });
    return normalize(Person, { id: 'b', name: 'B', bestFriend: { id: 'a', name: 'A' } }, [], first);
  };

  /** u1 wrote p1 and p2, u2 wrote p3: one response, no cycle in the input, a cycle in the tables. */
  const blog = () =>
    normalize(
      [Author],
      [
        {
          id: 'u1',
          name: 'U1',
          posts: [
            { id: 1, title: 'p1', author: { id: 'u1' } },
            { id: 2, title: 'p2', author: { id: 'u1' } },
          ],
        },
        { id: 'u2', name: 'U2', posts: [{ id: 3, title: 'p3', author: { id: 'u2' } }] },
      ],
    );

  it('stores the cycle by pk, so the tables survive JSON.stringify', () => {
    const state = friends();
    expect(JSON.parse(JSON.stringify(state.entities))).toEqual({
      Person: { a: { id: 'a', name: 'A', bestFriend: 'b' }, b: { id: 'b', name: 'B', bestFriend: 'a' } },
    });
    expect((blog().entities.Post!['1'] as { author: unknown }).author).toBe('u1');
  });

  it('denormalizes a <-> b into a cyclic object graph', () => {
    const a = denormalize(Person, 'a', friends())!;
    expect(a).toBeInstanceOf(Person);
    expect(a.bestFriend).toBeInstanceOf(Person);
    expect(a.bestFriend!.name).toBe('B');
    expect(a.bestFriend!.bestFriend).toBe(a);
  });

  it('denormalizes Post -> Author -> [Post] into a cyclic object graph', () => {
    const [u1, u2] = denormalize([Author], ['u1', 'u2'], blog())!;
    expect(u1!.posts.map((post) => post.title)).toEqual(['p1', 'p2']);
    expect(u1!.posts[0]!.author).toBe(u1);
    expect(u1!.posts[1]!.author).toBe(u1);
    expect(u2!.posts[0]!.author).toBe(u2);
  });

  it('gives the same objects when read twice with one MemoCache', () => {
    const state = friends();
    const memo = new MemoCache();
    const a = memo.denormalize(Person, 'a', state.entities).data!;
    expect(memo.denormalize(Person, 'a', state.entities).data).toBe(a);
    expect(memo.denormalize(Person, 'b', state.entities).data).toBe(a.bestFriend);
    const blogState = blog();
    const ids = ['u1', 'u2'];
    const users = memo.denormalize([Author], ids, blogState.entities).data!;
    expect(memo.denormalize([Author], ids, { ...blogState.entities }).data).toBe(users);
    expect(memo.denormalize([Author], ['u1', 'u2'], blogState.entities).data).toEqual(users);
    expect(memo.denormalize(Author, 'u1', blogState.entities).data).toBe(users[0]);
    expect(memo.denormalize(Post, '1', blogState.entities).data).toBe(users[0]!.posts[0]);
  });

  it('rebuilds a and b when a changes and a is read', () => {
    const state = friends();
    const memo = new MemoCache();
    const a1 = memo.denormalize(Person, 'a', state.entities).data!;
    const changed = normalize(Person, { id: 'a', name: 'A2' }, [], state);
    const a2 = memo.denormalize(Person, 'a', changed.entities).data!;
    expect(a2).not.toBe(a1);
    expect(a2.name).toBe('A2');
    expect(a2.bestFriend).not.toBe(a1.bestFriend);
    expect(a2.bestFriend!.bestFriend).toBe(a2);
  });

  it('rebuilds a and b when b changes and the unchanged a is read', () => {
    const state = friends();
    const memo = new MemoCache();
    const a1 = memo.denormalize(Person, 'a', state.entities).data!;
    const changed = normalize(Person, { id: 'b', name: 'B2' }, [], state);
    const a2 = memo.denormalize(Person, 'a', changed.entities).data!;
    expect(a2).not.toBe(a1);
    expect(a2.bestFriend!.name).toBe('B2');
    expect(a2.bestFriend!.bestFriend).toBe(a2);
  });

  it('rebuilds b when a changes and b is read first after the change', () => {
    const state = friends();
    const memo = new MemoCache();
    const a1 = memo.denormalize(Person, 'a', state.entities).data!;
    const changed = normalize(Person, { id: 'a', name: 'A2' }, [], state);
    const b2 = memo.denormalize(Person, 'b', changed.entities).data!;
    expect(b2).not.toBe(a1.bestFriend);
    expect(b2.bestFriend!.name).toBe('A2');
    expect(b2.bestFriend!.bestFriend).toBe(b2);
  });

  it('after a post changes, reading that post gives new objects along the changed path only', () => {
    const state = blog();
    const memo = new MemoCache();
    const [u1, u2] = memo.denormalize([Author], ['u1', 'u2'], state.entities).data!;
    const changed = normalize(Post, { id: 1, title: 'p1 edited' }, [], state);
    const p1 = memo.denormalize(Post, '1', changed.entities).data!;
    expect(p1.title).toBe('p1 edited');
    expect(p1).not.toBe(u1!.posts[0]);
    expect(p1.author).not.toBe(u1); // u1 holds p1
    expect(p1.author.posts[0]).toBe(p1);
    expect(p1.author.posts[1]).not.toBe(u1!.posts[1]); // p2 holds u1
    expect(p1.author.posts[1]!.author).toBe(p1.author);
    expect(memo.denormalize(Author, 'u2', changed.entities).data).toBe(u2);
    expect(memo.denormalize(Post, '3', changed.entities).data).toBe(u2!.posts[0]);
  });

  it('after a post changes, reading its unchanged author gives new objects along the changed path', () => {
    const state = blog();
    const memo = new MemoCache();
    const [u1, u2] = memo.denormalize([Author], ['u1', 'u2'], state.entities).data!;
    const changed = normalize(Post, { id: 1, title: 'p1 edited' }, [], state);
    const [v1, v2] = memo.denormalize([Author], ['u1', 'u2'], changed.entities).data!;
    expect(v1).not.toBe(u1);
    expect(v1!.posts[0]!.title).toBe('p1 edited');
    expect(v1!.posts[0]!.author).toBe(v1);
    expect(v1!.posts[1]!.author).toBe(v1);
    expect(v2).toBe(u2);
  });
});

describe('NormalizeError', () => {
  it('is a named Error carrying the entity key and the offending input', () => {
    const input = { title: 'no id' };
    const error = thrownBy(() => normalize([Todo], [input]));
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(NormalizeError);
    const normalizeError = error as NormalizeError;
    expect(normalizeError.name).toBe('NormalizeError');
    expect(String(normalizeError)).toMatch(/^NormalizeError: Todo: /);
    expect(normalizeError.schemaKey).toBe('Todo');
    expect(normalizeError.input).toBe(input);
    expect(normalizeError.stack).toContain('NormalizeError');
  });

  it('keeps messages short for huge or cyclic inputs', () => {
    const huge = { title: 'x'.repeat(10_000) };
    expect(expectNormalizeError(() => normalize(Todo, huge), 'Todo', /"undefined"/).message.length).toBeLessThan(500);
    const cyclic: Record<string, unknown> = { id: 'a' };
    cyclic.bestFriend = cyclic;
    expect(expectNormalizeError(() => normalize(Person, cyclic), 'Person', /cycle/).message.length).toBeLessThan(500);
  });
});

describe('a throwing normalize never changes the tables passed in', () => {
  const cases: [string, unknown, unknown, string][] = [
    ['missing pk in a list', [Todo], [{ id: 1, title: 'new' }, { title: 'no id' }], 'Todo'],
    [
      'missing nested pk',
      [Article],
      [{ id: 1, title: 'A2', author: { id: 'ann', name: 'Ann2' }, comments: [{ id: 10, author: {} }] }],
      'User',
    ],
    ['array for an entity', Article, { id: 1, title: 'A2', author: [{ id: 'ann' }], comments: [] }, 'User'],
    ['string for an object schema', { results: [Todo] }, 'oops', '{results}'],
    ['string for a list', [Todo], 'not a list', '[Todo]'],
    ['object for a collection', TodoList, { id: 1 }, 'Collection[Todo]'],
    [
      'cycle after valid writes',
      [Person],
      (() => {
        const a: Record<string, unknown> = { id: 'a' };
        a.bestFriend = { id: 'b', bestFriend: a };
        return [{ id: 'ok', name: 'written first' }, a];
      })(),
      'Person',
    ],
    ['bad invalidate after valid ones', [new schema.Invalidate(Todo)], ['1', '2', { title: 'no id' }], 'Todo'],
    ['bad item in a push', TodoList.push, [{ id: 5 }, true], 'Todo'],
  ];

  it.each(cases)(
    '%s: throws, leaves the tables as they were, and they stay usable',
    (_label, schemaDef, input, key) => {
      const state = seededState(); // deep-frozen: any write into it throws a TypeError, not a NormalizeError
      const before = snapshot(state);
      const todoTable = state.entities.Todo;
      const todo1 = state.entities.Todo!['1'];

      const error = thrownBy(() => normalize(schemaDef, input, [], state));
      expect(error).toBeInstanceOf(NormalizeError);
      expect((error as NormalizeError).schemaKey).toBe(key);

      expect(snapshot(state)).toBe(before);
      expect(state.entities.Todo).toBe(todoTable);
      expect(state.entities.Todo!['1']).toBe(todo1);

      const next = normalize([Todo], [{ id: 1, title: 'new' }, { id: 3 }], [], state);
      expect(denormalize([Todo], ['1', '2', '3', '9', '__proto__'], next)!.map((todo) => todo.title)).toEqual([
        'new',
        'two',
        '',
        'proto pk',
      ]);
      expect(denormalize(Article, '1', next)!.author.name).toBe('Ann');
      expect(snapshot(state)).toBe(before);
    },
  );

  it('does not change the response it was given', () => {
    const response = deepFreeze([
      { id: 1, title: 'A', author: { id: 'ann' }, editor: { id: 'ed' }, comments: [{ id: 10, author: { id: 'bob' } }] },
      { id: 2, title: 'B', author: { id: 'ann' }, comments: [{ id: 11, author: {} }] },
    ]);
    const before = JSON.stringify(response);
    expectNormalizeError(() => normalize([Article], response, [], seededState()), 'User', /returned undefined/);
    expect(JSON.stringify(response)).toBe(before);
    expect(() => normalize([Article], response.slice(0, 1), [], seededState())).not.toThrow();
  });
});
