import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import BigNumber from 'bignumber.js';
import {
  DeserializeError,
  Entity,
  MemoCache,
  SchemaDefinitionError,
  denormalize,
  normalize,
} from '../../core/index.js';
import { Article, Invoice, Todo, User } from '../fixtures/entities.js';

describe('Entity', () => {
  it('computes pk() on instances and Entity.pk() on plain values', () => {
    expect(Todo.fromJS({ id: 5 }).pk()).toBe('5');
    expect(Todo.pk({ id: 7 })).toBe('7');
    expect(User.pk({ id: 'u1' })).toBe('u1');
  });

  it('Entity.pk() gives the pk as the string the store keys the record by, also when pk() returns a number', () => {
    class Numbered extends Entity {
      id = 0;
      pk() {
        return this.id;
      }
    }
    expect(Numbered.pk({ id: 5 })).toBe('5');
    expect(Numbered.fromJS({ id: 5 }).pk()).toBe(5);
    expect(Object.keys(normalize(Numbered, { id: 5 }).entities.Numbered!)).toEqual([Numbered.pk({ id: 5 })]);
    // a number that names no record is no pk
    expect(Numbered.pk({ id: Number.NaN })).toBeUndefined();
    expect(Numbered.pk({ id: Number.POSITIVE_INFINITY })).toBeUndefined();
    expect(Numbered.pk({ id: undefined })).toBeUndefined();
  });

  it('names its table with static key', () => {
    const { entities } = normalize(Todo, { id: 1 });
    expect(Object.keys(entities)).toEqual(['Todo']);
  });

  it('fromJS() starts from the class defaults and applies props', () => {
    const todo = Todo.fromJS({ id: 3, title: 'x' });
    expect(todo).toBeInstanceOf(Todo);
    expect(todo).toMatchObject({ id: 3, title: 'x', userId: 0, completed: false });
    expect(todo.createdAt.epochMilliseconds).toBe(0);
  });

  it('fromJS() gives each instance its own defaults: changing one leaves the class defaults as they were', () => {
    class Draft extends Entity {
      id = 0;
      tags: string[] = [];
      meta: { done: boolean } = { done: false };
      pk() {
        return `${this.id}`;
      }
      static override key = 'Draft';
    }
    const first = Draft.fromJS({ id: 1 });
    first.tags.push('urgent');
    first.meta.done = true;
    const second = Draft.fromJS({ id: 2 });
    expect(second.tags).toEqual([]);
    expect(second.meta).toEqual({ done: false });
    expect(second.tags).not.toBe(first.tags);
    expect(Draft.defaults.tags).toEqual([]);
    // reads of records that lack the field still read the class default
    const { result, entities } = normalize(Draft, { id: 3 });
    expect(denormalize(Draft, result, { entities })!.tags).toEqual([]);
  });

  it('fromJS and reads apply one rule: data never replaces a method or getter, plain names stay data', () => {
    class Named extends Entity {
      id = 0;
      first = '';
      get full() {
        return `${this.first}!`;
      }
      pk() {
        return `${this.id}`;
      }
      static override key = 'Named';
    }
    const props = { id: 1, first: 'Ann', full: 'from data', pk: 'x', toString: 'plain' };
    const built = Named.fromJS(props);
    const { result, entities } = normalize(Named, props);
    const read = denormalize(Named, result, { entities })!;
    for (const instance of [built, read]) {
      expect(instance.full).toBe('Ann!');
      expect(instance.pk()).toBe('1');
      expect((instance as unknown as { toString: unknown }).toString).toBe('plain');
    }
  });

  it('fills fields a response lacks with the class defaults', () => {
    const { result, entities } = normalize(Todo, { id: 1, title: 'only a title' });
    const todo = denormalize(Todo, result, { entities })!;
    expect(todo.completed).toBe(false);
    expect(todo.userId).toBe(0);
    expect(todo.createdAt).toBeInstanceOf(Temporal.Instant);
  });

  it('reads the class fields in declaration order (stored value, else default), then the other stored fields', () => {
    class Ordered extends Entity {
      id = 0;
      name = '';
      count = 1;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Ordered';
    }
    // a field named like a member of Object.prototype is read from the record only when it is its own
    class Shadowing extends Entity {
      id = 0;
      __lookupGetter__ = 'default';
      count = 1;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Shadowing';
    }
    // the response in another order, without `count`, with a field the class lacks and an undefined one
    const ordered = normalize(Ordered, { extra: 'x', name: 'n', id: 1, count: undefined });
    const read = denormalize(Ordered, ordered.result, ordered)!;
    expect(Object.keys(read)).toEqual(['id', 'name', 'count', 'extra']);
    expect(read).toMatchObject({ id: 1, name: 'n', count: 1, extra: 'x' });
    const shadowing = normalize(Shadowing, { extra: 'x', id: 2 });
    const other = denormalize(Shadowing, shadowing.result, shadowing)!;
    expect(Object.keys(other)).toEqual(['id', '__lookupGetter__', 'count', 'extra']);
    expect(other).toMatchObject({ id: 2, __lookupGetter__: 'default', count: 1, extra: 'x' });
  });

  it('keeps response fields the class does not declare', () => {
    const { result, entities } = normalize(Todo, { id: 1, extra: 'kept' });
    expect((denormalize(Todo, result, { entities }) as unknown as { extra: string }).extra).toBe('kept');
  });

  it('runs static process() before normalizing and static merge() on updates', () => {
    class Tagged extends Entity {
      id = 0;
      tags: string[] = [];
      source = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Tagged';
      static override process(input: any, _p: unknown, _k: string | undefined, args: readonly unknown[]) {
        return { ...input, source: (args[0] as { from?: string } | undefined)?.from ?? 'none' };
      }
      static override merge(existing: any, incoming: any) {
        return { ...existing, ...incoming, tags: [...existing.tags, ...incoming.tags] };
      }
    }
    const first = normalize(Tagged, { id: 1, tags: ['a'] }, [{ from: 'list' }]);
    expect(first.entities.Tagged!['1']).toEqual({ id: 1, tags: ['a'], source: 'list' });
    const second = normalize(Tagged, { id: 1, tags: ['b'] }, [], first);
    expect(second.entities.Tagged!['1']).toEqual({ id: 1, tags: ['a', 'b'], source: 'none' });
  });

  it('by default, process() is a shallow copy and merge() a shallow spread (a nested object is replaced, not merged)', () => {
    class Profile extends Entity {
      id = 0;
      name = '';
      settings: { theme?: string; lang?: string } = {};
      pk() {
        return `${this.id}`;
      }
      static override key = 'Profile';
    }
    const input = { id: 1, name: 'Ann', settings: { theme: 'dark', lang: 'en' } };
    const processed = Profile.process(input, undefined, undefined, []);
    expect(processed).toEqual(input);
    expect(processed).not.toBe(input);
    expect(processed.settings).toBe(input.settings);
    expect(
      Profile.merge({ id: 1, name: 'Ann', settings: { theme: 'dark' } }, { id: 1, settings: { lang: 'fr' } }),
    ).toEqual({ id: 1, name: 'Ann', settings: { lang: 'fr' } });
    // and so normalizing: the input is copied, never changed, and an update spreads over the stored record
    const first = normalize(Profile, input);
    expect(first.entities.Profile!['1']).not.toBe(input);
    expect(input).toEqual({ id: 1, name: 'Ann', settings: { theme: 'dark', lang: 'en' } });
    const second = normalize(Profile, { id: 1, settings: { lang: 'fr' } }, [], first);
    expect(second.entities.Profile!['1']).toEqual({ id: 1, name: 'Ann', settings: { lang: 'fr' } });
  });

  it('maps a field to a plain object of schemas: its entities are stored in their tables, its other members pass through', () => {
    class Member extends Entity {
      id = 0;
      name = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Member';
    }
    class Board extends Entity {
      id = 0;
      team: { lead: Member | null; members: Member[]; size: number } = { lead: null, members: [], size: 0 };
      pk() {
        return `${this.id}`;
      }
      static override key = 'Board';
      static override schema = { team: { lead: Member, members: [Member] } };
    }
    const first = normalize(Board, {
      id: 1,
      team: {
        lead: { id: 5, name: 'Ann' },
        members: [
          { id: 5, name: 'Ann' },
          { id: 6, name: 'Bob' },
        ],
        size: 2,
      },
    });
    expect(first.entities.Board!['1']).toEqual({ id: 1, team: { lead: '5', members: ['5', '6'], size: 2 } });
    expect(Object.keys(first.entities.Member!)).toEqual(['5', '6']);
    const board = denormalize(Board, first.result, first)!;
    expect(board.team.lead).toBeInstanceOf(Member);
    expect(board.team.lead).toBe(board.team.members[0]);
    expect(board.team.members.map((member) => member.name)).toEqual(['Ann', 'Bob']);
    expect(board.team.size).toBe(2);
    const renamed = normalize(Member, { id: 6, name: 'Robert' }, [], first);
    expect(denormalize(Board, first.result, renamed)!.team.members[1]!.name).toBe('Robert');
  });

  it('throws a SchemaDefinitionError for a schema member that is neither a schema nor a deserializer', () => {
    class Broken extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Broken';
      static override schema = { id: 42 };
    }
    expect(() => normalize(Broken, { id: 1 })).toThrow(SchemaDefinitionError);
  });
});

describe('deserializers (static schema)', () => {
  const raw = {
    id: 1,
    issuedAt: '2024-03-01T10:00:00Z',
    amount: '12345678901234567890.123456789',
    count: '42',
    due: '2024-04-01T00:00:00.000Z',
    paidOn: '2024-04-02T00:00:00.000Z',
  };

  it('applies Temporal.Instant.from, BigNumber, Number, an arrow function and a class on read', () => {
    const { result, entities } = normalize(Invoice, raw);
    const invoice = denormalize(Invoice, result, { entities })!;
    expect(invoice.issuedAt).toBeInstanceOf(Temporal.Instant);
    expect(invoice.issuedAt.toString()).toBe('2024-03-01T10:00:00Z');
    expect(invoice.amount).toBeInstanceOf(BigNumber);
    expect(invoice.amount.toFixed()).toBe('12345678901234567890.123456789');
    expect(invoice.count).toBe(42);
    expect(invoice.due).toBeInstanceOf(Date);
    expect(invoice.due.toISOString()).toBe('2024-04-01T00:00:00.000Z');
    expect(invoice.paidOn).toBeInstanceOf(Date);
    expect(invoice.paidOn!.toISOString()).toBe('2024-04-02T00:00:00.000Z');
  });

  it('calls a function without new, and constructs a class that cannot be called', () => {
    const calls: { target: unknown }[] = [];
    /** A deserializer written as a function: it sees whether it was called with `new`. */
    function tagged(this: unknown, raw: string) {
      calls.push({ target: new.target });
      return `#${raw}`;
    }
    class Money {
      readonly cents: number;
      constructor(raw: string) {
        this.cents = Math.round(Number(raw) * 100);
      }
    }
    class Price extends Entity {
      id = 0;
      label = '';
      amount = new Money('0');
      pk() {
        return `${this.id}`;
      }
      static override key = 'Price';
      static override schema = { label: tagged, amount: Money };
    }
    const { result, entities } = normalize(Price, { id: 1, label: 'a', amount: '12.34' });
    const price = denormalize(Price, result, { entities })!;
    expect(price.label).toBe('#a');
    expect(calls).toEqual([{ target: undefined }]);
    expect(price.amount).toBeInstanceOf(Money);
    expect(price.amount.cents).toBe(1234);
    expect(entities.Price!['1']).toEqual({ id: 1, label: 'a', amount: '12.34' });
  });

  it('constructs a built-in class that cannot be called (Set, Map, typed arrays), and calls the built-ins that can', () => {
    class Stats extends Entity {
      id = 0;
      tags = new Set<string>();
      byDay = new Map<string, number>();
      bytes = new Uint8Array();
      label = '';
      big = 0n;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Stats';
      static override schema = { tags: Set, byDay: Map, bytes: Uint8Array, label: String, big: BigInt };
    }
    const raw = {
      id: 1,
      tags: ['a', 'b', 'a'],
      byDay: [['mon', 2]],
      bytes: [1, 2, 255],
      label: 7,
      big: '9007199254740993',
    };
    const { result, entities } = normalize(Stats, raw);
    const stats = denormalize(Stats, result, { entities })!;
    expect(stats.tags).toBeInstanceOf(Set);
    expect([...stats.tags]).toEqual(['a', 'b']);
    expect(stats.byDay.get('mon')).toBe(2);
    expect(stats.bytes).toBeInstanceOf(Uint8Array);
    expect([...stats.bytes]).toEqual([1, 2, 255]);
    expect(stats.label).toBe('7'); // String called, not a String object
    expect(stats.big).toBe(9007199254740993n); // BigInt cannot be constructed: it is called
    expect(entities.Stats!['1']).toEqual(raw);
  });

  it('keeps the raw JSON in the store, so the state survives JSON.stringify', () => {
    const { entities } = normalize(Invoice, raw);
    expect(entities.Invoice!['1']).toEqual(raw);
    expect(JSON.parse(JSON.stringify(entities))).toEqual({ Invoice: { '1': raw } });
  });

  it('skips deserializers for null and undefined', () => {
    const { result, entities } = normalize(Invoice, { id: 2, paidOn: null, issuedAt: undefined });
    const invoice = denormalize(Invoice, result, { entities })!;
    expect(invoice.paidOn).toBeNull();
    expect(invoice.issuedAt.epochMilliseconds).toBe(0); // class default
  });

  it('reports a deserializer failure as a DeserializeError naming the entity and field', () => {
    const { result, entities } = normalize(Invoice, { id: 3, issuedAt: 'not a date' });
    expect(() => denormalize(Invoice, result, { entities })).toThrow(DeserializeError);
    expect(() => denormalize(Invoice, result, { entities })).toThrow(/Invoice\.issuedAt.*"not a date"/);
    expect(entities.Invoice!['3']).toEqual({ id: 3, issuedAt: 'not a date' });
  });

  it('deserializes nested entities at every depth', () => {
    class Event extends Entity {
      id = 0;
      at = Temporal.Instant.from('1970-01-01T00:00:00Z');
      pk() {
        return `${this.id}`;
      }
      static override key = 'Event';
      static override schema = { at: Temporal.Instant.from };
    }
    class Calendar extends Entity {
      id = 0;
      events: Event[] = [];
      pk() {
        return `${this.id}`;
      }
      static override key = 'Calendar';
      static override schema = { events: [Event] };
    }
    const { result, entities } = normalize(
      { calendars: [Calendar] },
      { calendars: [{ id: 1, events: [{ id: 9, at: '2020-01-01T00:00:00Z' }] }] },
    );
    const read = denormalize({ calendars: [Calendar] }, result, { entities })!;
    expect(read.calendars[0]!.events[0]!.at).toBeInstanceOf(Temporal.Instant);
    expect(read.calendars[0]!.events[0]!.at.toString()).toBe('2020-01-01T00:00:00Z');
  });
});

describe('required and optional nested entities', () => {
  it('treats a field whose default is an Entity as required and one defaulting to undefined as optional', () => {
    const memo = new MemoCache();
    const { result, entities } = normalize(Article, { id: 1, author: { id: 'a' }, editor: { id: 'e' }, comments: [] });
    expect(memo.denormalize(Article, result, entities).data!.editor!.id).toBe('e');

    const withoutEditor = { ...entities, User: { ...entities.User, e: undefined } } as typeof entities;
    delete (withoutEditor.User as Record<string, unknown>).e;
    const optional = memo.denormalize(Article, result, withoutEditor);
    expect(optional.invalid).toBe(false);
    expect(optional.data!.editor).toBeUndefined();

    const withoutAuthor = { ...entities, User: { e: entities.User!.e } } as typeof entities;
    const required = memo.denormalize(Article, result, withoutAuthor);
    expect(required.invalid).toBe(true);
    expect(required.data).toBeUndefined();
  });
});
