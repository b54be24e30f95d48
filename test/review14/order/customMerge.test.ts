/**
 * Entities with their own `merge`, `shouldUpdate` or `shouldReorder` (Data Client's names and behaviour, API.md's
 * parity section) under optimistic updates: a layer is written through the class's own rules, a failed mutation
 * takes back exactly its own layer (the stored record, and the object observers show, are the ones before it), a
 * response to an older request is merged as the class decides. Such records are ordered as whole records (the
 * class decides how two writes meet, so no field of it is stamped on its own).
 */
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import { API, flush, outcome, useLiveServer } from '../../review12/live/harness.js';

const live = useLiveServer();

/** Tags merge as a set (a response adds to them, never drops one the store holds). */
class Note extends Entity {
  id = 0;
  title = '';
  tags: string[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'Note';
  static override merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
    const tags = [...new Set([...((existing.tags as string[]) ?? []), ...((incoming.tags as string[]) ?? [])])];
    return { ...existing, ...incoming, tags };
  }
}

/** A record with a server version: an answer holding an older version than the stored one is ignored. */
class Doc extends Entity {
  id = 0;
  title = '';
  version = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Doc';
  static override shouldUpdate(
    _existingMeta: { date: number; fetchedAt: number },
    _incomingMeta: { date: number; fetchedAt: number },
    existing: Readonly<Record<string, unknown>>,
    incoming: Readonly<Record<string, unknown>>,
  ) {
    return !((incoming.version as number) < (existing.version as number));
  }
}

/** Ordered by the server's `updatedAt`, not by when the request started. */
class Post extends Entity {
  id = 0;
  title = '';
  updatedAt = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Post';
  static override shouldReorder(
    _existingMeta: { date: number; fetchedAt: number },
    _incomingMeta: { date: number; fetchedAt: number },
    existing: Readonly<Record<string, unknown>>,
    incoming: Readonly<Record<string, unknown>>,
  ) {
    return (incoming.updatedAt as number) < (existing.updatedAt as number);
  }
}

const get = <E extends typeof Note | typeof Doc | typeof Post>(schema: E, path: string) =>
  new RestEndpoint({ urlPrefix: API, path: `${path}/:id`, schema: schema as typeof Note }) as unknown as RestEndpoint<
    '/:id',
    E
  >;
const patch = <E extends typeof Note | typeof Doc | typeof Post>(schema: E, path: string) =>
  new RestEndpoint({
    urlPrefix: API,
    path: `${path}/:id`,
    method: 'PATCH',
    schema: schema as typeof Note,
    optimistic: true,
    body: {} as Record<string, unknown>,
  }) as unknown as RestEndpoint<'/:id', E, 'PATCH', undefined, Record<string, unknown>>;
const notes = { get: get(Note, '/notes'), patch: patch(Note, '/notes') };
const docs = { get: get(Doc, '/docs'), patch: patch(Doc, '/docs') };
const posts = { get: get(Post, '/posts'), patch: patch(Post, '/posts') };

/** Every request to /notes, /docs and /posts waits here until the test answers it. */
const waiting: { method: string; answer: (body: unknown, status?: number) => void }[] = [];
beforeEach(() => {
  waiting.length = 0;
  const held = ({ request }: { request: Request }) =>
    new Promise<Response>((resolve) => {
      waiting.push({
        method: request.method,
        answer: (body, status = 200) => resolve(HttpResponse.json(body as never, { status })),
      });
    });
  live.server.use(
    http.all(`${API}/notes/:id`, held),
    http.all(`${API}/docs/:id`, held),
    http.all(`${API}/posts/:id`, held),
  );
});

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await flush(1);
  expect(ready()).toBe(true);
}

/** A controller holding `value` as the answer to `get({ id: 1 })`. */
async function holding(get: { readonly key: (args: { id: number }) => string }, value: unknown): Promise<Controller> {
  const c = new Controller({ retry: 0 });
  const loading = c.fetch(get as typeof notes.get, { id: 1 });
  await until(() => waiting.length === 1);
  waiting.shift()!.answer(value);
  await loading;
  return c;
}

const table = (c: Controller, key: string) => c.getState().entities[key]?.['1'];

describe('a custom merge under optimistic updates', () => {
  it('the layer merges as the class does; a failure restores the record and the object observers showed', async () => {
    const c = await holding(notes.get, { id: 1, title: 'a', tags: ['x'] });
    const before = table(c, 'Note');
    const one = record(c.observe(notes.get, { id: 1 }));
    const shown = one.last().data;
    const update = outcome(c.fetch(notes.patch, { id: 1 }, { tags: ['y'] }));
    expect(one.last().data).toMatchObject({ title: 'a', tags: ['x', 'y'] });
    await until(() => waiting.length === 1);
    waiting[0]!.answer({ message: 'no' }, 422);
    await settled(() => expect(update.done).toBe(true));
    expect(update.error).toMatchObject({ name: 'NetworkError', status: 422 });
    expect(table(c, 'Note')).toBe(before);
    expect(one.last().data).toBe(shown);
    expect(c.getState().optimistic).toEqual([]);
    one.unsubscribe();
    c.dispose();
  });

  it('two overlapping updates, the first fails: only its tag goes; the second’s answer merges into the record', async () => {
    const c = await holding(notes.get, { id: 1, title: 'a', tags: ['x'] });
    const first = outcome(c.fetch(notes.patch, { id: 1 }, { tags: ['first'] }));
    const second = outcome(c.fetch(notes.patch, { id: 1 }, { title: 'b', tags: ['second'] }));
    expect(c.get(Note, { id: 1 })).toMatchObject({ title: 'b', tags: ['x', 'first', 'second'] });
    await until(() => waiting.length === 2);
    waiting[0]!.answer({ message: 'no' }, 500);
    await settled(() => expect(first.done).toBe(true));
    expect(c.get(Note, { id: 1 })).toMatchObject({ title: 'b', tags: ['x', 'second'] });
    waiting[1]!.answer({ id: 1, title: 'b', tags: ['second'] });
    await settled(() => expect(second.done).toBe(true));
    expect(table(c, 'Note')).toEqual({ id: 1, title: 'b', tags: ['x', 'second'] });
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });

  it('an answer to an older request (a GET sent before the update) merges under the newer record', async () => {
    const c = await holding(notes.get, { id: 1, title: 'a', tags: ['x'] });
    const get = outcome(c.fetch(notes.get, { id: 1 }));
    await until(() => waiting.length === 1);
    const update = outcome(c.fetch(notes.patch, { id: 1 }, { title: 'b', tags: ['y'] }));
    await until(() => waiting.length === 2);
    waiting[1]!.answer({ id: 1, title: 'b', tags: ['x', 'y'] });
    await settled(() => expect(update.done).toBe(true));
    waiting[0]!.answer({ id: 1, title: 'old', tags: ['z'] });
    await settled(() => expect(get.done).toBe(true));
    // the class's merge with the newer record on top: the title stays, the older answer's tag joins
    expect(table(c, 'Note')).toEqual({ id: 1, title: 'b', tags: ['z', 'x', 'y'] });
    c.dispose();
  });
});

describe('a custom merge and a controller.set of another field while an optimistic update is in flight', () => {
  it('the optimistic title stays shown over the set; the answer lands the title, the set keeps its tags', async () => {
    const c = await holding(notes.get, { id: 1, title: 'a', tags: ['x'] });
    const update = outcome(c.fetch(notes.patch, { id: 1 }, { title: 'b' }));
    await until(() => waiting.length === 1);
    c.set(Note, { id: 1 }, { id: 1, tags: ['local'] });
    expect(c.get(Note, { id: 1 })).toMatchObject({ title: 'b', tags: ['x', 'local'] });
    waiting[0]!.answer({ id: 1, title: 'b', tags: ['x'] });
    await settled(() => expect(update.done).toBe(true));
    expect(table(c, 'Note')).toEqual({ id: 1, title: 'b', tags: ['x', 'local'] });
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });

  it('the update fails: the old title and the set’s tags', async () => {
    const c = await holding(notes.get, { id: 1, title: 'a', tags: ['x'] });
    const update = outcome(c.fetch(notes.patch, { id: 1 }, { title: 'b' }));
    await until(() => waiting.length === 1);
    c.set(Note, { id: 1 }, { id: 1, tags: ['local'] });
    waiting[0]!.answer({ message: 'no' }, 500);
    await settled(() => expect(update.done).toBe(true));
    expect(table(c, 'Note')).toEqual({ id: 1, title: 'a', tags: ['x', 'local'] });
    expect(c.get(Note, { id: 1 })).toMatchObject({ title: 'a', tags: ['x', 'local'] });
    c.dispose();
  });

  it('a set of a field a GET in flight also answers: the set’s value stays, the class’s merge fills the rest', async () => {
    const c = await holding(notes.get, { id: 1, title: 'a', tags: ['x'] });
    const get = outcome(c.fetch(notes.get, { id: 1 }));
    await until(() => waiting.length === 1);
    c.set(Note, { id: 1 }, { id: 1, title: 'local' });
    waiting[0]!.answer({ id: 1, title: 'server', tags: ['y'] });
    await settled(() => expect(get.done).toBe(true));
    expect(table(c, 'Note')).toEqual({ id: 1, title: 'local', tags: ['x', 'y'] });
    c.dispose();
  });
});

describe('shouldUpdate (a version guard) under optimistic updates', () => {
  it('an optimistic body without a version shows; the answer with the next version lands', async () => {
    const c = await holding(docs.get, { id: 1, title: 'a', version: 3 });
    const update = outcome(c.fetch(docs.patch, { id: 1 }, { title: 'b' }));
    expect(c.get(Doc, { id: 1 })).toMatchObject({ title: 'b', version: 3 });
    await until(() => waiting.length === 1);
    waiting[0]!.answer({ id: 1, title: 'b', version: 4 });
    await settled(() => expect(update.done).toBe(true));
    expect(table(c, 'Doc')).toEqual({ id: 1, title: 'b', version: 4 });
    c.dispose();
  });

  it('a refetch answered with an older version after the update is ignored; a failed update rolls back exactly', async () => {
    const c = await holding(docs.get, { id: 1, title: 'a', version: 3 });
    const update = outcome(c.fetch(docs.patch, { id: 1 }, { title: 'b', version: 4 }));
    await until(() => waiting.length === 1);
    waiting[0]!.answer({ id: 1, title: 'b', version: 4 });
    await settled(() => expect(update.done).toBe(true));
    const refetch = outcome(c.fetch(docs.get, { id: 1 }));
    await until(() => waiting.length === 2);
    waiting[1]!.answer({ id: 1, title: 'stale replica', version: 3 });
    await settled(() => expect(refetch.done).toBe(true));
    expect(table(c, 'Doc')).toEqual({ id: 1, title: 'b', version: 4 });
    const before = table(c, 'Doc');
    const failing = outcome(c.fetch(docs.patch, { id: 1 }, { title: 'c', version: 5 }));
    expect(c.get(Doc, { id: 1 })).toMatchObject({ title: 'c', version: 5 });
    await until(() => waiting.length === 3);
    waiting[2]!.answer({ message: 'conflict' }, 409);
    await settled(() => expect(failing.done).toBe(true));
    expect(table(c, 'Doc')).toBe(before);
    expect(c.get(Doc, { id: 1 })).toMatchObject({ title: 'b', version: 4 });
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });
});

describe('shouldReorder (by the server’s updatedAt) under optimistic updates', () => {
  it('the answer of the older request carries the later updatedAt: it wins over the newer one’s', async () => {
    const c = await holding(posts.get, { id: 1, title: 'a', updatedAt: 10 });
    const first = outcome(c.fetch(posts.patch, { id: 1 }, { title: 'first' }));
    const second = outcome(c.fetch(posts.patch, { id: 1 }, { title: 'second' }));
    expect(c.get(Post, { id: 1 })?.title).toBe('second');
    await until(() => waiting.length === 2);
    // the server applied the second before the first: the first's answer is the newer state
    waiting[1]!.answer({ id: 1, title: 'second', updatedAt: 11 });
    await settled(() => expect(second.done).toBe(true));
    waiting[0]!.answer({ id: 1, title: 'first', updatedAt: 12 });
    await settled(() => expect(first.done).toBe(true));
    expect(table(c, 'Post')).toEqual({ id: 1, title: 'first', updatedAt: 12 });
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });

  it('a failed update under a pending one: only its layer goes, the record is the one before both', async () => {
    const c = await holding(posts.get, { id: 1, title: 'a', updatedAt: 10 });
    const before = table(c, 'Post');
    const first = outcome(c.fetch(posts.patch, { id: 1 }, { title: 'first' }));
    const second = outcome(c.fetch(posts.patch, { id: 1 }, { title: 'second' }));
    await until(() => waiting.length === 2);
    waiting[1]!.answer({ message: 'no' }, 400);
    await settled(() => expect(second.done).toBe(true));
    expect(c.get(Post, { id: 1 })?.title).toBe('first');
    expect(table(c, 'Post')).toBe(before);
    waiting[0]!.answer({ message: 'no' }, 400);
    await settled(() => expect(first.done).toBe(true));
    expect(c.get(Post, { id: 1 })?.title).toBe('a');
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });
});
