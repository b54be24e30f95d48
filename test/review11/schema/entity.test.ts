/**
 * Outside review of `Entity` from API.md / SPEC.md / docs alone: pks of several fields, keys, nested
 * schemas, deserializers, defaults, fromJS, process, merge, shouldUpdate, shouldReorder, validate.
 */
import { describe, expect, it } from 'vitest';
import { Entity, NormalizeError, RestEndpoint, schema } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';

const API = 'http://r11.test';
const { make } = useControllers({ retry: 0, environment: {} });

class Seat extends Entity {
  row = '';
  num = 0;
  taken = false;
  pk(): string | undefined {
    return `${this.row}-${this.num}`;
  }
  static override key = 'R11Seat';
}

class Money {
  constructor(readonly text: string) {}
  toJSON() {
    return this.text;
  }
}

class Author extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'R11Author';
}

class Tag extends Entity {
  slug = '';
  pk() {
    return this.slug;
  }
  static override key = 'R11Tag';
}

class Book extends Entity {
  id = 0;
  title = '';
  price = new Money('0');
  pages = 0;
  due: Date | undefined = undefined;
  author = Author.fromJS();
  tags: Tag[] = [];
  extra = { editor: undefined as Author | undefined, note: '' };
  pk() {
    return `${this.id}`;
  }
  static override key = 'R11Book';
  static override schema = {
    price: Money,
    pages: Number,
    due: (iso: string) => new Date(iso),
    author: Author,
    tags: [Tag],
    extra: { editor: Author },
  };
}

const seats = new RestEndpoint({ urlPrefix: API, path: '/seats', schema: [Seat] });
const getBook = new RestEndpoint({ urlPrefix: API, path: '/books/:id', schema: Book });

/** A book as the server sends it (`pages` as a string, which `Number` reads). */
const bookJson = (id: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  title: `book ${id}`,
  price: '12.50',
  pages: '300',
  due: '2024-05-01T00:00:00.000Z',
  author: { id: 7, name: 'Ann' },
  tags: [{ slug: 'a' }, { slug: 'b' }],
  extra: { editor: { id: 8, name: 'Ed' }, note: 'n' },
  ...extra,
});

describe('a pk of several fields', () => {
  it('keeps records that share one field apart and finds each by an object of its pk fields', () => {
    const c = make();
    c.setResponse(seats, {}, [
      { row: 'A', num: 1, taken: true },
      { row: 'A', num: 2 },
      { row: 'B', num: 1 },
    ]);
    expect(Object.keys(c.getState().entities.R11Seat!).sort()).toEqual(['A-1', 'A-2', 'B-1']);
    const a2 = c.get(Seat, { row: 'A', num: 2 });
    expect(a2).toBeInstanceOf(Seat);
    expect(a2?.taken).toBe(false);
    expect(c.get(Seat, { row: 'A', num: 1 })?.taken).toBe(true);
    expect(c.get(Seat, { row: 'C', num: 1 })).toBeUndefined();
  });

  it('a record lacking one pk field is a NormalizeError naming the entity, and the store keeps what it had', () => {
    const c = make();
    c.setResponse(seats, {}, [{ row: 'A', num: 1 }]);
    const before = c.getState();
    class Strict extends Seat {
      override pk() {
        return this.row && this.num ? `${this.row}-${this.num}` : undefined;
      }
      static override key = 'R11Strict';
    }
    const strict = new RestEndpoint({ urlPrefix: API, path: '/strict', schema: [Strict] });
    let error: unknown;
    try {
      c.setResponse(strict, {}, [{ row: 'A', num: 1 }, { row: 'B' }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NormalizeError);
    expect(String((error as Error).message)).toContain('R11Strict');
    expect(c.getState().entities).toBe(before.entities);
    expect(c.getState().entities.R11Strict).toBeUndefined();
  });
});

describe('keys', () => {
  it('the table is named by static key, else by the class name', () => {
    class Plain extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
    }
    expect(Plain.key).toBe('Plain');
    expect(Seat.key).toBe('R11Seat');
    const c = make();
    c.setResponse(new RestEndpoint({ urlPrefix: API, path: '/plain', schema: [Plain] }), {}, [{ id: 1 }]);
    expect(c.getState().entities.Plain?.['1']).toEqual({ id: 1 });
  });
});

describe('nested schemas and deserializers', () => {
  it('stores nested entities in their tables as references and keeps raw JSON values', () => {
    const c = make();
    c.setResponse(getBook, { id: 1 }, bookJson(1) as never);
    const { entities } = c.getState();
    expect(entities.R11Book?.['1']).toMatchObject({
      author: '7',
      tags: ['a', 'b'],
      extra: { editor: '8', note: 'n' },
      price: '12.50',
      pages: '300',
      due: '2024-05-01T00:00:00.000Z',
    });
    expect(entities.R11Author?.['7']).toEqual({ id: 7, name: 'Ann' });
    expect(entities.R11Author?.['8']).toEqual({ id: 8, name: 'Ed' });
    expect(Object.keys(entities.R11Tag ?? {}).sort()).toEqual(['a', 'b']);
  });

  it('reads instances with deserialized fields; a class that cannot be called is built with new', () => {
    const c = make();
    c.setResponse(getBook, { id: 1 }, bookJson(1) as never);
    const book = c.getResponse(getBook, { id: 1 }).data!;
    expect(book).toBeInstanceOf(Book);
    expect(book.author).toBeInstanceOf(Author);
    expect(book.author.name).toBe('Ann');
    expect(book.tags.map((t) => t).every((t) => t instanceof Tag)).toBe(true);
    expect(book.extra.editor).toBeInstanceOf(Author);
    expect(book.price).toBeInstanceOf(Money);
    expect(book.price.text).toBe('12.50');
    expect(book.pages).toBe(300);
    expect(book.due).toBeInstanceOf(Date);
    expect(book.due?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
  });

  it('null and undefined skip the deserializer; a missing field takes the class default', () => {
    const c = make();
    const { price: _p, pages: _g, ...rest } = bookJson(2);
    c.setResponse(getBook, { id: 2 }, { ...rest, due: null } as never);
    const book = c.getResponse(getBook, { id: 2 }).data!;
    expect(book.due).toBeNull();
    expect(book.pages).toBe(0);
    expect(book.price).toBeInstanceOf(Money);
    expect(book.price.text).toBe('0');
  });

  it('a nested entity given as its pk is stored as that reference and read from its table', () => {
    const c = make();
    c.setResponse(getBook, { id: 1 }, bookJson(1) as never);
    c.setResponse(getBook, { id: 3 }, bookJson(3, { author: 7, tags: ['a'] }) as never);
    expect(c.getState().entities.R11Book?.['3']).toMatchObject({ author: '7', tags: ['a'] });
    const three = c.getResponse(getBook, { id: 3 }).data!;
    expect(three.author.name).toBe('Ann');
    expect(three.tags[0]?.slug).toBe('a');
  });

  it('a required nested entity (default Author.fromJS()) that is missing makes the result unusable', () => {
    const c = make();
    c.setResponse(getBook, { id: 4 }, bookJson(4, { author: 99 }) as never);
    const read = c.getResponse(getBook, { id: 4 });
    expect(read.data).toBeUndefined();
  });
});

describe('defaults and fromJS', () => {
  it('defaults hold the class defaults; fromJS applies props over them without deserializing', () => {
    expect(Book.defaults.title).toBe('');
    expect(Book.defaults.pages).toBe(0);
    const draft = Book.fromJS({ id: 5, title: 'Draft', pages: '12' });
    expect(draft).toBeInstanceOf(Book);
    expect(draft.title).toBe('Draft');
    expect(draft.pages).toBe('12');
    expect(draft.pk()).toBe('5');
    expect(draft.author).toBeInstanceOf(Author);
  });

  it('fromJS gives each draft its own default arrays and objects', () => {
    const a = Book.fromJS();
    const b = Book.fromJS();
    expect(a.tags).not.toBe(b.tags);
    a.tags.push(Tag.fromJS({ slug: 'x' }));
    expect(b.tags).toHaveLength(0);
    expect(Book.defaults.tags).toHaveLength(0);
  });

  it('Entity.pk(value) computes the pk of a plain value as a string', () => {
    expect(Seat.pk({ row: 'Z', num: 9 })).toBe('Z-9');
    expect(Author.pk({ id: 12 })).toBe('12');
  });
});

describe('process', () => {
  it('sees the input, the parent, the key and the args; may add a field taken from the args', () => {
    const calls: unknown[][] = [];
    class Note extends Entity {
      id = '';
      owner = '';
      text = '';
      pk() {
        return this.id;
      }
      static override key = 'R11Note';
      static override process(input: unknown, parent: unknown, key: string | undefined, args: readonly unknown[]) {
        calls.push([input, parent, key, args]);
        const owner = (args[0] as { owner?: string } | undefined)?.owner ?? '';
        return { ...(input as Record<string, unknown>), owner };
      }
    }
    const notes = new RestEndpoint({
      urlPrefix: API,
      path: '/notes',
      searchParams: {} as { owner: string },
      schema: { items: [Note] },
    });
    const c = make();
    const response = { items: [{ id: 'n1', text: 'hi' }] };
    c.setResponse(notes, { owner: 'ann' }, response);
    expect(c.getState().entities.R11Note?.n1).toEqual({ id: 'n1', text: 'hi', owner: 'ann' });
    expect(calls).toHaveLength(1);
    expect(calls[0]![1]).toEqual(response);
    expect(calls[0]![2]).toBe('items');
    expect(calls[0]![3]).toEqual([{ owner: 'ann' }]);
    expect(response.items[0]).toEqual({ id: 'n1', text: 'hi' });
  });
});

describe('merge, shouldUpdate, shouldReorder', () => {
  it('merge combines the stored record with the incoming one', () => {
    class Counter extends Entity {
      id = 0;
      seen: string[] = [];
      pk() {
        return `${this.id}`;
      }
      static override key = 'R11Counter';
      static override merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
        return {
          ...existing,
          ...incoming,
          seen: [...((existing.seen as string[]) ?? []), ...((incoming.seen as string[]) ?? [])],
        };
      }
    }
    const ep = new RestEndpoint({ urlPrefix: API, path: '/counters/:id', schema: Counter });
    const c = make();
    c.setResponse(ep, { id: 1 }, { id: 1, seen: ['a'] });
    c.setResponse(ep, { id: 1 }, { id: 1, seen: ['b'] });
    expect(c.getResponse(ep, { id: 1 }).data?.seen).toEqual(['a', 'b']);
  });

  it('the default merge is a shallow spread: fields the incoming value lacks keep their stored values', () => {
    const c = make();
    c.setResponse(getBook, { id: 1 }, bookJson(1) as never);
    c.set(Book, { id: 1, title: 'Renamed' });
    const book = c.getResponse(getBook, { id: 1 }).data!;
    expect(book.title).toBe('Renamed');
    expect(book.author.name).toBe('Ann');
    expect(book.pages).toBe(300);
  });

  it('shouldUpdate returning false keeps the stored record', () => {
    class Frozen extends Entity {
      id = 0;
      v = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'R11Frozen';
      static override shouldUpdate(
        _em: { date: number; fetchedAt: number },
        _im: { date: number; fetchedAt: number },
        existing: Readonly<Record<string, unknown>>,
        incoming: Readonly<Record<string, unknown>>,
      ) {
        return (incoming.v as number) > (existing.v as number);
      }
    }
    const ep = new RestEndpoint({ urlPrefix: API, path: '/frozen/:id', schema: Frozen });
    const c = make();
    c.setResponse(ep, { id: 1 }, { id: 1, v: 5 });
    c.setResponse(ep, { id: 1 }, { id: 1, v: 3 });
    expect(c.getState().entities.R11Frozen?.['1']).toEqual({ id: 1, v: 5 });
    c.setResponse(ep, { id: 1 }, { id: 1, v: 6 });
    expect(c.getState().entities.R11Frozen?.['1']).toEqual({ id: 1, v: 6 });
  });

  it('shouldReorder returning true makes the stored value the newer one', () => {
    class Versioned extends Entity {
      id = 0;
      version = 0;
      title = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'R11Versioned';
      static override shouldReorder(
        _em: { date: number; fetchedAt: number },
        _im: { date: number; fetchedAt: number },
        existing: Readonly<Record<string, unknown>>,
        incoming: Readonly<Record<string, unknown>>,
      ) {
        return (incoming.version as number) < (existing.version as number);
      }
    }
    const ep = new RestEndpoint({ urlPrefix: API, path: '/versioned/:id', schema: Versioned });
    const c = make();
    c.setResponse(ep, { id: 1 }, { id: 1, version: 2, title: 'two' });
    c.setResponse(ep, { id: 1 }, { id: 1, version: 1, title: 'one' });
    expect(c.getState().entities.R11Versioned?.['1']).toMatchObject({ version: 2, title: 'two' });
  });
});

describe('validate', () => {
  class Priced extends Entity {
    id = 0;
    price = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'R11Priced';
    static override validate(processed: Readonly<Record<string, unknown>>) {
      return typeof processed.price === 'number' && processed.price >= 0 ? undefined : 'price must be >= 0';
    }
  }
  const list = new RestEndpoint({ urlPrefix: API, path: '/priced', schema: [Priced] });

  it('a message rejects the whole response with a NormalizeError, and nothing of it is written', () => {
    const c = make();
    c.setResponse(list, {}, [{ id: 1, price: 1 }]);
    const before = c.getState();
    expect(() =>
      c.setResponse(list, {}, [
        { id: 1, price: 2 },
        { id: 2, price: -1 },
      ]),
    ).toThrow(NormalizeError);
    expect(() => c.setResponse(list, {}, [{ id: 3, price: -1 }])).toThrow(/price must be >= 0/);
    expect(c.getState().entities).toBe(before.entities);
    expect(c.getState().endpoints).toBe(before.endpoints);
    expect(c.getResponse(list, {}).data?.map((p) => p.price)).toEqual([1]);
  });

  it('a stored record that fails (restored from a state) reads as unusable', () => {
    const one = new RestEndpoint({ urlPrefix: API, path: '/priced/:id', schema: Priced });
    const c = make();
    c.setResponse(list, {}, [
      { id: 1, price: 1 },
      { id: 2, price: 2 },
    ]);
    c.setResponse(one, { id: 1 }, { id: 1, price: 1 });
    const state = JSON.parse(JSON.stringify(c.getState()));
    state.entities.R11Priced['1'].price = -5;
    const d = make({ initialState: state });
    expect(d.getResponse(list, {}).data?.map((p) => p.id)).toEqual([2]);
    expect(d.getResponse(one, { id: 1 }).data).toBeUndefined();
    expect(d.get(Priced, { id: 1 })).toBeUndefined();
  });
});

describe('schema.Object and schema.Array', () => {
  it('members that are not schemas pass through; schema.Array accepts an object (its values); null items are kept', () => {
    const page = new RestEndpoint({
      urlPrefix: API,
      path: '/page',
      schema: new schema.Object({ results: new schema.Array(Author), total: 0 }),
    });
    const c = make();
    c.setResponse(page, {}, {
      results: { x: { id: 1, name: 'a' }, y: { id: 2, name: 'b' } },
      total: 2,
      cursor: 'z',
    } as never);
    const data = c.getResponse(page, {}).data as unknown as { results: Author[]; total: number; cursor: string };
    expect(data.total).toBe(2);
    expect(data.cursor).toBe('z');
    expect(data.results.map((a) => a.name)).toEqual(['a', 'b']);
    const nulls = new RestEndpoint({ urlPrefix: API, path: '/nulls', schema: [Author] });
    c.setResponse(nulls, {}, [{ id: 1, name: 'a' }, null] as never);
    expect(c.getResponse(nulls, {}).data).toEqual([expect.any(Author), null]);
  });
});
