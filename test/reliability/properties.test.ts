/**
 * Property-based tests of normalize/denormalize with generated entity graphs: nested entities, lists
 * of entities, entities shared by several parents (with consistent data), optional members (absent,
 * `null`, present), a Collection nested in an entity, deserializers (`Date`, `Number`), and plain fields
 * whose keys look like `Object.prototype` members. Every generated response goes through JSON first,
 * as a real one does.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Entity, MemoCache, denormalize, normalize, schema, type NormalizedTables } from '../../core/index.js';

// Each property runs a hundred generated graphs: seconds of work that a shared, loaded machine can stretch past
// the default 5 s timeout without anything being wrong.
vi.setConfig({ testTimeout: 30_000 });

// ---- the entities ---------------------------------------------------------------------------------

class PUser extends Entity {
  id = '';
  name = '';
  email = '';
  pk() {
    return this.id;
  }
  static override key = 'PUser';
}

class PTag extends Entity {
  id = 0;
  label = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'PTag';
}

class PComment extends Entity {
  id = 0;
  body = '';
  author = PUser.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'PComment';
  static override schema = { author: PUser };
}

class PPost extends Entity {
  id = 0;
  title = '';
  subtitle = '';
  author = PUser.fromJS();
  editor: PUser | null | undefined = undefined;
  tags: PTag[] = [];
  comments: PComment[] = [];
  publishedAt = new Date(0);
  views = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'PPost';
  static override schema = {
    author: PUser,
    editor: PUser,
    tags: [PTag],
    comments: new schema.Collection([PComment]),
    publishedAt: (iso: string) => new Date(iso),
    views: Number,
  };
}

const PostList = new schema.Collection([PPost]);
const Page = { posts: [PPost], featured: PPost, total: 0 };

// ---- generators -----------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Pks that `usablePk` accepts, with some that look like Object.prototype members. */
const userId = fc.oneof(
  fc
    .string({ minLength: 1, maxLength: 6 })
    .filter((id) => !['undefined', 'null', 'NaN'].includes(id) && !id.startsWith('[object ')),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '0'),
);
const entityId = fc.integer({ min: -1_000_000, max: 1_000_000 });
/** Keys of plain (non-schema) fields; none is a declared field or a method of the classes. */
const extraKey = fc.constantFrom('meta', 'extra', '__proto__', 'constructor', 'prototype', 'valueOf', 'toString');
const extras = fc.uniqueArray(fc.tuple(extraKey, fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>), {
  selector: ([key]) => key,
  maxLength: 3,
});
const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

interface UserJson {
  id: string;
  name: string;
  email?: string;
}

/** Plain data of the graph, with references as indexes into the pools (so shared entities agree). */
const graph = fc
  .record({
    users: fc.uniqueArray(
      fc.record(
        { id: userId, name: fc.string({ maxLength: 5 }), email: fc.string({ maxLength: 5 }) },
        { requiredKeys: ['id', 'name'] },
      ),
      {
        selector: (user) => user.id,
        minLength: 1,
        maxLength: 5,
      },
    ),
    tags: fc.uniqueArray(fc.record({ id: entityId, label: fc.string({ maxLength: 4 }) }), {
      selector: (tag) => tag.id,
      maxLength: 4,
    }),
    comments: fc.uniqueArray(fc.record({ id: entityId, body: fc.string({ maxLength: 5 }), author: fc.nat() }), {
      selector: (c) => c.id,
      maxLength: 5,
    }),
    posts: fc.uniqueArray(
      fc.record(
        {
          id: entityId,
          title: fc.string({ maxLength: 5 }),
          subtitle: fc.string({ maxLength: 5 }),
          author: fc.nat(),
          editor: fc.oneof(fc.constant(null), fc.nat()),
          tags: fc.array(fc.nat(), { maxLength: 3 }),
          comments: fc.array(fc.nat(), { maxLength: 3 }),
          publishedAt: isoDate,
          views: fc.oneof(fc.integer(), fc.integer().map(String)),
          extras,
        },
        { requiredKeys: ['id', 'title', 'author', 'tags', 'comments', 'publishedAt', 'extras'] },
      ),
      { selector: (post) => post.id, minLength: 1, maxLength: 6 },
    ),
    /** Which posts the response lists, in order (repeats allowed: the same post twice). */
    order: fc.array(fc.nat(), { minLength: 0, maxLength: 8 }),
  })
  .map((g) => {
    const pick = <T>(list: readonly T[], index: number): T | undefined =>
      list.length ? list[index % list.length] : undefined;
    const user = (i: number) => pick(g.users, i)!;
    // a comment belongs to one post (its collection is stored under the post), so give each comment at most one post
    const commentOwner = new Map<number, number>();
    const posts = g.posts.map((post) => {
      const comments = [...new Set(post.comments.map((i) => pick(g.comments, i)).filter((c) => c !== undefined))]
        .filter((c) => (commentOwner.get(c.id) ?? post.id) === post.id && (commentOwner.set(c.id, post.id), true))
        .map((c) => ({ id: c.id, body: c.body, author: user(c.author) }));
      const json: Record<string, unknown> = {
        id: post.id,
        title: post.title,
        author: user(post.author),
        tags: post.tags.map((i) => pick(g.tags, i)).filter((t) => t !== undefined),
        comments,
        publishedAt: post.publishedAt,
      };
      if (post.subtitle !== undefined) json.subtitle = post.subtitle;
      if (post.editor !== undefined) json.editor = post.editor === null ? null : user(post.editor);
      if (post.views !== undefined) json.views = post.views;
      for (const [key, value] of post.extras)
        Object.defineProperty(json, key, { value, enumerable: true, writable: true, configurable: true });
      return json;
    });
    const listed = g.order.length ? g.order.map((i) => posts[i % posts.length]!) : posts;
    // through JSON, as from a server (an own "__proto__" key stays an own key)
    return JSON.parse(JSON.stringify(listed)) as Record<string, unknown>[];
  });

// ---- what a read must give --------------------------------------------------------------------------

function own(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function expectedUser(json: UserJson): Record<string, unknown> {
  return { id: json.id, name: json.name, email: json.email ?? '' };
}

const DECLARED = new Set(['id', 'title', 'subtitle', 'author', 'editor', 'tags', 'comments', 'publishedAt', 'views']);

/** The post an exact read gives: class defaults for absent fields, deserialized values, nested reads. */
function expectedPost(json: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: json.id,
    title: json.title,
    subtitle: json.subtitle ?? '',
    author: expectedUser(json.author),
    editor: json.editor === undefined ? undefined : json.editor === null ? null : expectedUser(json.editor),
    tags: json.tags.map((tag: { id: number; label: string }) => ({ id: tag.id, label: tag.label })),
    comments: json.comments.map((c: { id: number; body: string; author: UserJson }) => ({
      id: c.id,
      body: c.body,
      author: expectedUser(c.author),
    })),
    publishedAt: new Date(json.publishedAt),
    views: json.views === undefined ? 0 : Number(json.views),
  };
  for (const key of Object.keys(json)) if (!DECLARED.has(key)) own(out, key, json[key]);
  return out;
}

/** Compares a read post with its input field by field, and checks every class. */
function expectPost(actual: PPost, json: Record<string, any>): void {
  expect(actual).toBeInstanceOf(PPost);
  expect(actual.author).toBeInstanceOf(PUser);
  if (json.editor) expect(actual.editor).toBeInstanceOf(PUser);
  for (const tag of actual.tags) expect(tag).toBeInstanceOf(PTag);
  for (const comment of actual.comments) {
    expect(comment).toBeInstanceOf(PComment);
    expect(comment.author).toBeInstanceOf(PUser);
  }
  const expected = expectedPost(json);
  for (const key of Object.keys(expected)) {
    expect(Object.getOwnPropertyDescriptor(actual, key)?.value, `${PPost.key} ${json.id} .${key}`).toEqual(
      expected[key],
    );
  }
  expect(Object.getPrototypeOf(actual)).toBe(PPost.prototype);
  expect(actual.pk()).toBe(`${json.id}`);
}

/** Every instance of one entity (by key and pk) in a read graph is the same object. */
function expectShared(posts: readonly PPost[]): void {
  const seen = new Map<string, object>();
  const check = (key: string, entity: Entity | null | undefined) => {
    if (!entity) return;
    const id = `${key}:${entity.pk()}`;
    const first = seen.get(id);
    if (first) expect(entity).toBe(first);
    else seen.set(id, entity);
  };
  for (const post of posts) {
    check('post', post);
    check('user', post.author);
    check('user', post.editor);
    post.tags.forEach((tag) => check('tag', tag));
    for (const comment of post.comments) {
      check('comment', comment);
      check('user', comment.author);
    }
  }
}

const RUNS = { numRuns: 200 };

describe('normalize then denormalize gives back the input', () => {
  it('for a list of posts ([PPost])', () => {
    fc.assert(
      fc.property(graph, (posts) => {
        const state = normalize([PPost], posts);
        const read = denormalize([PPost], state.result, state)!;
        expect(read).toHaveLength(posts.length);
        read.forEach((post, i) => expectPost(post, posts[i]!));
        expectShared(read);
      }),
      RUNS,
    );
  });

  it('for a Collection stored under its arguments', () => {
    fc.assert(
      fc.property(
        graph,
        fc.dictionary(fc.constantFrom('userId', 'q', '__proto__', 'orderBy'), fc.string({ maxLength: 3 })),
        (posts, args) => {
          const state = normalize(PostList, posts, [args]);
          expect(typeof state.result).toBe('string');
          const read = denormalize(PostList, state.result, state, [args])!;
          read.forEach((post, i) => expectPost(post, posts[i]!));
          expectShared(read);
          expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        },
      ),
      RUNS,
    );
  });

  it('for an object schema with a list, a required entity and plain members', () => {
    fc.assert(
      fc.property(graph, (posts) => {
        const input = { posts, featured: posts[0], total: posts.length, page: { next: null } };
        const state = normalize(Page, input);
        const read = denormalize(Page, state.result, state)!;
        expect(read.total).toBe(posts.length);
        expect((read as unknown as { page: unknown }).page).toEqual({ next: null });
        read.posts.forEach((post, i) => expectPost(post, posts[i]!));
        expectPost(read.featured, posts[0]!);
        expect(read.featured).toBe(read.posts[0]);
        expectShared([...read.posts, read.featured]);
      }),
      RUNS,
    );
  });
});

describe('other properties of the same graphs', () => {
  it('the stored tables survive JSON and read back the same', () => {
    fc.assert(
      fc.property(graph, (posts) => {
        const state = normalize([PPost], posts);
        const restored = JSON.parse(
          JSON.stringify({ entities: state.entities, entitiesMeta: state.entitiesMeta }),
        ) as NormalizedTables;
        const read = denormalize([PPost], state.result, restored)!;
        read.forEach((post, i) => expectPost(post, posts[i]!));
      }),
      RUNS,
    );
  });

  it('normalizing the same response again (later) changes no record', () => {
    fc.assert(
      fc.property(graph, (posts) => {
        const first = normalize([PPost], posts, [], undefined, { fetchedAt: 1 });
        const again = normalize([PPost], JSON.parse(JSON.stringify(posts)), [], first, { fetchedAt: 2 });
        expect(again.changed).toEqual([]);
        for (const key of Object.keys(first.entities)) {
          for (const pk of Object.keys(first.entities[key]!))
            expect(again.entities[key]![pk]).toBe(first.entities[key]![pk]);
        }
      }),
      RUNS,
    );
  });

  it('one response or the same items in two responses give the same tables', () => {
    fc.assert(
      fc.property(graph, fc.nat(), (posts, cut) => {
        const at = cut % (posts.length + 1);
        const whole = normalize([PPost], posts, [], undefined, { fetchedAt: 1 });
        const half = normalize([PPost], posts.slice(0, at), [], undefined, { fetchedAt: 1 });
        const both = normalize([PPost], posts.slice(at), [], half, { fetchedAt: 1 });
        expect(JSON.stringify(both.entities, sortedKeys)).toBe(JSON.stringify(whole.entities, sortedKeys));
      }),
      RUNS,
    );
  });

  it('a MemoCache gives the same objects for the same tables, and keeps unchanged posts after a change', () => {
    fc.assert(
      fc.property(graph, fc.string({ maxLength: 4 }), (posts, title) => {
        const state = normalize([PPost], posts);
        const memo = new MemoCache();
        const first = memo.denormalize([PPost], state.result, state.entities).data!;
        expect(memo.denormalize([PPost], state.result, state.entities).data).toBe(first);
        const target = posts[0]!;
        const changed = normalize(PPost, { ...target, title: `${title}!` }, [], state);
        const second = memo.denormalize([PPost], state.result, changed.entities).data!;
        second.forEach((post, i) => {
          if (post.id === target.id) expect(post.title).toBe(`${title}!`);
          else expect(post).toBe(first[i]);
        });
      }),
      RUNS,
    );
  });
});

/** JSON.stringify replacer that sorts object keys (tables written in another order compare equal). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) own(out, key, (value as Record<string, unknown>)[key]);
  return out;
}
