import { describe, expect, it } from 'vitest';
import { Entity, MemoCache, denormalize, normalize, schema, type EntityTables } from '../../core/index.js';
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

describe('MemoCache: a read after a write walks only what the write changed', () => {
  /** The Comment table behind a Proxy that lists the pks read from it. */
  const watched = () => {
    const state = normalize(
      [Article],
      [article(1, 'ann', ['bob', 'cid']), article(2, 'bob', ['ann']), article(3, 'dan', ['dan'])],
    );
    const read = new Set<string>();
    const comments = new Proxy(state.entities.Comment!, {
      get(target, pk, receiver) {
        if (typeof pk === 'string') read.add(pk);
        return Reflect.get(target, pk, receiver) as unknown;
      },
    });
    const entities = { ...state.entities, Comment: comments };
    return { state: { ...state, entities }, read };
  };

  it('re-validates only the records that read a changed one, and keeps the others without reading them', () => {
    const { state, read } = watched();
    const memo = new MemoCache();
    const list = [Article] as const;
    const [a1, a2, a3] = memo.denormalize(list, state.result, state.entities).data!;
    // a first write: the read after it walks everything (and from then on knows who reads what)
    const first = normalize(User, { id: 'zed', name: 'Zed' }, [], state);
    expect(memo.denormalize(list, state.result, first.entities).data).toEqual([a1, a2, a3]);
    expect(read.size).toBeGreaterThan(2);
    read.clear();
    // cid is read by article 1's second comment only
    const renamed = normalize(User, { id: 'cid', name: 'Cid II' }, [], first);
    const [b1, b2, b3] = memo.denormalize(list, state.result, renamed.entities).data!;
    expect([...read].sort()).toEqual(['100', '101']);
    expect(b1!.comments[1]!.author.name).toBe('Cid II');
    expect(b1).not.toBe(a1);
    expect(b1!.comments[0]).toBe(a1!.comments[0]);
    expect(b1!.author).toBe(a1!.author);
    expect(b2).toBe(a2);
    expect(b3).toBe(a3);
    // a write no record of the list reads: nothing of it is read again, the same list comes back
    read.clear();
    const unrelated = normalize(User, { id: 'zed', name: 'Zed II' }, [], renamed);
    const again = memo.denormalize(list, state.result, unrelated.entities).data!;
    expect(read.size).toBe(0);
    expect(again[0]).toBe(b1);
    expect(again[1]).toBe(b2);
  });

  it('follows a write through every level: a changed user makes new comments, articles and list', () => {
    const { state } = watched();
    const memo = new MemoCache();
    const list = [Article] as const;
    memo.denormalize(list, state.result, state.entities);
    let current = normalize(User, { id: 'zed', name: 'Zed' }, [], state);
    memo.denormalize(list, state.result, current.entities);
    for (const name of ['Ann 1', 'Ann 2', 'Ann 3']) {
      const before = memo.denormalize(list, state.result, current.entities).data!;
      current = normalize(User, { id: 'ann', name }, [], current);
      const after = memo.denormalize(list, state.result, current.entities).data!;
      expect(after[0]!.author.name).toBe(name);
      expect(after[1]!.comments[0]!.author.name).toBe(name);
      expect(after[0]).not.toBe(before[0]);
      expect(after[1]).not.toBe(before[1]);
      expect(after[2]).toBe(before[2]);
      expect(after).toEqual(denormalize(list, state.result, current));
    }
  });

  it('sees a record that was missing when it is written, and one that is deleted', () => {
    const memo = new MemoCache();
    const list = [Article] as const;
    const state = normalize(list, [{ ...article(1, 'ann', []), editor: 'eve' }, article(2, 'bob', [])]);
    memo.denormalize(list, state.result, state.entities);
    const first = normalize(User, { id: 'zed', name: 'Zed' }, [], state);
    const [a1, a2] = memo.denormalize(list, state.result, first.entities).data!;
    expect(a1!.editor).toBeUndefined();
    // eve was read while missing: writing her is a change to article 1
    const eve = normalize(User, { id: 'eve', name: 'Eve' }, [], first);
    const [b1, b2] = memo.denormalize(list, state.result, eve.entities).data!;
    expect(b1!.editor?.name).toBe('Eve');
    expect(b2).toBe(a2);
    // bob (article 2's required author) is deleted: article 2 is no longer a member
    const deleted = normalize(new schema.Invalidate(User), { id: 'bob' }, [], eve);
    const after = memo.denormalize(list, state.result, deleted.entities).data!;
    expect(after).toEqual([b1]);
    expect(after[0]).toBe(b1);
  });

  it('reads each record of an article the write reached once: the article and its comments are built again, not walked first', () => {
    const plain = watched().state;
    const counts = new Map<string, number>();
    const comments = new Proxy(plain.entities.Comment, {
      get(target, pk, receiver) {
        if (typeof pk === 'string') counts.set(pk, (counts.get(pk) ?? 0) + 1);
        return Reflect.get(target, pk, receiver) as unknown;
      },
    });
    const state = { ...plain, entities: { ...plain.entities, Comment: comments } };
    const memo = new MemoCache();
    const list = [Article] as const;
    const read = (s: { readonly entities: EntityTables }) => memo.denormalize(list, state.result, s.entities).data!;
    read(state);
    const first = normalize(User, { id: 'zed', name: 'Zed' }, [], state);
    const [a1, a2, a3] = read(first);
    counts.clear();
    // cid is read by article 1's second comment only
    const [b1, b2, b3] = read(normalize(User, { id: 'cid', name: 'Cid II' }, [], first));
    expect(Object.fromEntries(counts)).toEqual({ '100': 1, '101': 1 });
    expect(b1!.comments[1]!.author.name).toBe('Cid II');
    expect(b1!.comments[1]).not.toBe(a1!.comments[1]);
    expect(b1!.comments[0]).toBe(a1!.comments[0]);
    expect([b2, b3]).toEqual([a2, a3]);
    expect(b2).toBe(a2);
  });

  it('keeps the instance of a record the write reached when every read of it gives what it gave before', () => {
    // a record that fails validation reads INVALID whatever it holds: rewriting it changes no read
    let rejecting = false;
    class Checked extends Entity {
      id = '';
      name = '';
      pk() {
        return this.id;
      }
      static override key = 'Checked';
      static override validate() {
        return rejecting ? 'rejected' : undefined;
      }
    }
    class Post extends Entity {
      id = 0;
      title = '';
      reviewer: Checked | undefined = undefined;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Post';
      static override schema = { reviewer: Checked };
    }
    const list = [Post] as const;
    const memo = new MemoCache();
    const rows = [
      { id: 1, title: 'one', reviewer: { id: 'rev', name: 'Rev' } },
      { id: 2, title: 'two' },
    ];
    let current = normalize(list, rows);
    const result = current.result;
    const read = () => memo.denormalize(list, result, current.entities).data!;
    const write = (name: string) => {
      rejecting = false;
      current = normalize(Checked, { id: 'rev', name }, [], current);
      rejecting = true;
    };
    rejecting = true;
    read();
    write('Rev 1');
    const before = read();
    expect(before[0]!.reviewer).toBeUndefined();
    for (const name of ['Rev 2', 'Rev 3']) {
      write(name);
      const after = read();
      expect(after[0]).toBe(before[0]);
      expect(after).toBe(before);
    }
    rejecting = false;
    write('Rev 4');
    rejecting = false;
    expect(read()[0]!.reviewer?.name).toBe('Rev 4');
  });

  it('reads a table that has a prototype as data only (a pk such as `constructor` is missing)', () => {
    const memo = new MemoCache();
    const entities = { User: { ann: { id: 'ann', name: 'Ann' } } } as unknown as Parameters<typeof denormalize>[2];
    const read = memo.denormalize([User], ['ann', 'constructor', 'toString'], entities).data!;
    expect(read.map((user) => user.name)).toEqual(['Ann']);
    expect(memo.denormalize(User, 'constructor', entities).data).toBeUndefined();
  });

  it('gives every result read after the same write the right values (a list and an entity of it)', () => {
    const memo = new MemoCache();
    const list = [Article] as const;
    const state = normalize(list, [article(1, 'ann', ['bob']), article(2, 'bob', ['cid'])]);
    const readBoth = (entities: typeof state.entities) =>
      [memo.denormalize(list, state.result, entities).data!, memo.denormalize(Article, '2', entities).data!] as const;
    readBoth(state.entities);
    let current = normalize(User, { id: 'zed', name: 'Zed' }, [], state);
    readBoth(current.entities);
    for (const name of ['Bob 1', 'Bob 2']) {
      const [listBefore, oneBefore] = readBoth(current.entities);
      current = normalize(User, { id: 'bob', name }, [], current);
      const [listAfter, oneAfter] = readBoth(current.entities);
      expect(oneAfter.author.name).toBe(name);
      expect(oneAfter).not.toBe(oneBefore);
      expect(listAfter[1]).toBe(oneAfter);
      expect(listAfter[0]!.comments[0]!.author.name).toBe(name);
      expect(listAfter[0]).not.toBe(listBefore[0]);
    }
    // the cid of article 2's comment, written now, is seen by both
    current = normalize(User, { id: 'cid', name: 'Cid' }, [], current);
    const [listLast, oneLast] = readBoth(current.entities);
    expect(oneLast.comments[0]!.author.name).toBe('Cid');
    expect(listLast[1]).toBe(oneLast);
  });
});
