/**
 * Outside review (round 12) of API.md's schema sections against data-client's behaviour for the same schema:
 * Values (null values, dropped invalid entries, a Collection of Values' remove/move), All (INVALID dropped, new
 * entities seen), Query over All with arguments, EntityMixin, indexes, Entity.process/merge hooks and defaults,
 * Invalidate of a bare pk inside a Values collection, Union by function.
 */
import { describe, expect, it } from 'vitest';
import { Entity, EntityMixin, RestEndpoint, schema } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';

const API = 'http://r12p.test';
const { make } = useControllers({ retry: 0, environment: {} });

class User extends Entity {
  id = '';
  username = '';
  role = 'member';
  pk() {
    return this.id;
  }
  static override key = 'R12User';
  static override indexes = ['username'] as const;
}

describe('schema.Values', () => {
  const users = new RestEndpoint({ urlPrefix: API, path: '/users-by-id', schema: new schema.Values(User) });

  it('null values are left out; an invalidated entity drops its entry; the others keep their instances', () => {
    const c = make();
    c.setResponse(users, {}, { a: { id: 'a', username: 'ann' }, b: null, c: { id: 'c', username: 'cy' } } as never);
    const first = c.getResponse(users, {}).data!;
    expect(Object.keys(first)).toEqual(['a', 'c']);
    c.setResponse(
      new RestEndpoint({ urlPrefix: API, path: '/u/:id', method: 'DELETE', schema: new schema.Invalidate(User) }),
      { id: 'c' },
      'c',
    );
    const second = c.getResponse(users, {}).data!;
    expect(Object.keys(second)).toEqual(['a']);
    expect(second.a).toBe(first.a);
  });

  it('a Collection of Values: move takes an entry out of the objects its new values leave and into those they match', () => {
    class Task extends Entity {
      id = '';
      status = 'open';
      pk() {
        return this.id;
      }
      static override key = 'R12Task';
    }
    const byStatus = new schema.Collection(new schema.Values(Task));
    const tasks = new RestEndpoint({
      urlPrefix: API,
      path: '/tasks',
      searchParams: {} as { status: string },
      schema: byStatus,
    });
    const move = new RestEndpoint({ urlPrefix: API, path: '/tasks/:id', method: 'PATCH', schema: byStatus.move });
    const c = make();
    c.setResponse(tasks, { status: 'open' }, { t1: { id: 't1', status: 'open' }, t2: { id: 't2', status: 'open' } });
    c.setResponse(tasks, { status: 'done' }, {});
    c.setResponse(move, { id: 't1' }, { status: 'done' }, { id: 't1', status: 'done' });
    expect(Object.keys(c.getResponse(tasks, { status: 'open' }).data!)).toEqual(['t2']);
    expect(Object.keys(c.getResponse(tasks, { status: 'done' }).data!)).toEqual(['t1']);
    expect(c.getResponse(tasks, { status: 'done' }).data!.t1!.status).toBe('done');
  });
});

describe('schema.All and schema.Query', () => {
  it('All lists every stored entity of the class (INVALID ones dropped), a new one once written', () => {
    const all = new schema.All(User);
    const c = make();
    c.set(
      [User],
      [
        { id: 'a', username: 'ann' },
        { id: 'b', username: 'bo' },
      ],
    );
    const first = c.get(all)!;
    expect(first.map((u) => u.id).sort()).toEqual(['a', 'b']);
    c.set(User, { id: 'c' }, { id: 'c', username: 'cy' });
    expect(
      c
        .get(all)!
        .map((u) => u.id)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    const invalidate = new RestEndpoint({
      urlPrefix: API,
      path: '/u/:id',
      method: 'DELETE',
      schema: new schema.Invalidate(User),
    });
    c.setResponse(invalidate, { id: 'a' }, { id: 'a' });
    const after = c.get(all)!;
    expect(after.map((u) => u.id).sort()).toEqual(['b', 'c']);
    expect(after.find((u) => u.id === 'b')).toBe(first.find((u) => u.id === 'b'));
  });

  it('Query over All with arguments; the same result object while nothing it read changed', () => {
    const admins = new schema.Query(new schema.All(User), (entries, { role }: { role: string }) =>
      entries.filter((u) => u.role === role),
    );
    const c = make();
    c.set(
      [User],
      [
        { id: 'a', username: 'ann', role: 'admin' },
        { id: 'b', username: 'bo' },
      ],
    );
    const first = c.get(admins, { role: 'admin' });
    expect(first!.map((u) => u.id)).toEqual(['a']);
    expect(c.get(admins, { role: 'admin' })).toBe(first);
    c.set(User, { id: 'b' }, { id: 'b', role: 'admin' });
    expect(c.get(admins, { role: 'admin' })!.map((u) => u.id)).toEqual(['a', 'b']);
  });
});

describe('Entity hooks, defaults, indexes', () => {
  it('an index lookup finds the entity by that field; a changed value moves the index', () => {
    const c = make();
    c.set(User, { id: 'a' }, { id: 'a', username: 'ann' });
    expect(c.get(User, { username: 'ann' })?.id).toBe('a');
    c.set(User, { id: 'a' }, { id: 'a', username: 'anne' });
    expect(c.get(User, { username: 'anne' })?.id).toBe('a');
    expect(c.get(User, { username: 'ann' })).toBeUndefined();
  });

  it('process sees input, parent, key and args; merge combines stored and incoming (newest wins by default)', () => {
    const seen: unknown[] = [];
    class Counter extends Entity {
      id = '';
      hits = 0;
      tags: string[] = [];
      pk() {
        return this.id;
      }
      static override key = 'R12Counter';
      static override process(input: unknown, parent: unknown, key: string | undefined, args: readonly unknown[]) {
        seen.push([parent, key, args]);
        return { ...(input as object) };
      }
      static override merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
        return {
          ...existing,
          ...incoming,
          hits: (existing.hits as number) + (incoming.hits as number),
          tags: [...new Set([...(existing.tags as string[]), ...(incoming.tags as string[])])],
        };
      }
    }
    const get = new RestEndpoint({ urlPrefix: API, path: '/counters/:id', schema: { counter: Counter } });
    const c = make();
    c.setResponse(get, { id: 'x' }, { counter: { id: 'x', hits: 1, tags: ['a'] } });
    c.setResponse(get, { id: 'x' }, { counter: { id: 'x', hits: 2, tags: ['b'] } });
    const counter = c.getResponse(get, { id: 'x' }).data!.counter!;
    expect(counter.hits).toBe(3);
    expect(counter.tags).toEqual(['a', 'b']);
    expect(seen[0]).toEqual([{ counter: { id: 'x', hits: 1, tags: ['a'] } }, 'counter', [{ id: 'x' }]]);
  });

  it('EntityMixin: pk, key and schema from the options; instances of the base class shape', () => {
    class PostData {
      id = 0;
      title = '';
      author: User | undefined = undefined;
    }
    const Post = EntityMixin(PostData, { pk: 'id', key: 'R12Post', schema: { author: User } });
    const get = new RestEndpoint({ urlPrefix: API, path: '/posts/:id', schema: Post });
    const c = make();
    c.setResponse(get, { id: 1 }, { id: 1, title: 'hello', author: { id: 'a', username: 'ann' } });
    const post = c.getResponse(get, { id: 1 }).data!;
    expect(post).toBeInstanceOf(PostData);
    expect(post.author).toBeInstanceOf(User);
    expect(Object.keys(c.getState().entities)).toEqual(expect.arrayContaining(['R12Post', 'R12User']));
    expect(c.getState().entities.R12Post!['1']).toMatchObject({ id: 1, title: 'hello', author: 'a' });
    expect(Post.key).toBe('R12Post');
    expect(Post.pk({ id: 1 })).toBe('1');
  });
});

describe('schema.Union', () => {
  it('by a function of the value (and its parent); an unknown member a clear error, the store unchanged', () => {
    class Link extends Entity {
      id = '';
      url = '';
      pk() {
        return this.id;
      }
      static override key = 'R12Link';
    }
    class Note extends Entity {
      id = '';
      text = '';
      pk() {
        return this.id;
      }
      static override key = 'R12Note2';
    }
    const item = new schema.Union({ link: Link, note: Note }, (value: { url?: string }) =>
      value.url ? 'link' : 'note',
    );
    const feed = new RestEndpoint({ urlPrefix: API, path: '/feed', schema: [item] });
    const c = make();
    c.setResponse(feed, {}, [
      { id: '1', url: 'http://x' },
      { id: '1', text: 'same id, other member' },
    ]);
    const data = c.getResponse(feed, {}).data!;
    expect(data[0]).toBeInstanceOf(Link);
    expect(data[1]).toBeInstanceOf(Note);
  });
});
