import { describe, expect, it } from 'vitest';
import { MemoCache, denormalize, normalize, schema, type EntityTables } from '../../core/index.js';
import { patches } from '../../core/schema/memo/patchList.js';
import { Article, Todo, User } from '../fixtures/entities.js';

/** A list long enough to be patched after a write (short ones are read whole). */
const N = 100;
const todos = (n = N) =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, userId: (i % 5) + 1, title: `todo ${i + 1}` }));

/** A list of pks behind a Proxy that lists the positions read from it. */
function watched(pks: readonly unknown[]) {
  const read = new Set<number>();
  const list = new Proxy(pks, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) read.add(Number(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { list, read };
}

/** Writes the title of todo `id` (a one-record write, as a push makes it). */
const retitle = (state: ReturnType<typeof normalize>, id: number, title: string) =>
  normalize(Todo, { id, userId: 1, title }, [], state);

/**
 * A todo list of `rows` read through a memo, past its first reads after a write (those walk everything; the next
 * ones know who reads what, and where): `read(state)` reads it, `positions` lists the positions read since cleared.
 */
function patchedTodos(rows: ReturnType<typeof todos>) {
  const memo = new MemoCache();
  const list = [Todo] as const;
  let state = normalize(list, rows);
  const { list: result, read: positions } = watched(state.result as string[]);
  const read = (s: typeof state) => memo.denormalize(list, result, s.entities).data!;
  read(state);
  for (const id of [1, 2, 3]) {
    state = retitle(state, id, `first ${id}`);
    read(state);
  }
  return { list, result, positions, read, state };
}

describe('a list read again after a one-record write (patched where the write changed it)', () => {
  it('reads only the changed record again: a new list, a new instance for it, the same instances for the others', () => {
    const { list, result, positions, read, ...patched } = patchedTodos(todos());
    let state = patched.state;
    let before = read(state);
    for (const [id, title] of [
      [7, 'seven'],
      [50, 'fifty'],
      [N, 'last'],
      [7, 'seven again'],
    ] as const) {
      state = retitle(state, id, title);
      positions.clear();
      const after = read(state);
      expect([...positions]).toEqual([id - 1]);
      expect(after).not.toBe(before);
      expect(after[id - 1]!.title).toBe(title);
      expect(after[id - 1]).not.toBe(before[id - 1]);
      expect(after.filter((todo, i) => todo !== before[i])).toEqual([after[id - 1]]);
      expect(after).toEqual(denormalize(list, result, state));
      // a read again of the same tables is the same list
      expect(read(state)).toBe(after);
      before = after;
    }
  });

  it('patches a Collection the same way, and keeps it the same list when the write changed none of its items', () => {
    const memo = new MemoCache();
    const collection = new schema.Collection([Todo]);
    const stored = normalize(collection, todos(), [{}]);
    const pk = stored.result as string;
    // the stored list behind a Proxy (a write of a todo keeps the list record as it is)
    const { list: pks, read: positions } = watched(stored.entities[collection.key]![pk] as string[]);
    let state = {
      ...stored,
      entities: { ...stored.entities, [collection.key]: { ...stored.entities[collection.key], [pk]: pks } },
    };
    const read = (entities: EntityTables) => memo.denormalize(collection, pk, entities).data!;
    read(state.entities);
    for (const id of [1, 2, 3]) {
      state = retitle(state, id, `first ${id}`);
      read(state.entities);
    }
    const before = read(state.entities);
    state = retitle(state, 30, 'thirty');
    positions.clear();
    const after = read(state.entities);
    expect([...positions]).toEqual([29]);
    expect(after[29]!.title).toBe('thirty');
    expect(after.filter((todo, i) => todo !== before[i])).toEqual([after[29]]);
    expect(after).toEqual(denormalize(collection, pk, state));
    // a write to another table: the very same list
    state = normalize(User, { id: 'zed', name: 'Zed' }, [], state);
    expect(read(state.entities)).toBe(after);
    // a write of the same values: the same list
    state = normalize(Todo, { id: 30, userId: 1, title: 'thirty' }, [], state);
    expect(read(state.entities)).toBe(after);
  });

  it('patches from the second write after a first read on: the read that starts the readers index lists every node', () => {
    const memo = new MemoCache();
    const list = [Todo] as const;
    const collection = new schema.Collection([Todo]);
    let state = normalize(list, todos());
    const stored = normalize(collection, todos(), [{}], state);
    const pk = stored.result as string;
    const { list: result, read: positions } = watched(state.result as string[]);
    const { list: pks, read: collectionPositions } = watched(stored.entities[collection.key]![pk] as string[]);
    state = {
      ...state,
      entities: { ...stored.entities, [collection.key]: { ...stored.entities[collection.key], [pk]: pks } },
    };
    const read = (s: typeof state) => [
      memo.denormalize(list, result, s.entities).data!,
      memo.denormalize(collection, pk, s.entities).data!,
    ];
    read(state);
    // the first write: its reads start the readers index, and read the lists whole
    state = retitle(state, 1, 'first');
    read(state);
    // the second: each list patched (its first patch finds where each pk sits), the third: only where it changed
    for (const [id, title] of [
      [60, 'sixty'],
      [70, 'seventy'],
    ] as const) {
      const before = read(state);
      state = retitle(state, id, title);
      positions.clear();
      collectionPositions.clear();
      const after = read(state);
      if (id === 70) {
        expect([...positions]).toEqual([69]);
        expect([...collectionPositions]).toEqual([69]);
      }
      expect(after[0]).toEqual(denormalize(list, result, state));
      expect(after[1]).toEqual(denormalize(collection, pk, state));
      for (const k of [0, 1])
        expect(after[k]!.filter((todo, i) => todo !== before[k]![i])).toEqual([after[k]![id - 1]]);
    }
  });

  it('reads whole, after the index started, a list whose items were last read before it started', () => {
    const memo = new MemoCache();
    const articles = (ids: number[], author: string) =>
      ids.map((id) => ({ id, title: `a${id}`, author: { id: author, name: author }, comments: [] }));
    let state = normalize([Article], [...articles([1, 2], 'ann'), ...articles([3, 4], 'bob')]);
    const first = [1, 2];
    const second = [3, 4];
    const read = (input: number[], s: typeof state) => memo.denormalize([Article], input, s.entities).data!;
    read(first, state);
    state = normalize(User, { id: 'ann', name: 'Ann' }, [], state);
    // the second list's first read (no index yet), then the first list's read again starts the index
    read(second, state);
    read(first, state);
    // a write to the second list's author: its articles were listed by no read yet
    state = normalize(User, { id: 'bob', name: 'Bob' }, [], state);
    expect(read(second, state).map((article) => article.author.name)).toEqual(['Bob', 'Bob']);
    expect(read(first, state).map((article) => article.author.name)).toEqual(['Ann', 'Ann']);
    state = normalize(User, { id: 'bob', name: 'Robert' }, [], state);
    expect(read(second, state)).toEqual(denormalize([Article], second, state));
    expect(read(second, state)[0]!.author.name).toBe('Robert');
  });

  it('updates every position that holds the changed record', () => {
    const memo = new MemoCache();
    const list = [Todo] as const;
    let state = normalize(list, [...todos(), { id: 3, userId: 4, title: 'todo 3' }]);
    const result = state.result;
    const read = (s: typeof state) => memo.denormalize(list, result, s.entities).data!;
    read(state);
    state = retitle(state, 1, 'first');
    read(state);
    state = retitle(state, 2, 'second');
    const before = read(state);
    expect(before[N]).toBe(before[2]);
    state = retitle(state, 3, 'three');
    const after = read(state);
    expect(after[2]!.title).toBe('three');
    expect(after[N]).toBe(after[2]);
    expect(after[1]).toBe(before[1]);
  });

  it('reads the touched positions when a write changes many records, one of them twice, one at two positions', () => {
    // todo 5 sits at two positions
    const { list, result, positions, read, ...patched } = patchedTodos([
      ...todos(),
      { id: 5, userId: 1, title: 'todo 5' },
    ]);
    let state = patched.state;
    const before = read(state);
    // 21 records in one write, todo 7 twice (the last title wins), todo 5 at two positions
    const ids = Array.from({ length: 20 }, (_, i) => 3 + i * 4);
    const rows = [...ids, 5, 7].map((id, i) => ({ id, userId: 1, title: `batch ${id}${i > 20 ? ' again' : ''}` }));
    state = normalize([Todo], rows, [], state);
    positions.clear();
    const after = read(state);
    expect([...positions].sort((a, b) => a - b)).toEqual([...ids.map((id) => id - 1), 4, N].sort((a, b) => a - b));
    expect(after).toEqual(denormalize(list, result, state));
    after.forEach((todo, i) => {
      if (ids.includes(todo.id) || todo.id === 5) expect(todo).not.toBe(before[i]);
      else expect(todo).toBe(before[i]);
    });
    expect(after[N]).toBe(after[4]);
    expect(after[6]!.title).toBe('batch 7 again');
  });

  it('tells keepRows which positions a patched list read again, and the list it was patched from', () => {
    // todo 5 sits at two positions
    const { read, ...patched } = patchedTodos([...todos(), { id: 5, userId: 1, title: 'todo 5' }]);
    let state = patched.state;
    let previous = read(state);
    /** The patch of `list`, checked: made from `previous`, which it equals outside the positions it lists. */
    const patchOf = (list: readonly unknown[]) => {
      const patch = patches.get(list)!;
      expect(patch.from).toBe(previous);
      expect([...patch.at].sort((a, b) => a - b)).toEqual(patch.at);
      list.forEach((item, i) => {
        if (!patch.at.includes(i)) expect(item).toBe(previous[i]);
      });
      previous = list as typeof previous;
      return patch.at;
    };

    const ids = [3, 40, 5, 70];
    state = normalize(
      [Todo],
      ids.map((id) => ({ id, userId: 1, title: `batch ${id}` })),
      [],
      state,
    );
    expect(patchOf(read(state))).toEqual([2, 4, 39, 69, N]);
    for (const [id, title] of [
      [60, 'sixty'],
      [61, 'sixty-one'],
      [60, 'sixty again'],
    ] as const) {
      state = retitle(state, id, title);
      expect(patchOf(read(state))).toEqual([id - 1]);
    }
    // a write that changed no record of the list: the same list, no patch of its own
    const kept = read(normalize(User, { id: 'ann', name: 'Ann' }, [], state));
    expect(kept).toBe(previous);
    // a list read whole (not one write past the last read) is no patch
    const whole = read(retitle(retitle(state, 20, 'twenty'), 21, 'twenty-one'));
    expect(patches.get(whole)).toBeUndefined();
  });

  it('holds a patched list only for the next patches: an older one is no longer told (keepRows then compares it whole)', () => {
    const { read, ...patched } = patchedTodos(todos());
    let state = retitle(patched.state, 3, 'three');
    const first = read(state);
    expect(patches.get(first)?.at).toEqual([2]);
    const lists = [first];
    for (let i = 0; i < 15; i++) {
      state = retitle(state, 10 + i, `title ${i}`);
      lists.push(read(state));
    }
    // sixteen patches: every one still told
    expect(lists.every((list) => patches.get(list) !== undefined)).toBe(true);
    state = retitle(state, 40, 'forty');
    read(state);
    expect(patches.get(first)).toBeUndefined();
    expect(patches.get(lists[1]!)?.at).toEqual([9]);
  });

  it('reads the list whole when an item goes missing, and when the tables read are not one write past the last', () => {
    const memo = new MemoCache();
    const list = [Todo] as const;
    let state = normalize(list, todos());
    const result = state.result;
    const read = (s: typeof state) => memo.denormalize(list, result, s.entities).data!;
    read(state);
    state = retitle(state, 1, 'first');
    read(state);
    state = retitle(state, 2, 'second');
    const kept = read(state);
    // todo 40 deleted: the list leaves it out
    const deleted = normalize(new schema.Invalidate(Todo), { id: 40 }, [], state);
    const without = read(deleted);
    expect(without).toHaveLength(N - 1);
    expect(without.map((todo) => todo.id)).not.toContain(40);
    expect(without[0]).toBe(kept[0]);
    // the older tables again (not one write past the last read): their values, then the newer ones again
    expect(read(state)).toEqual(denormalize(list, result, state));
    const older = read(state);
    expect(older).toHaveLength(N);
    expect(older[0]).toBe(kept[0]);
    const next = retitle(deleted, 10, 'ten');
    const afterBoth = read(next);
    expect(afterBoth).toEqual(denormalize(list, result, next));
    expect(afterBoth).toHaveLength(N - 1);
    // two writes between reads, then one: each read right
    let current = retitle(next, 11, 'eleven');
    current = retitle(current, 12, 'twelve');
    expect(read(current)).toEqual(denormalize(list, result, current));
    current = retitle(current, 13, 'thirteen');
    const last = read(current);
    expect(last).toEqual(denormalize(list, result, current));
    expect(last[12]!.title).toBe('thirteen');
  });

  it('patches a list read after several writes that nothing read between: one step holding every record they wrote', () => {
    const { list, result, positions, read, ...patched } = patchedTodos(todos());
    const first = patched.state;
    const before = read(first);
    // three writes in a row, nothing read between them (a burst in one task), one record twice
    const s1 = retitle(first, 7, 'seven');
    const s2 = retitle(s1, 50, 'fifty');
    const s3 = retitle(s2, 7, 'seven again');
    positions.clear();
    const after = read(s3);
    expect([...positions].sort((a, b) => a - b)).toEqual([6, 49]);
    expect(after).toEqual(denormalize(list, result, s3));
    expect(after[6]!.title).toBe('seven again');
    expect(after[49]!.title).toBe('fifty');
    expect(after[0]).toBe(before[0]);
    expect(after[99]).toBe(before[99]);
    expect(patches.get(after)?.at).toEqual([6, 49]);
    // the tables between them, read afterwards, read as they were
    expect(read(s1)).toEqual(denormalize(list, result, s1));
    expect(read(s1)[6]!.title).toBe('seven');
    expect(read(s2)).toEqual(denormalize(list, result, s2));
    expect(read(s3)).toEqual(denormalize(list, result, s3));
  });

  it('reads right after more unread writes than one step holds', () => {
    const { list, result, read, ...patched } = patchedTodos(todos());
    let state = patched.state;
    read(state);
    // 11 writes of every row, 1,100 records, nothing read between them
    for (let k = 0; k < 11; k++)
      state = normalize(
        [Todo],
        todos().map((todo) => ({ ...todo, title: `${todo.title} ${k}` })),
        [],
        state,
      );
    const after = read(state);
    expect(after).toEqual(denormalize(list, result, state));
    expect(after[5]!.title).toBe('todo 6 10');
    state = retitle(state, 6, 'six');
    expect(read(state)[5]!.title).toBe('six');
    expect(read(state)).toEqual(denormalize(list, result, state));
  });

  it('follows a change to a record the items read (a user of the articles), with their new instances', () => {
    const memo = new MemoCache();
    const list = [Article] as const;
    const articles = Array.from({ length: 60 }, (_, i) => ({
      id: i + 1,
      title: `Article ${i + 1}`,
      author: { id: `u${i % 6}`, name: `User ${i % 6}` },
      comments: [],
    }));
    let state = normalize(list, articles);
    const result = state.result;
    const read = () => memo.denormalize(list, result, state.entities);
    read();
    state = normalize(User, { id: 'u0', name: 'first' }, [], state);
    read();
    state = normalize(User, { id: 'u1', name: 'second' }, [], state);
    const before = read();
    const paths = before.paths;
    state = normalize(User, { id: 'u2', name: 'Two' }, [], state);
    const after = read();
    expect(after.data).toEqual(denormalize(list, result, state));
    after.data!.forEach((article, i) => {
      if (i % 6 === 2) {
        expect(article.author.name).toBe('Two');
        expect(article).not.toBe(before.data![i]);
      } else expect(article).toBe(before.data![i]);
    });
    // the same records read: the paths are handed over, not computed again
    expect(after.paths).toBe(paths);
  });
});

describe('the paths of a result', () => {
  it('are handed over when a record read is replaced by a new one that reads the same records', () => {
    const memo = new MemoCache();
    const list = [Article] as const;
    let state = normalize(list, [{ id: 1, title: 'a', author: { id: 'ann', name: 'Ann' }, comments: [] }]);
    const result = state.result;
    const first = memo.denormalize(list, result, state.entities);
    const paths = first.paths;
    // the article itself is written (a new record at the same pk, the same author)
    state = normalize(Article, { id: 1, title: 'b', author: { id: 'ann', name: 'Ann' }, comments: [] }, [], state);
    const second = memo.denormalize(list, result, state.entities);
    expect(second.data![0]!.title).toBe('b');
    expect(second.paths).toBe(paths);
  });
});
