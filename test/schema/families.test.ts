/**
 * The schema families data-client has and rx-rest gained: Union (and polymorphic Array, Values,
 * Collection, All), Values, All, Query, EntityMixin, Entity indexes, validate, shouldUpdate and
 * shouldReorder; and the pure reads the controller's `get` builds on (`queryKey`, `MemoCache.query`).
 * Cases written from data-client's documentation of each.
 */
import { describe, expect, it } from 'vitest';
import {
  Entity,
  EntityMixin,
  INVALID,
  MemoCache,
  NormalizeError,
  denormalize,
  lookupIndex,
  normalize,
  query,
  queryKey,
  queryTables,
  schema,
} from '../../core/index.js';
import { SchemaDefinitionError } from '../../core/errors.js';

class Link extends Entity {
  id = 0;
  type = 'link';
  url = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Link';
}

class Post extends Entity {
  id = 0;
  type = 'post';
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Post';
}

// a User of this file: a numeric id, and `username` as an index for the lookups below
class User extends Entity {
  id = 0;
  username = '';
  age = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'User';
  static override indexes = ['username'];
}

const FeedItem = new schema.Union({ link: Link, post: Post }, 'type');
const feed = [
  { id: 1, type: 'link', url: 'https://a' },
  { id: 1, type: 'post', title: 'Hello' },
];

describe('schema.Union', () => {
  it('stores each value in the table of the member its attribute names, as { id, schema }', () => {
    const { result, entities } = normalize(new schema.Array(FeedItem), feed);
    expect(result).toEqual([
      { id: '1', schema: 'link' },
      { id: '1', schema: 'post' },
    ]);
    expect(entities.Link!['1']).toMatchObject({ url: 'https://a' });
    expect(entities.Post!['1']).toMatchObject({ title: 'Hello' });
    const read = denormalize(new schema.Array(FeedItem), result, { entities })!;
    expect(read[0]).toBeInstanceOf(Link);
    expect(read[1]).toBeInstanceOf(Post);
  });

  it('takes a function as the attribute, called with the value, its parent and key', () => {
    const calls: unknown[][] = [];
    const byShape = new schema.Union({ link: Link, post: Post }, (value, parent, key) => {
      calls.push([parent, key]);
      return 'url' in value ? 'link' : 'post';
    });
    const { result, entities } = normalize({ item: byShape }, { item: { id: 3, url: 'https://b' } });
    expect(result).toEqual({ item: { id: '3', schema: 'link' } });
    expect(calls[0]![1]).toBe('item');
    expect(denormalize({ item: byShape }, result, { entities })!.item).toBeInstanceOf(Link);
  });

  it('reads an inline (not normalized) value as the member its attribute names', () => {
    const read = denormalize(FeedItem, { id: 9, type: 'post', title: 'inline' }, { entities: {} });
    expect(read).toBeInstanceOf(Post);
    expect((read as Post).title).toBe('inline');
  });

  it('rejects a value whose attribute names no member, naming the union and the members', () => {
    const error = (() => {
      try {
        normalize(FeedItem, { id: 1, type: 'video' });
      } catch (caught) {
        return caught as NormalizeError;
      }
      throw new Error('expected a NormalizeError');
    })();
    expect(error).toBeInstanceOf(NormalizeError);
    expect(error.message).toMatch(/Union\(Link \| Post\).*"video".*"link", "post"/);
    expect(() => normalize(FeedItem, { id: 1, type: '__proto__' })).toThrow(NormalizeError);
  });

  it('needs a schemaAttribute and Entity members', () => {
    expect(() => new schema.Union({ link: Link }, undefined as never)).toThrow(SchemaDefinitionError);
    expect(() => new schema.Union({ link: [Link] }, 'type')).toThrow(SchemaDefinitionError);
  });

  it('drops a deleted member from a list, and a required one makes the result unusable', () => {
    const state = normalize([FeedItem], feed);
    const deleted = normalize(new schema.Invalidate(Post), '1', [], state);
    const list = denormalize([FeedItem], state.result, deleted)!;
    expect(list).toHaveLength(1);
    const required = new MemoCache().denormalize(FeedItem, { id: '1', schema: 'post' }, deleted.entities);
    expect(required.invalid).toBe(true);
  });
});

describe('polymorphic schema.Array and schema.Collection of a Union', () => {
  it('new schema.Array(map, attribute) is a list of the union of the map', () => {
    const Feed = new schema.Array({ link: Link, post: Post }, 'type');
    const { result, entities } = normalize(Feed, feed);
    expect(result).toEqual([
      { id: '1', schema: 'link' },
      { id: '1', schema: 'post' },
    ]);
    expect(denormalize(Feed, result, { entities })!.map((item) => item.constructor)).toEqual([Link, Post]);
  });

  it('a Collection of a Union stores the list under its arguments and push adds members once', () => {
    const Feed = new schema.Collection(FeedItem);
    const state = normalize(Feed, feed, [{ userId: 1 }]);
    const pushed = normalize(Feed.push, { id: 2, type: 'link', url: 'https://c' }, [{ userId: 1 }], state);
    const again = normalize(Feed.push, { id: 2, type: 'link', url: 'https://c' }, [{ userId: 1 }], pushed);
    const read = denormalize(Feed, state.result, again)!;
    expect(read.map((item) => `${item.type}:${item.id}`)).toEqual(['link:1', 'post:1', 'link:2']);
  });
});

describe('schema.Values', () => {
  it('normalizes every value of an object of any keys, and reads it back', () => {
    const UsersById = new schema.Values(User);
    const { result, entities } = normalize(UsersById, { a: { id: 1, username: 'ann' }, b: { id: 2 }, c: null });
    expect(result).toEqual({ a: '1', b: '2' });
    const read = denormalize(UsersById, result, { entities })!;
    expect(read.a).toBeInstanceOf(User);
    expect(read.a!.username).toBe('ann');
  });

  it('drops values that are deleted or missing, and keeps the object while nothing changed', () => {
    const UsersById = new schema.Values(User);
    const state = normalize(UsersById, { a: { id: 1 }, b: { id: 2 } });
    const memo = new MemoCache();
    const first = memo.denormalize(UsersById, state.result, state.entities).data!;
    const unrelated = normalize(Post, { id: 5 }, [], state);
    expect(memo.denormalize(UsersById, state.result, unrelated.entities).data).toBe(first);
    const deleted = normalize(new schema.Invalidate(User), '2', [], state);
    expect(Object.keys(memo.denormalize(UsersById, state.result, deleted.entities).data!)).toEqual(['a']);
  });

  it('takes a map and an attribute (polymorphic), and keeps a __proto__ key as data', () => {
    const Mixed = new schema.Values({ link: Link, post: Post }, 'type');
    const input = JSON.parse('{"__proto__":{"id":1,"type":"link"},"x":{"id":2,"type":"post"}}');
    const { result, entities } = normalize(Mixed, input);
    expect(Object.keys(result as object)).toEqual(['__proto__', 'x']);
    const read = denormalize(Mixed, result, { entities })!;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read)).toEqual(['__proto__', 'x']);
    expect(read.x).toBeInstanceOf(Post);
  });

  it('rejects a value that is not an object, naming the schema', () => {
    expect(() => normalize(new schema.Values(User), [{ id: 1 }])).toThrow(/Values\(User\): expected an object/);
  });
});

describe('schema.All', () => {
  const users = () =>
    normalize(
      [User],
      [
        { id: 1, username: 'ann', age: 30 },
        { id: 2, username: 'bob', age: 20 },
      ],
    );

  it('reads every entity of the table, dropping deleted ones, and is unusable while there is no table', () => {
    const all = new schema.All(User);
    const memo = new MemoCache();
    expect(query(all, [], {}, memo).invalid).toBe(true);
    const state = users();
    const first = query(all, [], state.entities, memo);
    expect(first.data!.map((user) => user.username)).toEqual(['ann', 'bob']);
    expect(query(all, [], state.entities, memo).data).toBe(first.data);
    const deleted = normalize(new schema.Invalidate(User), '1', [], state);
    expect(query(all, [], deleted.entities, memo).data!.map((user) => user.id)).toEqual([2]);
    const added = normalize(User, { id: 3, username: 'cy' }, [], state);
    expect(query(all, [], added.entities, memo).data).toHaveLength(3);
  });

  it('with a map, reads every entity of each member table', () => {
    const state = normalize([FeedItem], feed);
    const all = new schema.All({ link: Link, post: Post }, 'type');
    expect(query(all, [], state.entities).data!.map((item) => item.constructor)).toEqual([Link, Post]);
  });
});

describe('schema.Query', () => {
  it('hands what it reads and the arguments to its function; the result stays the same object', () => {
    const state = normalize(
      [User],
      [
        { id: 1, username: 'ann', age: 30 },
        { id: 2, username: 'bob', age: 20 },
      ],
    );
    let runs = 0;
    const olderThan = new schema.Query(new schema.All(User), (all, { age }: { age: number }) => {
      runs++;
      return all.filter((user) => user.age > age).map((user) => user.username);
    });
    const memo = new MemoCache();
    const first = query(olderThan, [{ age: 25 }], state.entities, memo).data;
    expect(first).toEqual(['ann']);
    expect(query(olderThan, [{ age: 25 }], state.entities, memo).data).toBe(first);
    expect(query(olderThan, [{ age: 10 }], state.entities, memo).data).toEqual(['ann', 'bob']);
    const unrelated = normalize(Post, { id: 1 }, [], state);
    expect(query(olderThan, [{ age: 25 }], unrelated.entities, memo).data).toBe(first);
    expect(runs).toBe(2);
    const older = normalize(User, { id: 2, age: 40 }, [], state);
    expect(query(olderThan, [{ age: 25 }], older.entities, memo).data).toEqual(['ann', 'bob']);
  });

  it('is unusable when what it reads is, and reads an entity by its args', () => {
    const count = new schema.Query(new schema.All(User), (all) => all.length);
    expect(query(count, [], {})).toMatchObject({ data: undefined, invalid: true });
    const nameOf = new schema.Query(User, (user) => user.username.toUpperCase());
    const state = normalize(User, { id: 7, username: 'ann' });
    expect(query(nameOf, [{ id: 7 }], state.entities).data).toBe('ANN');
    expect(query(nameOf, [{ id: 8 }], state.entities).data).toBeUndefined();
  });
});

describe('reading an Entity without a stored result (what controller.get does)', () => {
  const state = () =>
    normalize(
      [User],
      [
        { id: 1, username: 'ann' },
        { id: 2, username: 'bob' },
      ],
    );

  it('finds it by pk, by an object holding the pk, or by one of its indexes', () => {
    const { entities } = state();
    const memo = new MemoCache();
    expect(query(User, ['2'], entities, memo).data!.username).toBe('bob');
    expect(query(User, [2], entities, memo).data!.username).toBe('bob');
    expect(query(User, [{ id: 1 }], entities, memo).data!.username).toBe('ann');
    expect(query(User, [{ username: 'bob' }], entities, memo).data!.id).toBe(2);
    expect(query(User, [{ username: 'nobody' }], entities, memo).data).toBeUndefined();
    expect(query(User, [{ id: 9 }], entities, memo)).toMatchObject({ data: undefined, invalid: false });
    expect(query(User, [{ username: 'bob' }], entities, memo).data).toBe(query(User, ['2'], entities, memo).data);
  });

  it('queryKey gives the input a read starts from; lookupIndex follows writes', () => {
    const first = state();
    expect(queryKey(User, [{ username: 'ann' }], first.entities)).toBe('1');
    expect(queryKey({ me: User, all: new schema.All(User) }, [{ id: 2 }], first.entities)).toEqual({
      me: '2',
      all: [],
    });
    const renamed = normalize(User, { id: 1, username: 'anna' }, [], first);
    expect(lookupIndex(renamed.entities, 'User', 'username', 'anna')).toBe('1');
    expect(lookupIndex(renamed.entities, 'User', 'username', 'ann')).toBeUndefined();
    expect(lookupIndex(first.entities, 'User', 'username', 'ann')).toBe('1');
  });

  it('queryTables lists the tables whose writes may change a store read', () => {
    const counts = new schema.Query(new schema.All({ link: Link, post: Post }, 'type'), (items) => items.length);
    expect(queryTables(counts).sort()).toEqual(['Link', 'Post']);
    expect(queryTables({ me: User, feed: new schema.Collection([Post]) }).sort()).toEqual(['User', '[Post]']);
  });

  it('reads a Union member: the one the argument’s attribute names, else the first that holds the pk', () => {
    const stored = normalize([FeedItem], [...feed, { id: 2, type: 'post', title: 'Only a post' }]);
    expect(queryKey(FeedItem, [{ id: 1, type: 'post' }], stored.entities)).toEqual({ id: '1', schema: 'post' });
    expect(query(FeedItem, [{ id: 1, type: 'post' }], stored.entities).data).toBeInstanceOf(Post);
    expect(query(FeedItem, [{ id: 2 }], stored.entities).data).toMatchObject({ title: 'Only a post' });
    expect(query(FeedItem, [{ id: 1, type: 'video' }], stored.entities).data).toBeInstanceOf(Link);
    expect(query(FeedItem, [{ id: 3, type: 'link' }], stored.entities).data).toBeUndefined();
    expect(queryKey(FeedItem, ['1'], stored.entities)).toBeUndefined();
    expect(queryTables(new schema.Object({ feed: FeedItem })).sort()).toEqual(['Link', 'Post']);
  });

  it('reads an object schema member by member; schemas that only a response fills read as undefined', () => {
    const stored = normalize([User], [{ id: 1, username: 'ann' }]);
    const both = new schema.Object({ me: User, all: new schema.All(User) });
    const read = query(both, [{ id: 1 }], stored.entities).data!;
    expect(read.me.username).toBe('ann');
    expect(read.all.map((user) => user.id)).toEqual([1]);
    expect(queryKey(new schema.Values(User), [{ id: 1 }], stored.entities)).toBeUndefined();
    expect(queryKey(new schema.Array(User), [{ id: 1 }], stored.entities)).toBeUndefined();
    expect(queryTables(new schema.Values(User))).toEqual([]);
  });

  it('reads a Collection stored under the arguments', () => {
    const Users = new schema.Collection([User]);
    const stored = normalize(Users, [{ id: 1 }], [{ team: 'a' }]);
    expect(query(Users, [{ team: 'a' }], stored.entities).data!.map((user) => user.id)).toEqual([1]);
    expect(query(Users, [{ team: 'b' }], stored.entities).data).toBeUndefined();
  });
});

describe('EntityMixin', () => {
  class Article {
    id = '';
    title = '';
    author = 0;
    get shout() {
      return this.title.toUpperCase();
    }
  }

  it('turns any class into an Entity, keeping its base and methods', () => {
    const ArticleEntity = EntityMixin(Article, { key: 'Article', schema: { author: User } });
    const { result, entities } = normalize(
      [ArticleEntity],
      [{ id: 'a', title: 'hi', author: { id: 1, username: 'ann' } }],
    );
    expect(entities.Article!['a']).toEqual({ id: 'a', title: 'hi', author: '1' });
    const [read] = denormalize([ArticleEntity], result, { entities })!;
    expect(read).toBeInstanceOf(Article);
    expect(read!.shout).toBe('HI');
    expect((read as unknown as { author: User }).author).toBeInstanceOf(User);
    expect(ArticleEntity.key).toBe('Article');
    expect(ArticleEntity.pk({ id: 'x' })).toBe('x');
  });

  it('takes the pk as a field name or a function, and the key defaults to the class name', () => {
    class Thing {
      slug = '';
      group = '';
    }
    const BySlug = EntityMixin(Thing, { pk: 'slug' });
    expect(BySlug.key).toBe('Thing');
    expect(normalize(BySlug, { slug: 's1' }).result).toBe('s1');
    const ByBoth = EntityMixin(Thing, { key: 'Both', pk: (value) => `${value.group}/${value.slug}` });
    expect(normalize(ByBoth, { slug: 's1', group: 'g' }).result).toBe('g/s1');
    expect(() => normalize(EntityMixin(Thing, { key: 'NoId' }), { slug: 'x' })).toThrow(NormalizeError);
  });
});

describe('Entity.validate, shouldUpdate and shouldReorder', () => {
  class Checked extends Entity {
    id = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'Checked';
    static override validate(processed: Readonly<Record<string, unknown>>) {
      return typeof processed.title === 'string' ? undefined : 'title must be a string';
    }
  }

  it('validate() rejecting a response is a NormalizeError with its message; the tables stay as they were', () => {
    const state = normalize(Checked, { id: 1, title: 'ok' });
    expect(() =>
      normalize(
        [Checked],
        [
          { id: 2, title: 'ok' },
          { id: 3, title: 5 },
        ],
        [],
        state,
      ),
    ).toThrow(/Checked: validate\(\) rejected .*title must be a string/);
    expect(Object.keys(state.entities.Checked!)).toEqual(['1']);
  });

  it('a stored record that fails validate() reads as unusable (and is dropped from lists)', () => {
    const entities = { Checked: { '1': { id: 1, title: 'ok' }, '2': { id: 2, title: 7 } } };
    const memo = new MemoCache();
    expect(memo.denormalize(Checked, '2', entities).invalid).toBe(true);
    expect(memo.denormalize([Checked], ['1', '2'], entities).data!.map((c) => c.id)).toEqual([1]);
  });

  class Versioned extends Entity {
    id = 0;
    version = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'Versioned';
    static override shouldUpdate(
      _existingMeta: unknown,
      _incomingMeta: unknown,
      existing: Readonly<Record<string, unknown>>,
      incoming: Readonly<Record<string, unknown>>,
    ) {
      return (incoming.version as number) >= (existing.version as number);
    }
  }

  it('shouldUpdate() false keeps the stored entity', () => {
    const state = normalize(Versioned, { id: 1, version: 2, title: 'v2' });
    const older = normalize(Versioned, { id: 1, version: 1, title: 'v1' }, [], state, { fetchedAt: Date.now() + 1 });
    expect(older.entities.Versioned!['1']).toBe(state.entities.Versioned!['1']);
    const newer = normalize(Versioned, { id: 1, version: 3, title: 'v3' }, [], state);
    expect(newer.entities.Versioned!['1']).toMatchObject({ title: 'v3' });
  });

  it('shouldReorder() true makes the stored value the newer one in merge()', () => {
    class Stamped extends Entity {
      id = 0;
      updatedAt = 0;
      title = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Stamped';
      static override shouldReorder(
        _existingMeta: unknown,
        _incomingMeta: unknown,
        existing: Readonly<Record<string, unknown>>,
        incoming: Readonly<Record<string, unknown>>,
      ) {
        return (incoming.updatedAt as number) < (existing.updatedAt as number);
      }
    }
    const state = normalize(Stamped, { id: 1, updatedAt: 10, title: 'new' }, [], undefined, { fetchedAt: 1 });
    const late = normalize(Stamped, { id: 1, updatedAt: 5, title: 'old', extra: true }, [], state, {
      fetchedAt: 2,
    });
    expect(late.entities.Stamped!['1']).toEqual({ id: 1, updatedAt: 10, title: 'new', extra: true });
    expect(late.entities.Stamped!['1']).not.toBe(INVALID);
  });
});

describe('bad input to the new families leaves the tables as they were', () => {
  it.each([
    ['a Union member with an unknown attribute after valid ones', [FeedItem], [...feed, { id: 2, type: 'video' }]],
    ['a Union value that is not an object', [FeedItem], [feed[0], 7]],
    ['a Values value without a pk', new schema.Values(User), { a: { id: 1 }, b: { username: 'no id' } }],
    ['a polymorphic Array item without a pk', new schema.Array({ link: Link, post: Post }, 'type'), [{ type: 'post' }]],
    [
      'a mixin entity without its pk',
      EntityMixin(
        class Plain {
          slug = '';
        },
        { pk: 'slug', key: 'Plain' },
      ),
      {},
    ],
  ])('%s: a NormalizeError, nothing written', (_label, schemaDef, input) => {
    const state = normalize([FeedItem], [{ id: 5, type: 'post', title: 'kept' }]);
    const before = JSON.stringify(state.entities);
    expect(() => normalize(schemaDef, input, [], state)).toThrow(NormalizeError);
    expect(JSON.stringify(state.entities)).toBe(before);
    expect(Object.prototype).not.toHaveProperty('id');
  });
});
