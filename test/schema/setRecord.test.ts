import { describe, expect, it } from 'vitest';
import { Controller, Entity, INVALID, NormalizeError, normalize, schema } from '../../core/index.js';
import { controllerInternals } from '../../core/controller/Controller.js';
import { reducer } from '../../core/store/index.js';
import { normalizeInto, setRecord } from '../../core/schema/index.js';
import type { EntityMeta, NormalizedTables } from '../../core/schema/types.js';
import { stepOf, versionOf } from '../../core/schema/writeSteps.js';
import { User } from '../fixtures/entities.js';

class Note extends Entity {
  id = 0;
  title = '';
  done = false;
  tags: string[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'SetRecordNote';
}

const meta = (at: number): EntityMeta => ({ date: at, fetchedAt: at, expiresAt: at + 60_000 });

/** Two notes and a user, written at 100. */
function tables(): NormalizedTables {
  const notes = normalize(
    [Note],
    [
      { id: 1, title: 'a', done: false, tags: ['x'] },
      { id: 2, title: 'b', done: true },
    ],
    [],
    undefined,
    meta(100),
  );
  return normalize(User, { id: 'u', name: 'Ann' }, [], notes, meta(100));
}

/** What the short path and normalize give for one write over the same tables (copied, or written in place). */
function both(schema: unknown, value: unknown, base = tables(), inPlace = false) {
  const own = (t: NormalizedTables) => {
    const owned = new WeakSet<object>();
    if (inPlace) for (const part of [t.entities, t.entitiesMeta]) for (const k in part) owned.add(part[k]!);
    return owned;
  };
  const copy = inPlace ? structuredCloneTables(base) : base;
  const m = meta(200);
  // read once (a write over tables nothing read joins the step that made them)
  versionOf(base.entities);
  versionOf(copy.entities);
  const fast = setRecord(schema, value, [], base, m, own(base));
  const full = normalizeInto(schema, value, [], copy, m, own(copy));
  return { fast, full, base };
}

/** The tables again, prototype-free, their records new objects (for a write in place that must not touch `base`). */
function structuredCloneTables(t: NormalizedTables): NormalizedTables {
  const clone = (tables: object) => {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, table] of Object.entries(tables)) {
      const inner = Object.create(null) as Record<string, unknown>;
      for (const [pk, record] of Object.entries(table as object)) inner[pk] = record;
      out[k] = inner;
    }
    return out;
  };
  return { entities: clone(t.entities) as never, entitiesMeta: clone(t.entitiesMeta) as never };
}

describe('setRecord: a one-record write of a plain entity class in one function', () => {
  it.each([
    ['a changed field', { id: 1, title: 'new' }],
    ['every field the same', { id: 1, title: 'a' }],
    ['a field the record lacked', { id: 2, note: 'added' }],
    ['a field written undefined', { id: 2, title: undefined }],
    ['a pk as a string', { id: '2', done: false }],
    ['NaN over NaN is the same', { id: 1, score: Number.NaN }],
  ])('writes %s as normalize does: tables, field order, changed, identity and step', (_, value) => {
    for (const inPlace of [false, true]) {
      const base = tables();
      if (_ === 'NaN over NaN is the same') {
        // a record already holding NaN
        (base.entities.SetRecordNote as Record<string, unknown>)['1'] = { id: 1, title: 'a', score: Number.NaN };
      }
      const before = { ...base.entities.SetRecordNote } as Record<string, unknown>;
      const { fast, full } = both(Note, value, base, inPlace);
      expect(fast).toBeDefined();
      expect(fast!.changed).toEqual(full.changed);
      expect(JSON.stringify(fast!.entities)).toBe(JSON.stringify(full.entities));
      expect(Object.keys(fast!.entities.SetRecordNote!['1'] as object)).toEqual(
        Object.keys(full.entities.SetRecordNote!['1'] as object),
      );
      expect(Object.keys(fast!.entities.SetRecordNote!['2'] as object)).toEqual(
        Object.keys(full.entities.SetRecordNote!['2'] as object),
      );
      expect(fast!.entitiesMeta.SetRecordNote).toEqual(full.entitiesMeta.SetRecordNote);
      expect(Object.getPrototypeOf(fast!.entities)).toBe(null);
      expect(Object.getPrototypeOf(fast!.entitiesMeta.SetRecordNote)).toBe(null);
      // an unchanged record keeps its object; with nothing changed the entity tables are the same
      expect(fast!.entities.User).toBe(base.entities.User);
      const wrote = fast!.changed.length > 0;
      expect(fast!.entities === base.entities).toBe(!wrote);
      if (wrote) {
        const pk = fast!.changed[0]![1];
        const other = pk === '1' ? '2' : '1';
        expect(fast!.entities.SetRecordNote![other]).toBe(before[other]);
        expect(fast!.entities.SetRecordNote![pk]).not.toBe(before[pk]);
        // the nested value of the record is the stored one
        if (pk === '1') expect((fast!.entities.SetRecordNote!['1'] as Note).tags).toBe((before['1'] as Note).tags);
        expect(stepOf(fast!.entities)).toEqual({ base: versionOf(base.entities), changed: fast!.changed });
        expect(stepOf(full.entities)?.changed).toEqual(fast!.changed);
      } else {
        expect(fast!.entities.SetRecordNote).toBe(base.entities.SetRecordNote);
      }
    }
  });

  it('writes a copy of a table handed out, and the store own table in place', () => {
    const base = tables();
    const copied = setRecord(Note, { id: 1, title: 'c' }, [], base, meta(200), new WeakSet())!;
    expect(copied.entities.SetRecordNote).not.toBe(base.entities.SetRecordNote);
    expect((base.entities.SetRecordNote!['1'] as Note).title).toBe('a');
    const owned = new WeakSet<object>([base.entities.SetRecordNote!, base.entitiesMeta.SetRecordNote!]);
    const inPlace = setRecord(Note, { id: 1, title: 'd' }, [], base, meta(200), owned)!;
    expect(inPlace.entities.SetRecordNote).toBe(base.entities.SetRecordNote);
    expect(inPlace.entitiesMeta.SetRecordNote).toBe(base.entitiesMeta.SetRecordNote);
    expect((base.entities.SetRecordNote!['1'] as Note).title).toBe('d');
  });

  class Validated extends Entity {
    id = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'SetRecordValidated';
    static override validate(processed: Record<string, unknown>) {
      return processed.title === 'bad' ? 'bad title' : undefined;
    }
  }
  class Merged extends Entity {
    id = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'SetRecordMerged';
    static override merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
      return { ...existing, ...incoming, merged: true };
    }
  }
  class Processed extends Entity {
    id = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'SetRecordProcessed';
    static override process(input: Record<string, unknown>) {
      return { ...input, title: String(input.title).trim() };
    }
  }
  class Nested extends Entity {
    id = 0;
    owner = User.fromJS();
    pk() {
      return `${this.id}`;
    }
    static override key = 'SetRecordNested';
    static override schema = { owner: User };
  }

  it.each([
    ['a class with validate', Validated],
    ['a class with its own merge', Merged],
    ['a class with its own process', Processed],
    ['a class with a nested schema field', Nested],
  ])('leaves %s to normalize', (_, Cls) => {
    const written = normalize(Cls, { id: 1, title: 'a' }, [], undefined, meta(100));
    expect(setRecord(Cls, { id: 1, title: 'b' }, [], written, meta(200), new WeakSet())).toBeUndefined();
  });

  it.each([
    ['an object among the fields', { id: 1, tags: ['y'] }],
    ['a record not stored yet', { id: 3, title: 'c' }],
    ['a value that is no plain object', Object.assign(new (class Row {})(), { id: 1, title: 'c' })],
    ['an array', [{ id: 1 }]],
    ['a value without its pk', { title: 'c' }],
    ['a pk field that is no string or number', { id: true, title: 'c' }],
  ])('leaves %s to normalize', (_, value) => {
    expect(setRecord(Note, value, [], tables(), meta(200), new WeakSet())).toBeUndefined();
  });

  it('leaves to normalize a record written by a request not older than the write, an INVALID one, an unknown class', () => {
    expect(setRecord(Note, { id: 1, title: 'c' }, [], tables(), meta(100), new WeakSet())).toBeUndefined();
    expect(setRecord(Note, { id: 1, title: 'c' }, [], tables(), meta(50), new WeakSet())).toBeUndefined();
    const deleted = tables();
    (deleted.entities.SetRecordNote as Record<string, unknown>)['1'] = INVALID;
    expect(setRecord(Note, { id: 1, title: 'c' }, [], deleted, meta(200), new WeakSet())).toBeUndefined();
    class Fresh extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'SetRecordFresh';
    }
    // its pk fields are found by its first normalize
    expect(setRecord(Fresh, { id: 1 }, [], tables(), meta(200), new WeakSet())).toBeUndefined();
  });
});

describe("controller.set through the short path: what the store's readers and listeners see", () => {
  it('gives the state, the action and the emissions the full write gives', () => {
    const controller = new Controller({ now: () => 1_000 });
    const list = new schema.All(Note);
    controller.set(
      [Note],
      [
        { id: 1, title: 'a', done: false, tags: ['x'] },
        { id: 2, title: 'b', done: true },
      ],
    );
    const seen: unknown[] = [];
    const sub = controller.observe(list).subscribe((state) => seen.push(state.data));
    const actions: unknown[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    const { store } = controllerInternals(controller);
    for (const [value, changed] of [
      [{ id: 1, title: 'new' }, [['SetRecordNote', '1']]],
      [{ id: 1, title: 'new' }, []],
      [{ id: 2, extra: 3 }, [['SetRecordNote', '2']]],
    ] as const) {
      const before = store.current;
      const [first, second] = seen.at(-1) as Note[];
      const emitted = seen.length;
      const actionsBefore = actions.length;
      const written = new WeakSet<object>();
      // the full path: the reducer without the store's own tables (always a normalize)
      const date = Math.max(...Object.values(before.entitiesMeta.SetRecordNote!).map((m) => m!.fetchedAt)) + 1;
      expect(setRecord(Note, value, [{ id: value.id }], before, meta(date), written)).toBeDefined();
      controller.set(Note, { id: value.id }, value);
      const after = controller.getState();
      const full = reducer(before, {
        type: 'setEntity',
        schema: Note,
        args: [{ id: value.id }],
        value,
        date: after.entitiesMeta.SetRecordNote![String(value.id)]!.fetchedAt,
        expiresAt: after.entitiesMeta.SetRecordNote![String(value.id)]!.expiresAt,
      });
      expect(after).toEqual(full.state);
      expect(JSON.stringify(after)).toBe(JSON.stringify(full.state));
      const acted = actions.length;
      expect(acted).toBe(changed.length === 0 ? actionsBefore : actionsBefore + 1); // an unchanged record: no action
      if (changed.length > 0)
        expect(actions.at(-1)).toEqual({
          type: 'set',
          args: [{ id: value.id }],
          changes: { entities: changed, endpoints: [], optimistic: false },
        });
      const [nextFirst, nextSecond] = seen.at(-1) as Note[];
      if (changed.length === 0) {
        expect(seen.length).toBe(emitted); // nothing changed: no emission
      } else {
        expect(seen.length).toBe(emitted + 1);
        // the written record is a new instance, the other one the same
        expect(value.id === 1 ? nextFirst : nextSecond).not.toBe(value.id === 1 ? first : second);
        expect(value.id === 1 ? nextSecond : nextFirst).toBe(value.id === 1 ? second : first);
      }
    }
    expect((seen.at(-1) as Note[]).map((note) => note.title)).toEqual(['new', 'b']);
    sub.unsubscribe();
    controller.dispose();
  });
});

describe('setRecord and normalize on a pk that cannot be used', () => {
  it('throws the NormalizeError normalize throws, and writes nothing', () => {
    const base = tables();
    const value = { id: 'undefined', title: 'c' };
    const owned = new WeakSet<object>([base.entities.SetRecordNote!, base.entitiesMeta.SetRecordNote!]);
    let full: unknown;
    try {
      normalizeInto(Note, value, [], base, meta(200), owned);
    } catch (error) {
      full = error;
    }
    expect(full).toBeInstanceOf(NormalizeError);
    expect(() => setRecord(Note, value, [], base, meta(200), owned)).toThrow(full as Error);
    expect(Object.keys(base.entities.SetRecordNote!)).toEqual(['1', '2']);
  });
});
