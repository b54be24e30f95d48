/**
 * A failed optimistic write gives back the very objects shown before its layer (data-client's memo does):
 * the rolled-back record, every entity that only holds it, and every list whose members are all as before.
 * Memoized components then see no change at all.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Entity, RestEndpoint, createResource } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';
import { record } from '../../fixtures/streams.js';

const API = 'http://r12r.test';
const { make } = useControllers({ retry: 0, environment: {} });

class Writer extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'R12Writer';
}
class Doc extends Entity {
  id = 0;
  title = '';
  writer: Writer | undefined = undefined;
  pk() {
    return `${this.id}`;
  }
  static override key = 'R12Doc';
  static override schema = { writer: Writer };
}
class Shelf extends Entity {
  id = 0;
  docs: Doc[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'R12Shelf';
  static override schema = { docs: [Doc] };
}

const Writers = createResource({ urlPrefix: API, path: '/writers/:id', schema: Writer, optimistic: true });
const Docs = createResource({ urlPrefix: API, path: '/docs/:id', schema: Doc, optimistic: true });
const Shelves = createResource({ urlPrefix: API, path: '/shelves/:id', schema: Shelf });

/** A plain list endpoint (no Collection): its result is a list of pks read through the stable values by input. */
const docsByWriter = new RestEndpoint({ urlPrefix: API, path: '/writers/:id/docs', schema: [Doc] });

let answer: () => Response = () => HttpResponse.json({ message: 'no' }, { status: 500 });
const server = setupServer(
  http.patch(`${API}/writers/:id`, () => answer()),
  http.put(`${API}/docs/:id`, () => answer()),
  http.patch(`${API}/docs/:id`, () => answer()),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  answer = () => HttpResponse.json({ message: 'no' }, { status: 500 });
});
afterAll(() => server.close());

const doc = (id: number, writer = 1) => ({ id, title: `doc ${id}`, writer: { id: writer, name: `w${writer}` } });

function seeded() {
  const c = make();
  c.setResponse(Docs.getList, {}, [doc(1), doc(2), doc(3, 2)]);
  c.setResponse(Shelves.get, { id: 1 }, { id: 1, docs: [doc(1), doc(2), doc(3, 2)] });
  c.setResponse(Docs.get, { id: 2 }, doc(2)); // its own result: fresh, no request
  c.setResponse(docsByWriter, { id: 1 }, [doc(1), doc(2)]);
  const list = record(c.observe(Docs.getList, {}));
  const one = record(c.observe(Docs.get, { id: 2 }));
  const shelf = record(c.observe(Shelves.get, { id: 1 }));
  return { c, list, one, shelf };
}

const fail = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('a rolled-back optimistic write gives back the objects shown before it', () => {
  it('a nested entity changed alone: its holders, their lists and the entity holding the list are the same objects', async () => {
    const { c, list, one, shelf } = seeded();
    const before = { list: list.last().data!, one: one.last().data!, shelf: shelf.last().data! };
    const counts = { list: list.values.length, one: one.values.length, shelf: shelf.values.length };
    const done = fail(c.fetch(Writers.partialUpdate, { id: 1 }, { name: 'guess' }));
    // the guess shows at once in every holder
    expect(one.last().data!.writer!.name).toBe('guess');
    expect(list.last().data![0]!.writer!.name).toBe('guess');
    expect(shelf.last().data!.docs[1]!.writer!.name).toBe('guess');
    expect(list.last().data![2]).toBe(before.list[2]); // a doc of another writer kept its object
    expect((await done)?.name).toBe('NetworkError');
    expect(one.last().data).toBe(before.one);
    expect(list.last().data).toBe(before.list);
    expect(shelf.last().data).toBe(before.shelf);
    expect(shelf.last().data!.docs).toBe(before.shelf.docs);
    // one emission for the guess and one for the rollback, which hands out the objects of before
    expect(one.values.length).toBe(counts.one + 2);
    expect(list.values.length).toBe(counts.list + 2);
    expect(one.values[counts.one - 1]!.data).toBe(one.values[counts.one + 1]!.data);
    list.unsubscribe();
    one.unsubscribe();
    shelf.unsubscribe();
  });

  it('a plain [Entity] list endpoint gives back its list too', async () => {
    const { c, list, one, shelf } = seeded();
    const plain = record(c.observe(docsByWriter, { id: 1 }));
    const before = plain.last().data!;
    const done = fail(c.fetch(Writers.partialUpdate, { id: 1 }, { name: 'guess' }));
    expect(plain.last().data![1]!.writer!.name).toBe('guess');
    await done;
    expect(plain.last().data).toBe(before);
    for (const stream of [plain, list, one, shelf]) stream.unsubscribe();
  });

  it('a record and its nested entity changed together (update with a body holding the writer)', async () => {
    const { c, list, one } = seeded();
    const before = { list: list.last().data!, one: one.last().data! };
    const done = fail(c.fetch(Docs.update, { id: 1 }, { id: 1, title: 'moved', writer: { id: 1, name: 'renamed' } }));
    expect(one.last().data!.writer!.name).toBe('renamed'); // doc 2 holds writer 1
    expect(list.last().data![0]!.title).toBe('moved');
    await done;
    expect(one.last().data).toBe(before.one);
    expect(list.last().data).toBe(before.list);
    list.unsubscribe();
    one.unsubscribe();
  });

  it('after a rollback, a real change still gives new objects (the old ones are not handed out for new data)', async () => {
    const { c, list, one } = seeded();
    const before = { list: list.last().data!, one: one.last().data! };
    await fail(c.fetch(Writers.partialUpdate, { id: 1 }, { name: 'guess' }));
    expect(one.last().data).toBe(before.one);
    c.set(Writer, { id: 1, name: 'real' });
    expect(one.last().data).not.toBe(before.one);
    expect(one.last().data!.writer!.name).toBe('real');
    expect(list.last().data).not.toBe(before.list);
    expect(list.last().data![2]).toBe(before.list[2]);
    // and back to what it was: the objects of that state again
    c.set(Writer, { id: 1, name: 'w1' });
    expect(one.last().data!.writer!.name).toBe('w1');
    list.unsubscribe();
    one.unsubscribe();
  });

  it('a successful optimistic write keeps the new objects', async () => {
    const { c, one } = seeded();
    const before = one.last().data!;
    answer = () => HttpResponse.json({ id: 1, name: 'guess' });
    await c.fetch(Writers.partialUpdate, { id: 1 }, { name: 'guess' });
    expect(one.last().data).not.toBe(before);
    expect(one.last().data!.writer!.name).toBe('guess');
    one.unsubscribe();
  });
});
