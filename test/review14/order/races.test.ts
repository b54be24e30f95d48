/**
 * Races of the request runner, each against a server whose requests the test holds and answers itself: overlapping
 * optimistic mutations of one key, deletes by other requests, marks and resets during a mutation, aborts, shared
 * GETs, `setResponse` against a refetch, and bodies the client cannot read. The rules (API.md, DESIGN.md): a failed
 * mutation rolls back exactly its own optimistic layer, a response to an older request never overwrites newer data,
 * every `fetch` resolves its own response, and errors are named.
 */
import { describe, expect, it } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import {
  API,
  Todo,
  TodoResource,
  flush,
  getCounter,
  increment,
  loadedThenHeld,
  outcome,
  shown,
  todo,
  until,
  useLiveServer,
} from '../../review12/live/harness.js';

const live = useLiveServer();
const make = () => new Controller({ retry: 0 });

/** A controller holding todos 1 and 2 ('todo 1', 'todo 2'), each's GET and the list of both; later requests are held. */
const loaded = () =>
  loadedThenHeld(live, [1, 2], async (c) => {
    await c.fetch(TodoResource.getList);
    await c.fetch(TodoResource.get, { id: 1 });
    await c.fetch(TodoResource.get, { id: 2 });
  });

const stored = (c: Controller, id = 1) => c.getState().entities['Todo']?.[`${id}`];

describe('the same optimistic mutation twice, answered out of order, one failing', () => {
  it('the later call answers first, the earlier fails: the store keeps the later answer, no layer is left', async () => {
    const c = await loaded();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    const first = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'first' }));
    const second = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'second' }));
    expect(one.last().data?.title).toBe('second');
    await until(() => live.held.length === 2);
    live.held[1]!.json(todo(1, 'second'));
    await settled(() => expect(second.done).toBe(true));
    // the first is still in flight: its layer is older than the answer that landed and shows nothing over it
    expect(one.last().data?.title).toBe('second');
    live.held[0]!.json({ message: 'conflict' }, 409);
    await settled(() => expect(first.done).toBe(true));
    expect(first.error).toMatchObject({ name: 'NetworkError', status: 409 });
    expect(second.value).toMatchObject({ title: 'second' });
    expect(c.getState().optimistic).toEqual([]);
    expect(stored(c)).toEqual(todo(1, 'second'));
    expect(one.last().data?.title).toBe('second');
    expect(one.last().error).toBeUndefined();
    one.unsubscribe();
    c.dispose();
  });

  it('identical calls (same body): the earlier fails after the later answered; the later answer stays', async () => {
    const c = await loaded();
    const first = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }));
    const second = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }));
    expect(live.held.length === 0 || live.held.length <= 2).toBe(true);
    await until(() => live.held.length === 2);
    live.held[1]!.json(todo(1, 'todo 1', true));
    await settled(() => expect(second.done).toBe(true));
    live.held[0]!.json({ message: 'down' }, 503);
    await settled(() => expect(first.done).toBe(true));
    expect(first.error).toMatchObject({ status: 503 });
    expect(c.getState().optimistic).toEqual([]);
    expect(stored(c)).toEqual(todo(1, 'todo 1', true));
    c.dispose();
  });

  it('the earlier answers first, the later fails: the earlier answer shows, the later layer alone goes', async () => {
    const c = await loaded();
    const first = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'first' }));
    const second = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }));
    await until(() => live.held.length === 2);
    live.held[0]!.json(todo(1, 'first'));
    await settled(() => expect(first.done).toBe(true));
    expect(shown(c)).toEqual({ title: 'first', completed: true });
    live.held[1]!.json({ message: 'nope' }, 422);
    await settled(() => expect(second.done).toBe(true));
    expect(shown(c)).toEqual({ title: 'first', completed: false });
    expect(stored(c)).toEqual(todo(1, 'first'));
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });
});

describe('the same increment twice (getOptimisticResponse from the snapshot), answered out of order', () => {
  it('the later answers first, the earlier fails: the later answer stays, no layer is left', async () => {
    live.counters.set(1, { id: 1, count: 10 });
    const c = make();
    await c.fetch(getCounter, { id: 1 });
    live.hold.on = true;
    const counter = record(c.observe(getCounter, { id: 1 }));
    const a = outcome(c.fetch(increment, { id: 1 }));
    const b = outcome(c.fetch(increment, { id: 1 }));
    expect(counter.last().data?.count).toBe(12);
    await until(() => live.held.length === 2);
    live.held[1]!.json({ id: 1, count: 11 });
    await settled(() => expect(b.done).toBe(true));
    live.held[0]!.json({ message: 'no' }, 500);
    await settled(() => expect(a.done).toBe(true));
    expect(a.error).toMatchObject({ name: 'NetworkError', status: 500 });
    expect(b.value).toMatchObject({ count: 11 });
    expect(counter.last().data?.count).toBe(11);
    expect(c.getState().optimistic).toEqual([]);
    counter.unsubscribe();
    c.dispose();
  });
});

describe('an optimistic update whose record another request deletes before it answers', () => {
  for (const outcomeOfUpdate of ['succeeds', 'fails'] as const) {
    it(`a delete started after it answers first; then the update ${outcomeOfUpdate}: the record stays deleted`, async () => {
      const c = await loaded();
      const list = record(c.observe(TodoResource.getList));
      const update = outcome(c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'renamed' }));
      await until(() => live.held.length === 1);
      const removal = outcome(c.fetch(TodoResource.delete, { id: 2 }));
      expect(list.last().data?.map((t) => t.id)).toEqual([1]);
      await until(() => live.held.length === 2);
      live.held[1]!.json({ id: 2 });
      await settled(() => expect(removal.done).toBe(true));
      expect(removal.error).toBeUndefined();
      if (outcomeOfUpdate === 'succeeds') live.held[0]!.json(todo(2, 'renamed'));
      else live.held[0]!.json({ message: 'gone' }, 404);
      await settled(() => expect(update.done).toBe(true));
      await flush();
      expect(c.getState().optimistic).toEqual([]);
      expect(list.last().data?.map((t) => t.id)).toEqual([1]);
      expect(c.get(Todo, { id: 2 })).toBeUndefined();
      list.unsubscribe();
      c.dispose();
    });
  }

  it('a plain (not optimistic) delete of its record from a GET-less endpoint: the update fails, nothing comes back', async () => {
    const c = await loaded();
    const update = outcome(c.fetch(TodoResource.update, { id: 2 }, { id: 2, title: 'put', completed: true }));
    await until(() => live.held.length === 1);
    const plainDelete = TodoResource.delete.extend({ optimistic: false } as never);
    const removal = outcome(c.fetch(plainDelete, { id: 2 }));
    await until(() => live.held.length === 2);
    live.held[1]!.json({});
    await settled(() => expect(removal.done).toBe(true));
    live.held[0]!.json({ message: 'gone' }, 404);
    await settled(() => expect(update.done).toBe(true));
    expect(c.get(Todo, { id: 2 })).toBeUndefined();
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });
});

describe('a controller.set of a record whose delete is in flight', () => {
  it('the delete answers after the set: the record is deleted (the server removed it), in lists too', async () => {
    const c = await loaded();
    const list = record(c.observe(TodoResource.getList));
    const removal = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 2 }, { id: 2, completed: true });
    // the optimistic delete still hides it: the set wrote one field, not the record
    expect(c.get(Todo, { id: 2 })).toBeUndefined();
    expect(list.last().data?.map((t) => t.id)).toEqual([1]);
    live.held[0]!.json({ id: 2 });
    await settled(() => expect(removal.done).toBe(true));
    await flush();
    expect(removal.error).toBeUndefined();
    expect(c.get(Todo, { id: 2 })).toBeUndefined();
    expect(list.last().data?.map((t) => t.id)).toEqual([1]);
    list.unsubscribe();
    c.dispose();
  });

  it('a set of the whole record (a live message) made after the delete started is newer than its answer', async () => {
    const c = await loaded();
    const removal = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 2 }, todo(2, 'whole', true));
    expect(shown(c, 2)).toEqual({ title: 'whole', completed: true });
    live.held[0]!.json({ id: 2 });
    await settled(() => expect(removal.done).toBe(true));
    expect(shown(c, 2)).toEqual({ title: 'whole', completed: true });
    c.dispose();
  });

  it('a snapshot taken after the delete answered carries the tombstone over the set record', async () => {
    const c = await loaded();
    const removal = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 2 }, { id: 2, completed: true });
    const other = new Controller({ initialState: JSON.parse(JSON.stringify(takeSnapshot(c))) as never });
    expect(shown(other, 2)).toEqual({ title: 'todo 2', completed: true });
    live.held[0]!.json({ id: 2 });
    await settled(() => expect(removal.done).toBe(true));
    restoreSnapshot(other, JSON.parse(JSON.stringify(takeSnapshot(c, { invalid: true }))));
    expect(other.get(Todo, { id: 2 })).toBeUndefined();
    other.dispose();
    c.dispose();
  });

  it('the delete fails: the set stays', async () => {
    const c = await loaded();
    const removal = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 2 }, { id: 2, completed: true });
    live.held[0]!.json({ message: 'forbidden' }, 403);
    await settled(() => expect(removal.done).toBe(true));
    expect(shown(c, 2)).toEqual({ title: 'todo 2', completed: true });
    c.dispose();
  });
});

describe('a mutation in flight while the store is marked or reset', () => {
  it('invalidate of the record’s GET: the layer stays, the answer lands, the observer refetches', async () => {
    const c = await loaded();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    const update = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' }));
    await until(() => live.held.length >= 1);
    c.invalidate(TodoResource.get, { id: 1 });
    await until(() => live.held.length === 2);
    const patch = live.held.find((h) => h.method === 'PATCH')!;
    const get = live.held.find((h) => h.method === 'GET')!;
    patch.json(todo(1, 'renamed'));
    await settled(() => expect(update.done).toBe(true));
    expect(update.error).toBeUndefined();
    expect(c.getState().optimistic).toEqual([]);
    // the refetch was sent while the update was in flight: it may hold the record before the update
    get.json(todo(1, 'todo 1'));
    await settled(() => expect(one.last().fetching).toBe(false));
    expect(one.last().data?.title).toBe('renamed');
    expect(c.getResponse(TodoResource.get, { id: 1 }).invalid).toBe(false);
    one.unsubscribe();
    c.dispose();
  });

  it('expireAll of the list: the observer keeps the optimistic data while refetching, and ends with the answer', async () => {
    const c = await loaded();
    const list = record(c.observe(TodoResource.getList));
    const update = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' }));
    c.expireAll(TodoResource.getList);
    await until(() => live.held.length === 2);
    expect(list.last().data?.map((t) => t.title)).toEqual(['renamed', 'todo 2']);
    expect(list.last().loading).toBe(false);
    live.held.find((h) => h.method === 'GET')!.json([todo(1), todo(2)]);
    await settled(() => expect(list.last().fetching).toBe(false));
    // the list was read before the update was applied: the optimistic title still shows
    expect(list.last().data?.map((t) => t.title)).toEqual(['renamed', 'todo 2']);
    live.held.find((h) => h.method === 'PATCH')!.json({ message: 'no' }, 400);
    await settled(() => expect(update.done).toBe(true));
    expect(list.last().data?.map((t) => t.title)).toEqual(['todo 1', 'todo 2']);
    expect(c.getState().optimistic).toEqual([]);
    list.unsubscribe();
    c.dispose();
  });

  for (const ending of ['succeeds', 'fails'] as const) {
    it(`resetEntireStore: the layer goes at once; the mutation ${ending} and writes nothing; the caller still hears it`, async () => {
      const c = await loaded();
      const update = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' }));
      await until(() => live.held.length === 1);
      c.resetEntireStore();
      expect(c.getState().optimistic).toEqual([]);
      expect(c.get(Todo, { id: 1 })).toBeUndefined();
      if (ending === 'succeeds') live.held[0]!.json(todo(1, 'renamed'));
      else live.held[0]!.json({ message: 'no' }, 500);
      await settled(() => expect(update.done).toBe(true));
      if (ending === 'succeeds') expect(update.value).toMatchObject({ id: 1, title: 'renamed' });
      else expect(update.error).toMatchObject({ name: 'NetworkError', status: 500 });
      expect(c.getState().entities['Todo']).toBeUndefined();
      expect(c.getState().optimistic).toEqual([]);
      expect(c.getState().meta).toEqual({});
      c.dispose();
    });
  }
});

describe('a mutation aborted by the signal its caller passed', () => {
  it('one of two overlapping updates of one record aborts: only its field rolls back; a set meanwhile stays', async () => {
    const c = await loaded();
    const abort = new AbortController();
    const Patch = TodoResource.partialUpdate.extend({ signal: abort.signal });
    const aborted = outcome(c.fetch(Patch, { id: 1 }, { title: 'aborted' }));
    const kept = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }));
    await until(() => live.held.length === 2);
    c.set(Todo, { id: 2 }, { id: 2, title: 'set meanwhile' });
    expect(shown(c)).toEqual({ title: 'aborted', completed: true });
    abort.abort();
    await settled(() => expect(aborted.done).toBe(true));
    expect((aborted.error as Error).name).toBe('AbortError');
    expect(shown(c)).toEqual({ title: 'todo 1', completed: true });
    expect(c.getState().optimistic).toHaveLength(1);
    live.held[1]!.json(todo(1, 'todo 1', true));
    await settled(() => expect(kept.done).toBe(true));
    expect(shown(c)).toEqual({ title: 'todo 1', completed: true });
    expect(shown(c, 2)).toEqual({ title: 'set meanwhile', completed: false });
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });

  it('aborted after its answer arrived but before it was read: nothing of it is written', async () => {
    const c = await loaded();
    const abort = new AbortController();
    const Patch = TodoResource.partialUpdate.extend({ signal: abort.signal });
    const aborted = outcome(c.fetch(Patch, { id: 1 }, { title: 'aborted' }));
    await until(() => live.held.length === 1);
    live.held[0]!.json(todo(1, 'aborted'));
    abort.abort();
    await settled(() => expect(aborted.done).toBe(true));
    await flush();
    // either it resolved before the abort (written) or it was aborted (nothing written): never half of each
    if (aborted.error) {
      expect((aborted.error as Error).name).toBe('AbortError');
      expect(shown(c)).toEqual({ title: 'todo 1', completed: false });
    } else {
      expect(shown(c)).toEqual({ title: 'aborted', completed: false });
    }
    expect(c.getState().optimistic).toEqual([]);
    c.dispose();
  });
});

describe('a GET shared by two observers, one of them ending its own abortable fetch', () => {
  it('the aborting fetch rejects; the observers still get the data, and nobody is left fetching', async () => {
    live.todos.set(1, todo(1));
    const c = make();
    live.hold.on = true;
    const a = record(c.observe(TodoResource.get, { id: 1 }));
    const b = record(c.observe(TodoResource.get, { id: 1 }));
    const abort = new AbortController();
    const Get = TodoResource.get.extend({ signal: abort.signal });
    const own = outcome(c.fetch(Get, { id: 1 }));
    await until(() => live.held.length >= 1);
    a.unsubscribe();
    abort.abort();
    await settled(() => expect(own.done).toBe(true));
    expect((own.error as Error).name).toBe('AbortError');
    const shared = live.held.find((h) => !h.aborted)!;
    shared.json(todo(1, 'answer'));
    await settled(() => expect(b.last().data?.title).toBe('answer'));
    expect(b.last().fetching).toBe(false);
    expect(b.last().error).toBeUndefined();
    b.unsubscribe();
    c.dispose();
  });
});

describe('a refetch racing setResponse for the same key', () => {
  it('setResponse after the refetch was sent wins the key and the record; the refetch resolves its own answer', async () => {
    const c = await loaded();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    expect(one.last()).toMatchObject({ fetching: false, data: { title: 'todo 1' } });
    const refetch = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await until(() => live.held.length === 1);
    c.setResponse(TodoResource.get, { id: 1 }, todo(1, 'pushed', true));
    expect(one.last().data?.title).toBe('pushed');
    live.held[0]!.json(todo(1, 'read before the push'));
    await settled(() => expect(refetch.done).toBe(true));
    expect(refetch.value).toMatchObject({ title: 'read before the push' });
    expect(one.last().data).toMatchObject({ title: 'pushed', completed: true });
    expect(one.last().fetching).toBe(false);
    expect(stored(c)).toEqual(todo(1, 'pushed', true));
    one.unsubscribe();
    c.dispose();
  });

  it('setResponse before the refetch was sent: the refetch answer wins', async () => {
    const c = await loaded();
    c.setResponse(TodoResource.get, { id: 1 }, todo(1, 'pushed', true));
    const refetch = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await until(() => live.held.length === 1);
    live.held[0]!.json(todo(1, 'later'));
    await settled(() => expect(refetch.done).toBe(true));
    expect(stored(c)).toEqual(todo(1, 'later'));
    expect(c.getResponse(TodoResource.get, { id: 1 }).data).toMatchObject({ title: 'later', completed: false });
    c.dispose();
  });
});

describe('controller.fetch of one mutation key with different bodies', () => {
  it('each call resolves its own answer; the store ends with the later request’s', async () => {
    const c = await loaded();
    const a = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'A' }));
    const b = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'B' }));
    await until(() => live.held.length === 2);
    expect(live.held.map((h) => h.body)).toEqual([{ title: 'A' }, { title: 'B' }]);
    live.held[1]!.json(todo(1, 'B'));
    live.held[0]!.json(todo(1, 'A'));
    await settled(() => expect(a.done && b.done).toBe(true));
    expect(a.value).toMatchObject({ title: 'A' });
    expect(b.value).toMatchObject({ title: 'B' });
    expect(stored(c)).toEqual(todo(1, 'B'));
    c.dispose();
  });
});

describe('an unreadable body during an optimistic update beside another one and a set', () => {
  const bodies = [
    ['an HTML page (200)', '<!doctype html><p>login</p>', 200, 'text/html', { name: 'ParseError' }],
    ['malformed JSON (200)', '{"id": 1, "title": ', 200, 'application/json', { name: 'ParseError' }],
    ['an HTML error page (502)', '<html>bad gateway</html>', 502, 'text/html', { name: 'NetworkError', status: 502 }],
  ] as const;
  for (const [what, text, status, type, error] of bodies) {
    it(`${what}: only its own layer rolls back, the error is named with the URL`, async () => {
      const c = await loaded();
      const failing = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'lost' }));
      const other = outcome(c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'kept' }));
      await until(() => live.held.length === 2);
      c.set(Todo, { id: 1 }, { id: 1, completed: true });
      live.held[0]!.raw(text, { status, headers: { 'Content-Type': type } });
      await settled(() => expect(failing.done).toBe(true));
      expect(failing.error).toMatchObject(error);
      expect((failing.error as Error).message).toContain(`${API}/todos/1`);
      expect(shown(c)).toEqual({ title: 'todo 1', completed: true });
      expect(shown(c, 2)).toEqual({ title: 'kept', completed: false });
      expect(c.getState().optimistic).toHaveLength(1);
      live.held[1]!.json(todo(2, 'kept'));
      await settled(() => expect(other.done).toBe(true));
      expect(stored(c, 2)).toEqual(todo(2, 'kept'));
      expect(stored(c)).toEqual(todo(1, 'todo 1', true));
      c.dispose();
    });
  }
});
