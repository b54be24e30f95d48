import { describe, expect, it } from 'vitest';
import { Entity, MemoCache, normalize } from '../../core/index.js';
import type { RecordNode } from '../../core/schema/memo/dependencies.js';
import { Article, Comment, User } from '../fixtures/entities.js';

const comment = (id: number, author: string) => ({ id, body: `c${id}`, author: { id: author, name: author } });

describe('reading an entity from its record', () => {
  it('keeps the list of a rebuilt entity when its items are the same entities', () => {
    const memo = new MemoCache();
    const state = normalize(Article, {
      id: 1,
      title: 'one',
      author: { id: 'ann', name: 'Ann' },
      comments: [comment(1, 'bob'), comment(2, 'cid')],
    });
    const first = memo.denormalize(Article, state.result, state.entities).data!;
    // the author changed: the article is rebuilt, its comments (which do not read the author) are not
    const renamed = normalize(User, { id: 'ann', name: 'Ann II' }, [], state);
    const second = memo.denormalize(Article, state.result, renamed.entities).data!;
    expect(second).not.toBe(first);
    expect(second.author.name).toBe('Ann II');
    expect(second.comments).toBe(first.comments);
    // a comment's author changed: a new list, the other comment the same instance
    const bob = normalize(User, { id: 'bob', name: 'Bob II' }, [], renamed);
    const third = memo.denormalize(Article, state.result, bob.entities).data!;
    expect(third.comments).not.toBe(second.comments);
    expect(third.comments[0]!.author.name).toBe('Bob II');
    expect(third.comments[1]).toBe(second.comments[1]);
  });

  it('keeps a list with dropped items once its remaining items are the same, and drops missing items', () => {
    const memo = new MemoCache();
    const state = normalize(Article, { id: 1, title: 'one', author: { id: 'ann', name: 'Ann' }, comments: [] });
    // a record written around the normalizer: its list names a comment the store does not hold
    const comments = normalize([Comment], [comment(1, 'bob')], [], state);
    const entities = {
      ...comments.entities,
      Article: { 1: { ...comments.entities.Article!['1']!, comments: ['1', '9'] } },
    };
    const first = memo.denormalize(Article, '1', entities).data!;
    expect(first.comments.map((c) => c.id)).toEqual([1]);
    const renamed = normalize(User, { id: 'ann', name: 'Ann II' }, [], { ...comments, entities });
    const second = memo.denormalize(Article, '1', renamed.entities).data!;
    expect(second.author.name).toBe('Ann II');
    expect(second.comments).toBe(first.comments);
  });

  it('gives fields in declaration order and defaults whatever order or gaps the record has', () => {
    const memo = new MemoCache();
    const record = { comments: [], author: 'ann', title: 'late', id: 7, extra: 'kept' };
    const entities = { User: { ann: { id: 'ann', name: 'Ann' } }, Article: { 7: record } };
    const read = memo.denormalize(Article, '7', entities).data!;
    expect(read).toBeInstanceOf(Article);
    expect(Object.keys(read)).toEqual(['id', 'title', 'author', 'editor', 'comments', 'extra']);
    expect(read.title).toBe('late');
    const gaps = {
      User: entities.User,
      Article: { 7: { id: 7, title: undefined, author: 'ann', editor: undefined, comments: [] } },
    };
    const again = new MemoCache().denormalize(Article, '7', gaps).data!;
    expect(again.title).toBe('');
    expect(Object.keys(again)).toEqual(['id', 'title', 'author', 'editor', 'comments']);
  });

  it('reads a __proto__ key of a record as plain data, whatever else the record holds', () => {
    const record = JSON.parse('{"id":"ann","name":"Ann","__proto__":{"polluted":true}}') as object;
    const read = new MemoCache().denormalize(User, 'ann', { User: { ann: record } }).data!;
    expect(read).toBeInstanceOf(User);
    expect(Object.getPrototypeOf(read)).toBe(User.prototype);
    expect((read as unknown as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(read, '__proto__')?.value).toEqual({ polluted: true });
  });

  it('shares the dependencies of the entities that read only one same entity, and follows its changes', () => {
    const memo = new MemoCache();
    const state = normalize([Comment], [comment(1, 'ann'), comment(2, 'ann'), comment(3, 'bob')]);
    const first = memo.denormalize([Comment], state.result, state.entities).data!;
    const nodes = memo.latest.get('Comment')!;
    const deps = (pk: string) => (nodes.get(pk) as RecordNode).deps;
    // one list for both readers of ann (the same reads), another for bob's
    expect(deps('1')).toBe(deps('2'));
    expect(deps('1')).not.toBe(deps('3'));
    expect(deps('1')).toEqual([User, 'User', 'ann', first[0]!.author]);
    // ann changed: her readers are rebuilt and share a new list, with her new value; bob's reader is kept
    const renamed = normalize(User, { id: 'ann', name: 'Ann II' }, [], state);
    const second = memo.denormalize([Comment], state.result, renamed.entities).data!;
    expect(second[0]!.author.name).toBe('Ann II');
    expect(second[1]!.author).toBe(second[0]!.author);
    expect(second[2]).toBe(first[2]);
    expect(deps('1')).toBe(deps('2'));
    expect(deps('1')![3]).toBe(second[0]!.author);
    // the shared list reads the current value: another write elsewhere keeps every comment
    const other = normalize(User, { id: 'cid', name: 'Cid' }, [], renamed);
    const third = memo.denormalize([Comment], state.result, other.entities).data;
    expect(third).toBe(second);
    // a comment whose author is missing reads nothing shared (and is dropped from the list)
    const entities = {
      ...other.entities,
      Comment: { ...other.entities.Comment, 4: { id: 4, body: 'c4', author: 'zed' } },
    };
    const fourth = memo.denormalize([Comment], ['1', '4'], entities).data;
    expect(fourth).toEqual([second[0]]);
    expect(memo.latest.get('Comment')!.get('4')!.deps).not.toBe(deps('1'));
  });

  it('reads a table with a prototype by its own keys only, a prototype-free table by any key', () => {
    const record = { id: 1, title: 'one', author: 'constructor', comments: ['1', 9] };
    const comments = { 1: { id: 1, body: 'c1', author: 'ann' }, 9: { id: 9, body: 'c9', author: 'toString' } };
    const users = { ann: { id: 'ann', name: 'Ann' } };
    // a plain object's `constructor` and `toString` are not records: the author is missing, comment 9 dropped
    const plain = new MemoCache().denormalize(Article, '1', { Article: { 1: record }, Comment: comments, User: users });
    expect(plain.data).toBeUndefined();
    const withAuthor = { ...record, author: 'ann' };
    const read = new MemoCache().denormalize(Article, '1', {
      Article: { 1: withAuthor },
      Comment: comments,
      User: users,
    }).data!;
    expect(read.comments.map((c) => c.id)).toEqual([1]);
    // the same tables without a prototype: a record stored at such a key is read
    const bare = <T extends object>(table: T): T => Object.assign(Object.create(null) as T, table);
    const bareUsers = bare({
      ...users,
      constructor: { id: 'constructor', name: 'C' },
      toString: { id: 'toString', name: 'T' },
    });
    const tables = bare({ Article: bare({ 1: record }), Comment: bare(comments), User: bareUsers });
    const both = new MemoCache().denormalize(Article, '1', tables).data!;
    expect(both.author.name).toBe('C');
    expect(both.comments.map((c) => c.author.name)).toEqual(['Ann', 'T']);
  });
});

describe('class defaults of a field a record lacks', () => {
  class Note extends Entity {
    id = 0;
    tags: string[] = [];
    meta: { labels: string[]; pinned: boolean } = { labels: [], pinned: false };
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'DefaultsNote';
  }
  // a field named like an Object.prototype member: the read takes its slower path (no declaration-order copy)
  class OddNote extends Note {
    override toLocaleString = '';
    static override key = 'DefaultsOddNote';
  }
  // past the depth limit an entity is read shallow
  class ShallowNote extends Note {
    static override key = 'DefaultsShallowNote';
    static override maxEntityDepth = 0;
  }
  const entities = (key: string) => ({ [key]: { 1: { id: 1, title: 'a' }, 2: { id: 2 } } });

  it.each([
    ['a flat list', Note, [Note]],
    ['one record at a time', Note, Note],
    ['a class the read cannot copy in declaration order', OddNote, OddNote],
    ['past the depth limit', ShallowNote, ShallowNote],
  ] as const)('gives each instance its own default object and array (%s)', (_, Cls, schema) => {
    const tables = entities(Cls.key);
    const memo = new MemoCache();
    const read = (pk: string): Note =>
      Array.isArray(schema)
        ? (memo.denormalize(schema as [typeof Note], ['1', '2'], tables).data as Note[])[Number(pk) - 1]!
        : (memo.denormalize(schema as typeof Note, pk, tables).data as Note);
    const one = read('1');
    const two = read('2');
    expect(one.tags).toEqual([]);
    expect(one.tags).not.toBe(two.tags);
    expect(one.meta).not.toBe(two.meta);
    expect(one.meta.labels).not.toBe(two.meta.labels);
    one.tags.push('x');
    one.meta.labels.push('y');
    one.meta.pinned = true;
    expect(two.tags).toEqual([]);
    expect(two.meta).toEqual({ labels: [], pinned: false });
    expect(Cls.defaults.tags).toEqual([]);
    expect(Cls.defaults.meta).toEqual({ labels: [], pinned: false });
    expect(new MemoCache().denormalize(Cls, '1', tables).data!.tags).toEqual([]);
    // a record that holds the field reads its own value, not a copy
    const held = { [Cls.key]: { 3: { id: 3, tags: ['kept'] } } };
    expect(new MemoCache().denormalize(Cls, '3', held).data!.tags).toBe(held[Cls.key]![3]!.tags);
  });
});

describe('class defaults that are a Date, a Map or a Set', () => {
  class Event extends Entity {
    id = 0;
    at = new Date(0);
    seen = new Set<string>();
    counts = new Map<string, number>();
    // a Date inside a plain-object default is copied with it
    window = { from: new Date(0) };
    pk() {
      return `${this.id}`;
    }
    static override key = 'DefaultsEvent';
    static override schema = { at: (iso: string) => new Date(iso) };
  }
  class OddEvent extends Event {
    override toLocaleString = '';
    static override key = 'DefaultsOddEvent';
  }

  it.each([
    ['in declaration order', Event],
    ['a class the read cannot copy in declaration order', OddEvent],
  ] as const)('gives each instance its own copy, the class keeping its own (%s)', (_, Cls) => {
    const tables = { [Cls.key]: { 1: { id: 1 }, 2: { id: 2 } } };
    const memo = new MemoCache();
    const [one, two] = memo.denormalize([Cls], ['1', '2'], tables).data as Event[];
    expect(one!.at).toBeInstanceOf(Date);
    expect(one!.at).not.toBe(two!.at);
    expect(one!.seen).not.toBe(two!.seen);
    expect(one!.counts).not.toBe(two!.counts);
    expect(one!.window.from).not.toBe(two!.window.from);
    one!.at.setTime(5);
    one!.seen.add('x');
    one!.counts.set('x', 1);
    one!.window.from.setTime(7);
    expect(two!.at.getTime()).toBe(0);
    expect([...two!.seen]).toEqual([]);
    expect([...two!.counts]).toEqual([]);
    expect(two!.window.from.getTime()).toBe(0);
    expect((Cls.defaults.at as Date).getTime()).toBe(0);
    expect([...(Cls.defaults.seen as Set<string>)]).toEqual([]);
    expect([...(Cls.defaults.counts as Map<string, number>)]).toEqual([]);
    expect((Cls.defaults.window as { from: Date }).from.getTime()).toBe(0);
    // a record holding the field reads it (deserialized), no default copied
    const held = new MemoCache().denormalize(Cls, '3', { [Cls.key]: { 3: { id: 3, at: '2020-01-01T00:00:00Z' } } })
      .data as Event;
    expect(held.at.toISOString()).toBe('2020-01-01T00:00:00.000Z');
  });

  it('copies a Date, Map or Set default by its own constructor, with what it holds', () => {
    class Tagged extends Set<string> {}
    class Seeded extends Event {
      override seen = new Tagged(['a']);
      override counts = new Map([['a', 1]]);
      override at = new Date(42);
      static override key = 'DefaultsSeededEvent';
    }
    const seeded = new MemoCache().denormalize(Seeded, '1', { [Seeded.key]: { 1: { id: 1 } } }).data!;
    expect(seeded.seen).toBeInstanceOf(Tagged);
    expect(seeded.seen).not.toBe(Seeded.defaults.seen);
    expect([...seeded.seen]).toEqual(['a']);
    expect([...seeded.counts]).toEqual([['a', 1]]);
    expect(seeded.counts).not.toBe(Seeded.defaults.counts);
    expect(seeded.at.getTime()).toBe(42);
    expect(seeded.at).not.toBe(Seeded.defaults.at);
  });
});
