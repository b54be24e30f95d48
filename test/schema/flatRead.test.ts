/**
 * A list of entities that nest no other (rows): each record read for the first time is built at once, without
 * recording or a nested pass (ReadPass `#resolve`); the memo's last results are kept by input object and by pk
 * in one map; the paths of a result follow only records that read others.
 */
import { describe, expect, it } from 'vitest';
import { DeserializeError, Entity, MemoCache, normalize, schema, type EntityTables } from '../../core/index.js';
import { Article, PlainTodo, User } from '../fixtures/entities.js';

class Row extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static override key = 'Row';
  static override validate(processed: Readonly<Record<string, unknown>>) {
    return processed.title === 'refused' ? 'a refused row' : undefined;
  }
}

class Dated extends Entity {
  id = '';
  at = new Date(0);
  pk() {
    return this.id;
  }
  static override key = 'Dated';
  static override schema = {
    at: (value: unknown) => {
      if (value === 'never') throw new Error('not a date');
      return new Date(value as string);
    },
  };
}

const rows = (...titles: string[]) =>
  Object.fromEntries(titles.map((title, i) => [`${i + 1}`, { id: `${i + 1}`, title, done: i % 2 === 0 }]));

describe('a first read of a list of flat entities', () => {
  it('builds each row once, with its class and fields, and gives the same rows and list again', () => {
    const memo = new MemoCache();
    const entities = { Row: rows('a', 'b', 'c') } as EntityTables;
    const list = [Row];
    const input = ['1', '2', '3', '1'];
    const first = memo.denormalize(list, input, entities).data!;
    expect(first.map((row) => row.title)).toEqual(['a', 'b', 'c', 'a']);
    expect(first[0]).toBeInstanceOf(Row);
    expect(first[0]).toEqual({ id: '1', title: 'a', done: true });
    expect(first[3]).toBe(first[0]);
    // another list of the same rows: the same instances (one per record)
    const other = memo.denormalize(new schema.Array(Row), ['3', '2'], entities).data!;
    expect(other[0]).toBe(first[2]);
    expect(other[1]).toBe(first[1]);
    expect(memo.denormalize(list, input, entities).data).toBe(first);
    // read with another memo (the same tables): new instances, equal to these
    expect(new MemoCache().denormalize(list, input, entities).data).toEqual(first);
  });

  it('drops a row whose record is missing or refused by the class’s validator, and reads the others', () => {
    const memo = new MemoCache();
    const entities = { Row: rows('a', 'refused', 'c') } as EntityTables;
    const read = memo.denormalize([Row], ['1', '2', '3', '9'], entities);
    expect(read.data?.map((row) => row.id)).toEqual(['1', '3']);
    expect(memo.denormalize(Row, '2', entities).invalid).toBe(true);
  });

  it('reads a number pk as its string, and a row given inline as itself', () => {
    const memo = new MemoCache();
    const entities = { Row: rows('a', 'b') } as EntityTables;
    const inline = { id: '7', title: 'inline', done: false };
    const read = memo.denormalize([Row], [2, inline], entities).data!;
    expect(read.map((row) => row.title)).toEqual(['b', 'inline']);
    expect(read[0]).toBe(memo.denormalize(Row, '2', entities).data);
  });

  it('fails the read with the deserializer’s error, and reads the row once its record is fixed', () => {
    const memo = new MemoCache();
    const bad = { Dated: { a: { id: 'a', at: '2020-01-01' }, b: { id: 'b', at: 'never' } } } as EntityTables;
    expect(() => memo.denormalize([Dated], ['a', 'b'], bad)).toThrow(DeserializeError);
    const fixed = { Dated: { ...bad.Dated, b: { id: 'b', at: '2021-01-01' } } } as EntityTables;
    const read = memo.denormalize([Dated], ['a', 'b'], fixed).data!;
    expect(read.map((row) => row.at.getUTCFullYear())).toEqual([2020, 2021]);
    expect(memo.denormalize(Dated, 'a', fixed).data).toBe(read[0]);
  });

  it('after writes, gives a changed row anew and keeps every other row, once the readers index is kept', () => {
    const memo = new MemoCache();
    let state = normalize(
      [PlainTodo],
      [1, 2, 3].map((id) => ({ id, userId: 1, title: `t${id}`, completed: false })),
    );
    const read = () => memo.denormalize([PlainTodo], state.result, state.entities).data!;
    const first = read();
    for (const [id, title] of [
      [2, 'two'],
      [2, 'deux'],
      [3, 'three'],
    ] as const) {
      const before = read();
      state = { ...state, entities: normalize(PlainTodo, { id, title }, [], state).entities };
      const after = read();
      expect(after[id - 1]?.title).toBe(title);
      expect(after[id - 1]).not.toBe(before[id - 1]);
      for (let i = 0; i < after.length; i++) if (i !== id - 1) expect(after[i]).toBe(before[i]);
    }
    expect(read()[0]).toBe(first[0]);
    // a row replaced in the store is read again through its pk too
    expect(memo.denormalize(PlainTodo, '2', state.entities).data?.title).toBe('deux');
  });
});

class Owner extends Entity {
  id = '';
  name = '';
  pet = 'none';
  pk() {
    return this.id;
  }
  static override key = 'Owner';
  static override schema = { pet: Row };
}

class Shallow extends Owner {
  static override key = 'ShallowOwner';
  static override maxEntityDepth = 0;
}

class Plain extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static override key = 'Plain';
}

describe('a first read’s rows of a plain class (no nested schema, no validator), built in one loop', () => {
  it('builds each new row with its class and fields, keeps a row read before, drops a missing one', () => {
    const memo = new MemoCache();
    const entities = { Plain: rows('a', 'b', 'c') } as EntityTables;
    const before = memo.denormalize(Plain, '2', entities).data!;
    const read = memo.denormalize([Plain], ['1', '2', 3, '9', '1'], entities);
    const list = read.data!;
    expect(list.map((row) => row.title)).toEqual(['a', 'b', 'c', 'a']);
    expect(list[0]).toBeInstanceOf(Plain);
    expect(list[0]).toEqual({ id: '1', title: 'a', done: true });
    expect(list[1]).toBe(before);
    expect(list[3]).toBe(list[0]);
    expect(memo.denormalize(Plain, '3', entities).data).toBe(list[2]);
    // the missing row is read, so its record coming is a change to the list
    expect(read.paths.has('Plain\u00009')).toBe(true);
    expect(new MemoCache().denormalize([Plain], ['1', '2', 3, '9', '1'], entities).data).toEqual(list);
  });

  it('gives the same list again when nothing was dropped, and after a write only the written row anew', () => {
    const memo = new MemoCache();
    let state = normalize(
      [Plain],
      [
        { id: '1', title: 'a', done: false },
        { id: '2', title: 'b', done: true },
      ],
    );
    const first = memo.denormalize([Plain], state.result, state.entities).data!;
    expect(first).toHaveLength(2);
    expect(memo.denormalize([Plain], state.result, state.entities).data).toBe(first);
    state = { ...state, entities: normalize(Plain, { id: '2', title: 'B', done: true }, [], state).entities };
    const after = memo.denormalize([Plain], state.result, state.entities).data!;
    expect(after[0]).toBe(first[0]);
    expect(after[1]).not.toBe(first[1]);
    expect(after[1]!.title).toBe('B');
  });
});

describe('a list of an entity class read by pk straight through the record’s read', () => {
  it('reads pks, number pks, inline items and null as item-by-item reads do, and drops missing and refused rows', () => {
    const memo = new MemoCache();
    const entities = { Row: rows('a', 'refused', 'c') } as EntityTables;
    const inline = { id: '7', title: 'inline', done: false };
    const read = memo.denormalize([Row], ['1', 2, 3, '9', inline, null, '3'], entities).data!;
    expect(read.map((row) => row?.title ?? row)).toEqual(['a', 'c', 'inline', null, 'c']);
    expect(read[1]).toBe(read[4]);
    expect(read[0]).toBe(memo.denormalize(Row, '1', entities).data);
    // the same list read item by item by another memo: equal values
    const other = new MemoCache().denormalize(new schema.Array(Row), ['1', 2, 3, '9', inline, null, '3'], entities);
    expect(other.data).toEqual(read);
  });

  it('reads a list of entities that nest others, and a list nested in an entity, with the same instances', () => {
    const memo = new MemoCache();
    const entities = {
      Row: rows('a', 'b'),
      Owner: { ann: { id: 'ann', name: 'Ann', pet: '1' }, bob: { id: 'bob', name: 'Bob', pet: '2' } },
    } as EntityTables;
    const owners = memo.denormalize([Owner], ['ann', 'bob', 'zed'], entities).data!;
    expect(owners.map((owner) => [owner.name, (owner.pet as unknown as Row).title])).toEqual([
      ['Ann', 'a'],
      ['Bob', 'b'],
    ]);
    const nested = memo.denormalize({ owners: new schema.Array(Owner) }, { owners: ['bob'] }, entities).data!;
    expect(nested.owners[0]).toBe(owners[1]);
  });

  it('reads the items past the depth limit shallow, as item-by-item reads do', () => {
    const memo = new MemoCache();
    const entities = {
      Row: rows('a'),
      ShallowOwner: { ann: { id: 'ann', name: 'Ann', pet: '1' } },
    } as EntityTables;
    const read = memo.denormalize([Shallow], ['ann'], entities).data!;
    // past the limit, the nested field stays as stored (its pk)
    expect(read[0]?.pet).toBe('1');
    expect(memo.denormalize([Shallow], ['ann', 'ann'], entities).data).toEqual([read[0], read[0]]);
    expect(memo.denormalize([Shallow], ['ann'], entities).data?.[0]).toBe(read[0]);
  });

  it('keeps every unchanged row and the list across writes, and gives a written row anew', () => {
    const memo = new MemoCache();
    const many = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, userId: 1, title: `t${i + 1}`, completed: false }));
    let state = normalize([PlainTodo], many);
    const read = () => memo.denormalize([PlainTodo], state.result, state.entities).data!;
    const first = read();
    expect(read()).toBe(first);
    let before = first;
    for (const [id, title] of [
      [5, 'five'],
      [5, 'cinq'],
      [17, 'seventeen'],
      [40, 'forty'],
    ] as const) {
      state = { ...state, entities: normalize(PlainTodo, { id, title }, [], state).entities };
      const after = read();
      expect(after).not.toBe(before);
      expect(after[id - 1]?.title).toBe(title);
      for (let i = 0; i < after.length; i++) if (i !== id - 1) expect(after[i]).toBe(before[i]);
      before = after;
    }
    // a new row written, and a list that holds it and two of the others: the new row read, the others kept
    const entities = normalize(PlainTodo, { id: 41, userId: 1, title: 'new', completed: false }, [], state).entities;
    state = { ...state, entities, result: [...(state.result as string[]).slice(0, 2), '41'] };
    const grown = read();
    expect(grown.map((todo) => todo.title)).toEqual(['t1', 't2', 'new']);
    expect(grown[0]).toBe(before[0]);
  });

  it('fails with a deserializer’s error, keeps nothing wrong, and reads the list once the record is fixed', () => {
    const memo = new MemoCache();
    const bad = { Dated: { a: { id: 'a', at: '2020-01-01' }, b: { id: 'b', at: 'never' } } } as EntityTables;
    const error = (() => {
      try {
        memo.denormalize([Dated], ['a', 'b', 'a'], bad);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DeserializeError);
    expect((error as DeserializeError).schemaKey).toBe('Dated');
    expect((error as DeserializeError).field).toBe('at');
    // the row read before the error is the one read again
    const a = memo.denormalize(Dated, 'a', bad).data!;
    const fixed = { Dated: { ...bad.Dated, b: { id: 'b', at: '2021-01-01' } } } as EntityTables;
    const read = memo.denormalize([Dated], ['a', 'b', 'a'], fixed).data!;
    expect(read.map((row) => row.at.getUTCFullYear())).toEqual([2020, 2021, 2020]);
    expect(read[0]).toBe(a);
    expect(read[2]).toBe(a);
  });
});

describe('the memo’s last results, by input object and by pk', () => {
  it('keeps one result per schema for an input object and per pk for an entity', () => {
    const memo = new MemoCache();
    const state = normalize([User], [{ id: 'ann', name: 'Ann' }]);
    const users = [User];
    const list = memo.denormalize(users, state.result, state.entities);
    expect(memo.denormalize(users, state.result, state.entities)).toBe(list);
    const byPk = memo.denormalize(User, 'ann', state.entities);
    expect(memo.denormalize(User, 'ann', state.entities)).toBe(byPk);
    expect(byPk.data).toBe(list.data?.[0]);
    // the same input read with another schema, and another pk: results of their own
    const asArray = memo.denormalize(new schema.Array(User), state.result, state.entities);
    expect(asArray).not.toBe(list);
    expect(memo.denormalize(User, 'bob', state.entities).invalid).toBe(true);
    expect(memo.denormalize(User, 'ann', state.entities)).toBe(byPk);
  });
});

describe('the paths of a result', () => {
  it('names every record read, through the records that read others', () => {
    const memo = new MemoCache();
    const state = normalize(
      [Article],
      [
        {
          id: 1,
          title: 'A',
          author: { id: 'ann', name: 'Ann' },
          comments: [{ id: 10, body: 'x', author: { id: 'bob', name: 'Bob' } }],
        },
        { id: 2, title: 'B', author: { id: 'bob', name: 'Bob' }, comments: [] },
      ],
    );
    const paths = [...memo.denormalize([Article], state.result, state.entities).paths].map((p) =>
      p.replace('\u0000', ':'),
    );
    expect(paths.sort()).toEqual(['Article:1', 'Article:2', 'Comment:10', 'User:ann', 'User:bob']);
    const flat = memo.denormalize([Row], ['1', '2', '5'], { Row: rows('a', 'b') } as EntityTables);
    expect([...flat.paths].sort()).toEqual(['Row\u00001', 'Row\u00002', 'Row\u00005']);
  });
});
