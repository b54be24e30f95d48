import { describe, expect, it } from 'vitest';
import { INVALID, denormalize, normalize, schema } from '../../core/index.js';
import { Article, Comment, Todo, User } from '../fixtures/entities.js';

const article = (id: number, authorId: string, commentAuthors: string[]) => ({
  id,
  title: `Article ${id}`,
  author: { id: authorId, name: `User ${authorId}` },
  comments: commentAuthors.map((a, i) => ({ id: id * 100 + i, body: `c${i}`, author: { id: a, name: `User ${a}` } })),
});

describe('normalize: shapes', () => {
  it('normalizes a single entity into its table and returns its pk', () => {
    const { result, entities } = normalize(Todo, { id: 1, title: 'a' });
    expect(result).toBe('1');
    expect(entities.Todo).toEqual({ '1': { id: 1, title: 'a' } });
  });

  it('normalizes [Entity] and new schema.Array(Entity) alike', () => {
    const input = [{ id: 1 }, { id: 2 }];
    const literal = normalize([Todo], input);
    const explicit = normalize(new schema.Array(Todo), input);
    expect(literal.result).toEqual(['1', '2']);
    expect(explicit.result).toEqual(['1', '2']);
    expect(explicit.entities).toEqual(literal.entities);
  });

  it('normalizes object schemas, plain and schema.Object, passing other members through', () => {
    const input = { results: [{ id: 1 }], total: 10, next: '/todos?page=2' };
    const plain = normalize({ results: [Todo], total: 0 }, input);
    const explicit = normalize(new schema.Object({ results: [Todo] }), input);
    expect(plain.result).toEqual({ results: ['1'], total: 10, next: '/todos?page=2' });
    expect(explicit.result).toEqual(plain.result);
    const read = denormalize({ results: [Todo], total: 0 }, plain.result, plain);
    expect(read!.total).toBe(10);
    expect(read!.results[0]).toBeInstanceOf(Todo);
  });

  it('normalizes nested entities at any depth and stores each once', () => {
    const { result, entities } = normalize([Article], [article(1, 'ann', ['bob', 'ann']), article(2, 'bob', ['cid'])]);
    expect(result).toEqual(['1', '2']);
    expect(entities.Article!['1']).toEqual({ id: 1, title: 'Article 1', author: 'ann', comments: ['100', '101'] });
    expect(entities.Comment!['100']).toEqual({ id: 100, body: 'c0', author: 'bob' });
    expect(Object.keys(entities.User!).sort()).toEqual(['ann', 'bob', 'cid']);
  });

  it('reads an entity referenced from several places as one instance', () => {
    const { result, entities } = normalize([Article], [article(1, 'ann', ['bob', 'ann']), article(2, 'bob', ['ann'])]);
    const [a1, a2] = denormalize([Article], result, { entities })!;
    expect(a1!.author).toBe(a1!.comments[1]!.author);
    expect(a1!.author).toBe(a2!.comments[0]!.author);
    expect(a1!.comments[0]!.author).toBe(a2!.author);
    expect(a1!.comments[0]).toBeInstanceOf(Comment);
    expect(a1!.author).toBeInstanceOf(User);
  });

  it('normalizes every form a nested Entity or [Entity] field may take', () => {
    const comment = (id: number) => ({ id, body: `c${id}`, author: 'ann' });
    const { result, entities } = normalize(
      [Article],
      [
        { id: 1, author: null, editor: 7, comments: [comment(10), null, undefined, comment(11)] },
        { id: 2, author: { id: 'bob', name: 'Bob' }, comments: { a: comment(20), b: comment(21) } },
        { id: 3, author: 'ann', editor: null, comments: null },
        { id: 4, author: false, comments: [] },
      ],
    );
    expect(result).toEqual(['1', '2', '3', '4']);
    expect(entities.Article).toEqual({
      '1': { id: 1, author: null, editor: '7', comments: ['10', null, undefined, '11'] },
      '2': { id: 2, author: 'bob', comments: ['20', '21'] },
      '3': { id: 3, author: 'ann', editor: null, comments: null },
      '4': { id: 4, author: false, comments: [] },
    });
    expect(Object.keys(entities.Comment!)).toEqual(['10', '11', '20', '21']);
    expect(entities.Comment!['20']).toEqual({ id: 20, body: 'c20', author: 'ann' });
    expect(() => normalize(Article, { id: 5, comments: 'none' })).toThrow(/\[Comment\]: expected an array/);
    expect(() => normalize(Article, { id: 6, author: [{ id: 'ann' }] })).toThrow(/User: expected an object/);
  });

  it('keeps null members and null list items as they came, on write and on read', () => {
    const { result, entities } = normalize({ todos: [Todo], best: Todo }, { todos: [{ id: 1 }, null], best: null });
    expect(result).toEqual({ todos: ['1', null], best: null });
    const read = denormalize({ todos: [Todo], best: Todo }, result, { entities })!;
    expect(read.todos.map((t) => t?.id ?? null)).toEqual([1, null]);
    expect(read.best).toBeNull();
  });
});

describe('normalize: copy-on-write tables', () => {
  it('never changes the state it is given', () => {
    const first = normalize([Todo], [{ id: 1, title: 'a' }]);
    const snapshot = JSON.stringify(first.entities);
    normalize(Todo, { id: 1, title: 'changed' }, [], first);
    normalize(User, { id: 'u' }, [], first);
    expect(JSON.stringify(first.entities)).toBe(snapshot);
  });

  it('copies only the changed tables and records', () => {
    const first = normalize([Article], [article(1, 'ann', ['bob']), article(2, 'bob', [])]);
    const next = normalize(User, { id: 'bob', name: 'Bobby' }, [], first);
    expect(next.entities).not.toBe(first.entities);
    expect(next.entities.User).not.toBe(first.entities.User);
    expect(next.entities.Article).toBe(first.entities.Article);
    expect(next.entities.Comment).toBe(first.entities.Comment);
    expect(next.entities.User!.ann).toBe(first.entities.User!.ann);
    expect(next.entities.User!.bob).toEqual({ id: 'bob', name: 'Bobby' });
  });

  it('keeps the stored record when a response repeats it', () => {
    const first = normalize([Article], [article(1, 'ann', ['bob'])]);
    const again = normalize([Article], [article(1, 'ann', ['bob'])], [], first);
    expect(again.entities.Article!['1']).toBe(first.entities.Article!['1']);
    expect(again.entities.User!.ann).toBe(first.entities.User!.ann);
    expect(again.entities.Article).toBe(first.entities.Article);
  });

  it('shares unchanged nested values of a changed record', () => {
    class Doc extends Todo {
      tags = { a: [1, 2] };
      static override key = 'Doc';
    }
    const first = normalize(Doc, { id: 1, title: 'a', tags: { a: [1, 2] } });
    const next = normalize(Doc, { id: 1, title: 'b', tags: { a: [1, 2] } }, [], first);
    const before = first.entities.Doc!['1'] as { tags: unknown };
    const after = next.entities.Doc!['1'] as { tags: unknown; title: string };
    expect(after).not.toBe(before);
    expect(after.title).toBe('b');
    expect(after.tags).toBe(before.tags);
  });

  it('finds only own records in tables with a prototype (a state written by hand)', () => {
    const at = { date: 1, fetchedAt: 1, expiresAt: 1 };
    const state = { entities: { User: { ann: { id: 'ann', name: 'Ann' } } }, entitiesMeta: { User: { ann: at } } };
    const next = normalize(
      [User],
      [
        { id: 'constructor', name: 'C' },
        { id: 'toString', name: 'T' },
      ],
      [],
      state,
      at,
    );
    expect(next.entities.User!['constructor']).toEqual({ id: 'constructor', name: 'C' });
    expect(next.entities.User!['toString']).toEqual({ id: 'toString', name: 'T' });
    expect(next.entitiesMeta.User!['constructor']).toBe(next.entitiesMeta.User!['toString']);
    expect(next.changed).toEqual([
      ['User', 'constructor'],
      ['User', 'toString'],
    ]);
    const again = normalize(User, { id: 'ann', name: 'Ann' }, [], state, at);
    expect(again.entities.User).toBe(state.entities.User);
    expect(again.changed).toEqual([]);
  });
});

describe('normalize: ordering by request start time', () => {
  it('an older response never overwrites an entity written by a newer request', () => {
    const newer = normalize(Todo, { id: 1, title: 'new', completed: true }, [], undefined, { fetchedAt: 200 });
    const older = normalize(Todo, { id: 1, title: 'old', completed: false, userId: 3 }, [], newer, { fetchedAt: 100 });
    expect(older.entities.Todo!['1']).toEqual({ id: 1, title: 'new', completed: true, userId: 3 });
    expect(older.entitiesMeta.Todo!['1']!.fetchedAt).toBe(200);
  });

  it('a newer response wins and records its start time', () => {
    const older = normalize(Todo, { id: 1, title: 'old' }, [], undefined, { fetchedAt: 100 });
    const newer = normalize(Todo, { id: 1, title: 'new' }, [], older, { fetchedAt: 200, date: 250, expiresAt: 60_250 });
    expect(newer.entities.Todo!['1']).toEqual({ id: 1, title: 'new' });
    expect(newer.entitiesMeta.Todo!['1']).toEqual({ fetchedAt: 200, date: 250, expiresAt: 60_250 });
  });

  it("merges as the class's merge does: the default spread (newer fields win, in the stored order) and an own merge", () => {
    const stored = normalize(Todo, { id: 1, title: 'a', completed: false }, [], undefined, { fetchedAt: 100 });
    const newer = normalize(Todo, { userId: 7, title: 'b', id: 1 }, [], stored, { fetchedAt: 200 });
    expect(Object.entries(newer.entities.Todo!['1']!)).toEqual([
      ['id', 1],
      ['title', 'b'],
      ['completed', false],
      ['userId', 7],
    ]);
    const older = normalize(Todo, { id: 1, title: 'old', completed: true, userId: 3 }, [], newer, { fetchedAt: 150 });
    expect(Object.entries(older.entities.Todo!['1']!)).toEqual([
      ['id', 1],
      ['title', 'b'],
      ['completed', false],
      ['userId', 7],
    ]);
    class Counted extends Todo {
      static override key = 'Counted';
      static override merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
        return { ...existing, ...incoming, merges: ((existing.merges as number | undefined) ?? 0) + 1 };
      }
    }
    const first = normalize(Counted, { id: 1, title: 'a' }, [], undefined, { fetchedAt: 100 });
    const second = normalize(Counted, { id: 1, title: 'b' }, [], first, { fetchedAt: 200 });
    expect(second.entities.Counted!['1']).toEqual({ id: 1, title: 'b', merges: 1 });
    // an older response: merge(incoming, existing), so the stored fields win
    const third = normalize(Counted, { id: 1, title: 'old', completed: true }, [], second, { fetchedAt: 150 });
    expect(third.entities.Counted!['1']).toEqual({ id: 1, title: 'b', completed: true, merges: 1 });
  });

  it('an older response does not bring back an entity invalidated by a newer request', () => {
    const loaded = normalize(Todo, { id: 1 }, [], undefined, { fetchedAt: 100 });
    const deleted = normalize(new schema.Invalidate(Todo), { id: 1 }, [], loaded, { fetchedAt: 300 });
    const stale = normalize([Todo], [{ id: 1 }, { id: 2 }], [], deleted, { fetchedAt: 200 });
    expect(stale.entities.Todo!['1']).toBe(INVALID);
    expect(stale.entities.Todo!['2']).toEqual({ id: 2 });
  });
});

describe('normalize: reports what changed', () => {
  it('lists each written record once, and nothing for a repeated response', () => {
    const first = normalize([Article], [article(1, 'ann', ['bob', 'ann'])]);
    expect([...first.changed].map(([k, p]) => `${k}:${p}`).sort()).toEqual(
      ['Article:1', 'Comment:100', 'Comment:101', 'User:ann', 'User:bob'].sort(),
    );
    expect(normalize([Article], [article(1, 'ann', ['bob', 'ann'])], [], first).changed).toEqual([]);
    expect(normalize(User, { id: 'bob', name: 'B' }, [], first).changed).toEqual([['User', 'bob']]);
  });
});

describe('normalize: repeated records', () => {
  it('merges the occurrences of one entity within a response, the later fields winning', () => {
    const { entities } = normalize(
      [Todo],
      [
        { id: 1, title: 'a', userId: 5 },
        { id: 1, title: 'b' },
        { id: 1, title: 'b' },
      ],
    );
    expect(entities.Todo!['1']).toEqual({ id: 1, title: 'b', userId: 5 });
  });

  it('compares every repeat of a record within a response with the record as it is then, in any field order', () => {
    const tags = { a: [1] };
    const response: Record<string, unknown>[] = [
      { id: 'ann', name: 'Ann', tags },
      { id: 'ann', name: 'Ann', tags: { a: [1] } }, // equal, a nested value too
      { id: 'ann', name: 'Ann', tags: { a: [1] } },
      { name: 'Ann', id: 'ann' }, // another order, fewer fields: equal
      { id: 'ann' },
      { id: 'ann', name: 'Ann', tags: { a: [2] } }, // a nested value changed
      { id: 'ann', name: 'Ann', tags: { a: [2] } },
      { id: 'ann', name: 'Bea', tags: { a: [2] } },
      { tags: { a: [2] }, id: 'ann', name: 'Bea' },
      { id: 'ann', name: 'Bea', tags: { a: [2] }, extra: undefined }, // a field the record does not have
      { id: 'ann', name: 'Bea', tags: { a: [2] }, extra: undefined },
      { name: 'Cy', id: 'ann' },
      { id: 'bob', name: 'Bob' },
      { id: 'bob', name: 'Bob' },
      { id: 'bob', name: undefined }, // a field the record has, given as undefined
      { id: 'bob', name: undefined },
      { id: 'cy', name: 'Cy' },
      { id: 'cy', name: 'Cy' },
      { id: 'cy', name: 'Cyd' },
      { id: 'cy', name: 'Cy' }, // back to what it was two repeats ago
    ];
    const { result, entities, changed } = normalize([User], response);
    expect(result).toEqual([...Array<string>(12).fill('ann'), ...Array<string>(4).fill('bob'), 'cy', 'cy', 'cy', 'cy']);
    const ann = entities.User!.ann as Record<string, unknown>;
    expect(ann).toEqual({ id: 'ann', name: 'Cy', tags: { a: [2] }, extra: undefined });
    expect('extra' in ann).toBe(true);
    const bob = entities.User!.bob as Record<string, unknown>;
    expect('name' in bob && bob.name === undefined).toBe(true);
    expect(entities.User!.cy).toEqual({ id: 'cy', name: 'Cy' });
    expect(changed).toEqual([
      ['User', 'ann'],
      ['User', 'bob'],
      ['User', 'cy'],
    ]);
    const unchanged = normalize([User], response.slice(0, 5));
    expect(unchanged.entities.User!.ann).toEqual({ id: 'ann', name: 'Ann', tags: { a: [1] } });
    expect((unchanged.entities.User!.ann as { tags: unknown }).tags).toBe(tags);
  });

  it('writes a response with repeats alike into new tables and into tables holding other records', () => {
    const response = [article(1, 'ann', ['bob', 'ann']), article(2, 'bob', ['bob']), article(1, 'ann', ['carol'])];
    const at = { date: 5, fetchedAt: 5, expiresAt: 5 };
    const fresh = normalize([Article], response, [], undefined, at);
    const others = normalize([Article], [article(9, 'zed', ['zed'])], [], undefined, { fetchedAt: 1 });
    const over = normalize([Article], response, [], others, at);
    for (const key of ['Article', 'Comment', 'User']) {
      const written = Object.keys(fresh.entities[key]!);
      expect(written.map((pk) => over.entities[key]![pk])).toEqual(written.map((pk) => fresh.entities[key]![pk]));
      expect(written.map((pk) => over.entitiesMeta[key]![pk])).toEqual(written.map(() => at));
      expect(written.map((pk) => fresh.entitiesMeta[key]![pk])).toEqual(written.map(() => at));
    }
    // a repeat equal to the record written before keeps it; the changed repeat merged into it
    expect(fresh.entities.User!.ann).toEqual({ id: 'ann', name: 'User ann' });
    expect(fresh.entities.Article!['1']).toMatchObject({ comments: ['100'] });
    expect(over.changed).toEqual(fresh.changed);
  });

  it('keeps the stored record for repeated data but records the newer request time', () => {
    const first = normalize(Todo, { id: 1, title: 'a' }, [], undefined, { fetchedAt: 100 });
    const again = normalize(Todo, { id: 1, title: 'a' }, [], first, { fetchedAt: 200 });
    expect(again.entities.Todo!['1']).toBe(first.entities.Todo!['1']);
    expect(again.entitiesMeta.Todo!['1']!.fetchedAt).toBe(200);
    const older = normalize(Todo, { id: 1, title: 'stale' }, [], again, { fetchedAt: 150 });
    expect(older.entities.Todo!['1']).toEqual({ id: 1, title: 'a' });
  });
});
