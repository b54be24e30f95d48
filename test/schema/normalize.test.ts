import { describe, expect, it } from 'vitest';
import { INVALID, MemoCache, denormalize, normalize, schema } from '../../core/index.js';
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

  it('an older response does not bring back an entity invalidated by a newer request', () => {
    const loaded = normalize(Todo, { id: 1 }, [], undefined, { fetchedAt: 100 });
    const deleted = normalize(new schema.Invalidate(Todo), { id: 1 }, [], loaded, { fetchedAt: 300 });
    const stale = normalize([Todo], [{ id: 1 }, { id: 2 }], [], deleted, { fetchedAt: 200 });
    expect(stale.entities.Todo!['1']).toBe(INVALID);
    expect(stale.entities.Todo!['2']).toEqual({ id: 2 });
  });
});

describe('denormalize: referential stability (MemoCache)', () => {
  const setup = () => {
    const memo = new MemoCache();
    const state = normalize(
      [Article],
      [article(1, 'ann', ['bob', 'cid']), article(2, 'bob', ['ann']), article(3, 'dan', ['dan'])],
    );
    return {
      memo,
      state,
      read: (entities = state.entities) => memo.denormalize([Article], state.result, entities).data!,
    };
  };

  it('returns the same objects when nothing changed', () => {
    const { read } = setup();
    const first = read();
    const second = read();
    expect(second).toBe(first);
  });

  it('returns the same objects after an unrelated change', () => {
    const { read, state } = setup();
    const first = read();
    const unrelated = normalize([Todo], [{ id: 1 }], [], state);
    const unrelatedUser = normalize(User, { id: 'zed', name: 'Zed' }, [], state);
    expect(read(unrelated.entities)).toBe(first);
    expect(read(unrelatedUser.entities)).toBe(first);
  });

  it('makes new objects only along the changed path', () => {
    const { read, state } = setup();
    const [a1, a2, a3] = read();
    const changed = normalize(User, { id: 'cid', name: 'Cid II' }, [], state);
    const next = read(changed.entities);
    const [b1, b2, b3] = next;
    expect(next).not.toBe([a1, a2, a3]);
    // the changed user and everything that contains it is new
    expect(b1!.comments[1]!.author.name).toBe('Cid II');
    expect(b1!.comments[1]!.author).not.toBe(a1!.comments[1]!.author);
    expect(b1!.comments[1]).not.toBe(a1!.comments[1]);
    expect(b1!.comments).not.toBe(a1!.comments);
    expect(b1).not.toBe(a1);
    // siblings on that path and unaffected rows keep their identity
    expect(b1!.author).toBe(a1!.author);
    expect(b1!.comments[0]).toBe(a1!.comments[0]);
    expect(b2).toBe(a2);
    expect(b3).toBe(a3);
  });

  it('keeps the objects of each version of a table: reading the older state again gives its records their old objects', () => {
    const { read, state } = setup();
    const [a1, a2] = read();
    const changed = normalize(User, { id: 'cid', name: 'Cid II' }, [], state);
    const [b1] = read(changed.entities);
    expect(b1!.comments[1]!.author.name).toBe('Cid II');
    // the older tables still hold the old Cid: its object comes back, and the unchanged rows stay the same
    const [c1, c2] = read(state.entities);
    expect(c1!.comments[1]!.author).toBe(a1!.comments[1]!.author);
    expect(c1!.comments[1]!.author.name).toBe('User cid');
    expect(c1!.author).toBe(a1!.author);
    expect(c2).toBe(a2);
    // and the newer version keeps its own
    expect(read(changed.entities)[0]!.comments[1]!.author).toBe(b1!.comments[1]!.author);
  });

  it('a new version of a table keeps the objects of the records it still holds, not of those it dropped or changed', () => {
    const memo = new MemoCache();
    const state = normalize(
      [User],
      [
        { id: 'ann', name: 'Ann' },
        { id: 'bob', name: 'Bob' },
      ],
    );
    const [ann, bob] = memo.denormalize([User], state.result, state.entities).data!;
    // a copy of the table without bob, and another with bob's record replaced
    const { bob: _dropped, ...withoutBob } = state.entities.User!;
    const dropped = { ...state.entities, User: withoutBob };
    expect(memo.denormalize([User], state.result, dropped).data).toEqual([ann]);
    expect(memo.denormalize([User], state.result, dropped).data![0]).toBe(ann);
    // the memo holds nothing of a record the table dropped
    expect(memo.tables.get(withoutBob)?.has('ann')).toBe(true);
    expect(memo.tables.get(withoutBob)?.has('bob')).toBe(false);
    const replaced = { ...state.entities, User: { ...withoutBob, bob: { id: 'bob', name: 'Robert' } } };
    const [ann2, bob2] = memo.denormalize([User], state.result, replaced).data!;
    expect(ann2).toBe(ann);
    expect(bob2).not.toBe(bob);
    expect(bob2!.name).toBe('Robert');
  });

  it('keeps the instance of an entity given inline while the records it reads stay, and rebuilds it when one changes', () => {
    const memo = new MemoCache();
    const state = normalize(User, { id: 'ann', name: 'Ann' });
    const inline = [{ id: 1, title: 'inline', author: 'ann' }];
    const first = memo.denormalize([Article], inline, state.entities).data![0]!;
    expect(first).toBeInstanceOf(Article);
    expect(first.author.name).toBe('Ann');
    const unrelated = normalize(User, { id: 'bob', name: 'Bob' }, [], state);
    expect(memo.denormalize([Article], inline, unrelated.entities).data![0]).toBe(first);
    const renamed = normalize(User, { id: 'ann', name: 'Ann II' }, [], state);
    const next = memo.denormalize([Article], inline, renamed.entities).data![0]!;
    expect(next).not.toBe(first);
    expect(next.author.name).toBe('Ann II');
  });

  it('a list stays the same array while its items are unchanged, and changes when one changes', () => {
    const memo = new MemoCache();
    const state = normalize([Todo], [{ id: 1 }, { id: 2 }]);
    const first = memo.denormalize([Todo], state.result, state.entities).data!;
    const other = normalize(User, { id: 'u' }, [], state);
    expect(memo.denormalize([Todo], state.result, other.entities).data).toBe(first);
    const edited = normalize(Todo, { id: 2, title: 'edited' }, [], state);
    const next = memo.denormalize([Todo], state.result, edited.entities).data!;
    expect(next).not.toBe(first);
    expect(next[0]).toBe(first[0]);
    expect(next[1]!.title).toBe('edited');
  });

  it('object results keep identity while their members do', () => {
    const memo = new MemoCache();
    const shape = { results: [Todo], total: 0 };
    const state = normalize(shape, { results: [{ id: 1 }], total: 1 });
    const first = memo.denormalize(shape, state.result, state.entities).data!;
    expect(memo.denormalize(shape, state.result, normalize(User, { id: 'x' }, [], state).entities).data).toBe(first);
    const changed = memo.denormalize(
      shape,
      state.result,
      normalize(Todo, { id: 1, title: 'new' }, [], state).entities,
    ).data!;
    expect(changed).not.toBe(first);
    expect(changed.total).toBe(1);
  });

  it('denormalize() without a memo still shares instances within one read', () => {
    const { state } = setup();
    const read = denormalize([Article], state.result, state)!;
    expect(read[0]!.author).toBe(read[1]!.comments[0]!.author);
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

describe('MemoCache: dependency paths', () => {
  it('lists every record a result read, transitively, including missing ones', () => {
    const memo = new MemoCache();
    const list = [Article] as const;
    const state = normalize(list, [article(1, 'ann', ['bob'])]);
    const { paths } = memo.denormalize(list, state.result, state.entities);
    expect([...paths].map((p) => p.replace('\u0000', ':')).sort()).toEqual([
      'Article:1',
      'Comment:100',
      'User:ann',
      'User:bob',
    ]);
    // a read of an entity that is not loaded depends on it, so writing it later can be noticed
    expect([...memo.denormalize(Todo, '42', state.entities).paths]).toEqual(['Todo\u000042']);
    // memoized reads (same schema object, same tables) return the same result in O(1)
    expect(memo.denormalize(list, state.result, state.entities).paths).toBe(paths);
  });

  it('keeps the paths while the records read stay the same ones, and recomputes them when a record reads others', () => {
    const memo = new MemoCache();
    const list = [Article] as const;
    const names = (paths: ReadonlySet<string>) => [...paths].map((p) => p.replace('\u0000', ':')).sort();
    const first = normalize(list, [article(1, 'ann', ['bob'])]);
    const paths = memo.denormalize(list, first.result, first.entities).paths;
    // a changed field of a record read: new data, the same records
    const renamed = normalize(User, { id: 'bob', name: 'Robert' }, [], first);
    const afterRename = memo.denormalize(list, first.result, renamed.entities);
    expect(afterRename.data![0]!.comments[0]!.author.name).toBe('Robert');
    expect(afterRename.paths).toBe(paths);
    // the comment now names another author: carol is read, bob no longer
    const moved = normalize(list, [article(1, 'ann', ['carol'])], [], renamed);
    const afterMove = memo.denormalize(list, moved.result, moved.entities);
    expect(names(afterMove.paths)).toEqual(['Article:1', 'Comment:100', 'User:ann', 'User:carol']);
    // a comment more: the records read grow
    const grown = normalize(list, [article(1, 'ann', ['carol', 'dan'])], [], moved);
    expect(names(memo.denormalize(list, grown.result, grown.entities).paths)).toEqual([
      'Article:1',
      'Comment:100',
      'Comment:101',
      'User:ann',
      'User:carol',
      'User:dan',
    ]);
  });

  it('recomputes the paths of the same stored result when one of its records starts reading another record', () => {
    const memo = new MemoCache();
    const list = [Article] as const;
    const names = (paths: ReadonlySet<string>) => [...paths].map((p) => p.replace('\u0000', ':')).sort();
    const first = normalize(list, [article(1, 'ann', ['bob'])]);
    expect(names(memo.denormalize(list, first.result, first.entities).paths)).toContain('User:bob');
    // only the comment changes (a push of that one record): the list's result is the very same object
    const moved = normalize(Comment, { id: 100, body: '', author: { id: 'carol', name: 'carol' } }, [], first);
    const again = memo.denormalize(list, first.result, moved.entities);
    expect(again.data![0]!.comments[0]!.author.id).toBe('carol');
    expect(names(again.paths)).toEqual(['Article:1', 'Comment:100', 'User:ann', 'User:carol']);
    // and a third read from the same pass keeps working
    const renamed = normalize(User, { id: 'carol', name: 'Carol' }, [], moved);
    expect(memo.denormalize(list, first.result, renamed.entities).data![0]!.comments[0]!.author.name).toBe('Carol');
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
