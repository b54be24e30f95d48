/**
 * An outside review of optimistic updates and ordering (API.md: "a failed mutation rolls back exactly its own
 * optimistic layer"; "responses to older requests never overwrite newer data"), each request answered when the
 * test says so.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Controller, Entity, createResource, type QueryState } from '../../core/index.js';
import { record } from '../fixtures/streams.js';

const API = 'http://races.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

class Note extends Entity {
  id = 0;
  title = '';
  done = false;
  tags: string[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'RaceNote';
}
const NoteResource = createResource({ urlPrefix: API, path: '/notes/:id', schema: Note, optimistic: true });

/** Requests wait here until the test answers them: `answer(i, response)`. */
function gate() {
  const waiting: { method: string; body: unknown; resolve: (r: Response) => void }[] = [];
  const handler = async ({ request }: { request: Request }) => {
    const body = request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.json();
    return new Promise<Response>((resolve) => waiting.push({ method: request.method, body, resolve }));
  };
  server.use(http.all(`${API}/*`, handler));
  return {
    waiting,
    answer(i: number, response: Response) {
      waiting[i]!.resolve(response);
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setImmediate(r));
  expect(check()).toBe(true);
};

let controllers: Controller[] = [];
afterEach(() => {
  for (const c of controllers) c.dispose();
  controllers = [];
});
function setup() {
  const c = new Controller({ retry: 0, environment: {} });
  controllers.push(c);
  c.setResponse(NoteResource.getList, {}, [
    { id: 1, title: 'one', done: false, tags: [] },
    { id: 2, title: 'two', done: false, tags: [] },
  ]);
  return c;
}
const titles = (c: Controller) =>
  c.getResponse(NoteResource.getList, {}).data?.map((n) => `${n.id}:${n.title}:${n.done}`);

describe('two optimistic mutations of one record', () => {
  it('the first fails after the second succeeded: the second server answer stays', async () => {
    const c = setup();
    const g = gate();
    const first = c.fetch(NoteResource.partialUpdate, { id: 1 }, { title: 'A' }).catch((e: unknown) => e);
    const second = c.fetch(NoteResource.partialUpdate, { id: 1 }, { done: true });
    expect(titles(c)).toEqual(['1:A:true', '2:two:false']);
    await until(() => g.waiting.length === 2);
    g.answer(1, HttpResponse.json({ id: 1, title: 'one', done: true, tags: [] }));
    await second;
    g.answer(0, HttpResponse.json({ message: 'no' }, { status: 500 }));
    expect(((await first) as Error).name).toBe('NetworkError');
    await flush();
    expect(titles(c)).toEqual(['1:one:true', '2:two:false']);
    expect(c.getState().optimistic).toEqual([]);
  });

  it('the second fails while the first is pending: only the second guess goes, then the first answer shows', async () => {
    const c = setup();
    const g = gate();
    const first = c.fetch(NoteResource.partialUpdate, { id: 1 }, { title: 'A' });
    const second = c.fetch(NoteResource.partialUpdate, { id: 1 }, { done: true }).catch((e: unknown) => e);
    await until(() => g.waiting.length === 2);
    g.answer(1, HttpResponse.json({ message: 'no' }, { status: 400 }));
    await second;
    expect(titles(c)).toEqual(['1:A:false', '2:two:false']);
    g.answer(0, HttpResponse.json({ id: 1, title: 'A', done: false, tags: [] }));
    await first;
    await flush();
    expect(titles(c)).toEqual(['1:A:false', '2:two:false']);
    expect(c.getState().optimistic).toEqual([]);
  });

  it('an optimistic delete that fails brings the item back in its place, after an update that succeeded meanwhile', async () => {
    const c = setup();
    const g = gate();
    const del = c.fetch(NoteResource.delete, { id: 1 }).catch((e: unknown) => e);
    expect(titles(c)).toEqual(['2:two:false']);
    const upd = c.fetch(NoteResource.partialUpdate, { id: 2 }, { title: 'TWO' });
    await until(() => g.waiting.length === 2);
    g.answer(1, HttpResponse.json({ id: 2, title: 'TWO', done: false, tags: [] }));
    await upd;
    g.answer(0, HttpResponse.json({ message: 'locked' }, { status: 409 }));
    expect(((await del) as { status: number }).status).toBe(409);
    await flush();
    expect(titles(c)).toEqual(['1:one:false', '2:TWO:false']);
  });

  it('a reset while an optimistic push is pending: the guess goes with the reset and the late answer is not written', async () => {
    const c = setup();
    const g = gate();
    const push = c.fetch(NoteResource.getList.push, {}, { title: 'three' }).catch((e: unknown) => e);
    await until(() => g.waiting.length === 1);
    c.resetEntireStore();
    expect(c.getState().optimistic).toEqual([]);
    g.answer(0, HttpResponse.json({ id: 3, title: 'three', done: false, tags: [] }, { status: 201 }));
    await push;
    await flush();
    expect(c.getState().entities.RaceNote).toBeUndefined();
    expect(c.getResponse(NoteResource.getList, {}).data).toBeUndefined();
  });

  it('an observer sees the guess, then the rollback, each emission once, with the untouched sibling the same instance', async () => {
    const c = setup();
    const g = gate();
    const seen = record<QueryState<Note[]>>(c.observe(NoteResource.getList, {}));
    const before = seen.last().data!;
    const done = c.fetch(NoteResource.partialUpdate, { id: 1 }, { tags: ['x'] }).catch((e: unknown) => e);
    expect(seen.last().data![0]!.tags).toEqual(['x']);
    expect(seen.last().data![1]).toBe(before[1]);
    await until(() => g.waiting.length === 1);
    g.answer(0, HttpResponse.json({ message: 'no' }, { status: 422 }));
    await done;
    await flush();
    expect(seen.last().data![0]!.tags).toEqual([]);
    expect(seen.last().data![1]).toBe(before[1]);
    expect(seen.last().data![0]).toBe(before[0]);
  });
});

describe('out-of-order answers', () => {
  it('a refetch answered after a later update does not put the old value back', async () => {
    const c = setup();
    const g = gate();
    const refresh = c.fetch(NoteResource.get, { id: 1 });
    await until(() => g.waiting.length === 1);
    const upd = c.fetch(NoteResource.partialUpdate, { id: 1 }, { title: 'new' });
    await until(() => g.waiting.length === 2);
    g.answer(1, HttpResponse.json({ id: 1, title: 'new', done: false, tags: [] }));
    await upd;
    g.answer(0, HttpResponse.json({ id: 1, title: 'one', done: false, tags: [] }));
    await refresh;
    await flush();
    expect(c.get(Note, { id: 1 })?.title).toBe('new');
  });

  it('a list answer older than a set([Entity]) batch keeps the batch rows', async () => {
    const c = setup();
    const g = gate();
    const refresh = c.fetch(NoteResource.getList, {});
    await until(() => g.waiting.length === 1);
    c.set([Note], [{ id: 2, title: 'batched' }]);
    g.answer(
      0,
      HttpResponse.json([
        { id: 1, title: 'one', done: false, tags: [] },
        { id: 2, title: 'two', done: false, tags: [] },
      ]),
    );
    await refresh;
    await flush();
    expect(titles(c)).toEqual(['1:one:false', '2:batched:false']);
  });
});

describe('resets and later mutations', () => {
  it('a mutation from before a reset that fails afterwards does not roll back a newer optimistic mutation', async () => {
    const c = setup();
    const g = gate();
    const old = c.fetch(NoteResource.partialUpdate, { id: 1 }, { title: 'old' }).catch((e: unknown) => e);
    await until(() => g.waiting.length === 1);
    c.resetEntireStore();
    c.setResponse(NoteResource.getList, {}, [{ id: 1, title: 'fresh', done: false, tags: [] }]);
    const next = c.fetch(NoteResource.partialUpdate, { id: 1 }, { done: true });
    await until(() => g.waiting.length === 2);
    expect(titles(c)).toEqual(['1:fresh:true']);
    g.answer(0, HttpResponse.json({ message: 'no' }, { status: 500 }));
    await old;
    await flush();
    expect(titles(c)).toEqual(['1:fresh:true']);
    g.answer(1, HttpResponse.json({ id: 1, title: 'fresh', done: true, tags: [] }));
    await next;
    await flush();
    expect(titles(c)).toEqual(['1:fresh:true']);
    expect(c.getState().optimistic).toEqual([]);
  });

  it('a mutation from before a reset that succeeds afterwards writes nothing over the newer data', async () => {
    const c = setup();
    const g = gate();
    const old = c.fetch(NoteResource.partialUpdate, { id: 1 }, { title: 'old' }).catch((e: unknown) => e);
    await until(() => g.waiting.length === 1);
    c.resetEntireStore();
    c.setResponse(NoteResource.getList, {}, [{ id: 1, title: 'fresh', done: false, tags: [] }]);
    g.answer(0, HttpResponse.json({ id: 1, title: 'old', done: false, tags: [] }));
    await old;
    await flush();
    expect(titles(c)).toEqual(['1:fresh:false']);
  });

  it('an optimistic push that fails leaves the list as it was, while another push succeeded meanwhile', async () => {
    const c = setup();
    const g = gate();
    const seen = record<QueryState<Note[]>>(c.observe(NoteResource.getList, {}));
    const a = c.fetch(NoteResource.getList.push, {}, { title: 'A' }).catch((e: unknown) => e);
    const b = c.fetch(NoteResource.getList.unshift, {}, { title: 'B' });
    await until(() => g.waiting.length === 2);
    g.answer(1, HttpResponse.json({ id: 11, title: 'B', done: false, tags: [] }, { status: 201 }));
    await b;
    g.answer(0, HttpResponse.json({ message: 'no' }, { status: 500 }));
    await a;
    await flush();
    expect(titles(c)).toEqual(['11:B:false', '1:one:false', '2:two:false']);
    expect(seen.last().data!.map((n) => n.id)).toEqual([11, 1, 2]);
    expect(c.getState().optimistic).toEqual([]);
  });
});
