import { describe, expect, it } from 'vitest';
import { MemoCache, denormalize, normalize } from '../../core/index.js';
import { Article, Comment, Todo, User } from '../fixtures/entities.js';

const article = (id: number, authorId: string, commentAuthors: string[]) => ({
  id,
  title: `Article ${id}`,
  author: { id: authorId, name: `User ${authorId}` },
  comments: commentAuthors.map((a, i) => ({ id: id * 100 + i, body: `c${i}`, author: { id: a, name: `User ${a}` } })),
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
