/**
 * An outside review of the schemas through the controller (API.md "Schemas" and "Parity with Reactive Data
 * Client"): Values, All, Query, Union, indexes, Invalidate of a required member, partial writes.
 */
import { describe, expect, it } from 'vitest';
import { Entity, RestEndpoint, schema, type QueryState } from '../../core/index.js';
import { useControllers } from '../fixtures/controllers.js';
import { record } from '../fixtures/streams.js';

const API = 'http://schemas.test';

class Person extends Entity {
  id = '';
  username = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'RvPerson';
  static override indexes = ['username'] as const;
}

class Post extends Entity {
  id = 0;
  title = '';
  author = Person.fromJS();
  reviewer: Person | undefined = undefined;
  pk() {
    return `${this.id}`;
  }
  static override key = 'RvPost';
  static override schema = { author: Person, reviewer: Person };
}

class Cat extends Entity {
  id = 0;
  kind = 'cat';
  lives = 9;
  pk() {
    return `${this.id}`;
  }
  static override key = 'RvCat';
}
class Dog extends Entity {
  id = 0;
  kind = 'dog';
  good = true;
  pk() {
    return `${this.id}`;
  }
  static override key = 'RvDog';
}
const pet = new schema.Union({ cat: Cat, dog: Dog }, 'kind');

const { make } = useControllers({ retry: 0, environment: {} });

const getPost = new RestEndpoint({ urlPrefix: API, path: '/posts/:id', schema: Post });
const listPosts = new RestEndpoint({ urlPrefix: API, path: '/posts', schema: [Post] });
const people = new RestEndpoint({ urlPrefix: API, path: '/people', schema: new schema.Values(Person) });
const pets = new RestEndpoint({ urlPrefix: API, path: '/pets', schema: new schema.Collection([pet]) });

const post = (id: number, author = 'u1') => ({
  id,
  title: `post ${id}`,
  author: { id: author, username: `user_${author}`, name: author },
});

describe('Invalidate of a required nested entity', () => {
  it('makes the post unusable (loading, refetch), drops it from a list, keeps the list usable', () => {
    const c = make();
    c.setResponse(getPost, { id: 1 }, post(1));
    c.setResponse(listPosts, {}, [post(1), post(2, 'u2')]);
    const del = new RestEndpoint({
      urlPrefix: API,
      path: '/people/:id',
      method: 'DELETE',
      schema: new schema.Invalidate(Person),
    });
    c.setResponse(del, { id: 'u1' }, { id: 'u1' });
    expect(c.getResponse(getPost, { id: 1 }).invalid).toBe(true);
    expect(c.getResponse(listPosts).data?.map((p) => p.id)).toEqual([2]);
  });

  it('an INVALID optional member is read as undefined and the post stays', () => {
    const c = make();
    c.setResponse(getPost, { id: 1 }, { ...post(1), reviewer: { id: 'r', username: 'rev', name: 'R' } });
    c.set(new schema.Invalidate(Person), 'r');
    const snapshot = c.getResponse(getPost, { id: 1 });
    expect(snapshot.invalid).toBe(false);
    expect(snapshot.data?.reviewer).toBeUndefined();
    expect(snapshot.data?.author.id).toBe('u1');
  });
});

describe('Values', () => {
  it('reads an object of entities, drops an invalidated one, keeps unchanged ones the same instance', () => {
    const c = make();
    c.setResponse(
      people,
      {},
      {
        a: { id: 'a', username: 'ann', name: 'Ann' },
        b: { id: 'b', username: 'bob', name: 'Bob' },
      },
    );
    const seen = record<QueryState<Record<string, Person>>>(c.observe(people));
    const first = seen.last().data!;
    expect(Object.keys(first)).toEqual(['a', 'b']);
    c.set(Person, { id: 'b' }, { id: 'b', name: 'Robert' });
    const second = seen.last().data!;
    expect(second.b!.name).toBe('Robert');
    expect(second.a).toBe(first.a);
    c.set(new schema.Invalidate(Person), 'a');
    expect(Object.keys(seen.last().data!)).toEqual(['b']);
    seen.unsubscribe();
  });
});

describe('All and Query', () => {
  it('All lists every record of the table, without INVALID ones, and follows new ones', () => {
    const c = make();
    c.setResponse(listPosts, {}, [post(1), post(2, 'u2')]);
    const all = new schema.All(Person);
    const seen = record<QueryState<Person[]>>(c.observe(all));
    expect(
      seen
        .last()
        .data?.map((p) => p.id)
        .sort(),
    ).toEqual(['u1', 'u2']);
    c.set(Person, { id: 'u3' }, { id: 'u3', username: 'u3', name: 'Three' });
    expect(
      seen
        .last()
        .data?.map((p) => p.id)
        .sort(),
    ).toEqual(['u1', 'u2', 'u3']);
    c.set(new schema.Invalidate(Person), 'u1');
    expect(
      seen
        .last()
        .data?.map((p) => p.id)
        .sort(),
    ).toEqual(['u2', 'u3']);
    seen.unsubscribe();
  });

  it('a Query computes from its queryable and arguments, re-emits only when what it read changed', () => {
    const c = make();
    c.setResponse(listPosts, {}, [post(1), post(2, 'u2'), post(3)]);
    const byAuthor = new schema.Query(new schema.All(Post), (posts: Post[], { author }: { author: string }) =>
      posts.filter((p) => p.author.id === author).map((p) => p.id),
    );
    expect(c.get(byAuthor, { author: 'u1' })).toEqual([1, 3]);
    const seen = record<QueryState<number[]>>(c.observe(byAuthor, { author: 'u2' }));
    expect(seen.last().data).toEqual([2]);
    const emitted = seen.values.length;
    c.set(Cat, { id: 1 }, { id: 1, kind: 'cat', lives: 8 });
    expect(seen.values.length).toBe(emitted);
    c.set(Post, { id: 3 }, { id: 3, author: 'u2' });
    expect(seen.last().data).toEqual([2, 3]);
    seen.unsubscribe();
  });

  it('an index lookup finds the entity, and undefined for an unknown value', () => {
    const c = make();
    c.setResponse(listPosts, {}, [post(1), post(2, 'u2')]);
    expect(c.get(Person, { username: 'user_u2' })?.id).toBe('u2');
    expect(c.get(Person, { username: 'nobody' })).toBeUndefined();
    expect(c.get(Person, { id: 'zz' })).toBeUndefined();
  });
});

describe('Union', () => {
  it('a Collection of a Union reads each member as its class and push adds the right class', () => {
    const c = make();
    c.setResponse(pets, {}, [
      { id: 1, kind: 'cat', lives: 9 },
      { id: 1, kind: 'dog', good: true },
    ]);
    const list = c.getResponse(pets, {}).data!;
    expect(list[0]).toBeInstanceOf(Cat);
    expect(list[1]).toBeInstanceOf(Dog);
    const add = pets.push;
    c.setResponse(add, {}, { id: 2, kind: 'dog', good: false });
    const after = c.getResponse(pets, {}).data!;
    expect(after.map((p) => `${p.constructor.name}${p.id}`)).toEqual(['Cat1', 'Dog1', 'Dog2']);
    expect(after[0]).toBe(list[0]);
  });

  it('a member of an unknown kind does not break the list: it is dropped or kept as data, never throws', () => {
    const c = make();
    const plain = new RestEndpoint({ urlPrefix: API, path: '/pets/all', schema: [pet] });
    let error: unknown;
    try {
      c.setResponse(plain, {}, [
        { id: 1, kind: 'cat', lives: 9 },
        { id: 5, kind: 'fish' },
      ]);
    } catch (e) {
      error = e;
    }
    if (error) {
      expect((error as Error).name).toMatch(/Error$/);
      expect((error as Error).message).toMatch(/fish|kind/);
      expect(c.getState().entities.RvCat).toBeUndefined();
    } else {
      const data = c.getResponse(plain).data!;
      expect(data[0]).toBeInstanceOf(Cat);
    }
  });
});

describe('set and partial values', () => {
  it('a partial set merges into the record; fields not given keep their values; the nested reference stays', () => {
    const c = make();
    c.setResponse(getPost, { id: 1 }, post(1));
    c.set(Post, { id: 1 }, { id: 1, title: 'renamed' });
    const p = c.get(Post, { id: 1 })!;
    expect(p.title).toBe('renamed');
    expect(p.author.name).toBe('u1');
  });

  it('set([Entity], rows) with a nested entity writes both tables at once', () => {
    const c = make();
    c.setResponse(listPosts, {}, [post(1)]);
    const seen = record<QueryState<Post[]>>(c.observe(listPosts));
    const before = seen.values.length;
    c.set(
      [Post],
      [
        { id: 1, author: { id: 'u9', username: 'nine', name: 'Nine' } },
        { id: 2, title: 'new', author: 'u1' as never },
      ],
    );
    expect(seen.values.length).toBe(before + 1);
    expect(seen.last().data![0]!.author.name).toBe('Nine');
    expect(c.get(Post, { id: 2 })?.author.id).toBe('u1');
    seen.unsubscribe();
  });
});
