/**
 * Outside review (API.md alone; TanStack Query's useMutation and Data Client's optimistic updates where it is
 * silent): the core's mutation helper with overlapping calls, reset and failures, and optimistic layers of
 * several writes to one entity.
 */
import { describe, expect, it } from 'vitest';
import { Controller, observeMutation } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import { API, Todo, TodoResource, flush, getCounter, increment, outcome, todo, useLiveServer } from './harness.js';

const live = useLiveServer();
const make = () => new Controller({ retry: 0 });

async function loaded(c: Controller, ...ids: number[]) {
  for (const id of ids) live.todos.set(id, todo(id));
  await c.fetch(TodoResource.get, { id: ids[0]! });
  for (const id of ids.slice(1)) await c.fetch(TodoResource.get, { id });
}

describe('observeMutation: overlapping calls', () => {
  it('the later call answered first: the state shows it, and the earlier answer does not replace it', async () => {
    const c = make();
    await loaded(c, 1);
    live.hold.on = true;
    const m = observeMutation(c, TodoResource.partialUpdate);
    const first = outcome(m.mutate({ id: 1 }, { title: 'first' }));
    const second = outcome(m.mutate({ id: 1 }, { title: 'second' }));
    await settled(() => expect(live.held).toHaveLength(2));
    expect(m.getState()).toMatchObject({ pending: true, data: undefined, error: undefined });
    live.held[1]!.json(todo(1, 'second'));
    await settled(() => expect(second.done).toBe(true));
    expect(m.getState()).toMatchObject({ pending: false, error: undefined });
    expect(m.getState().data?.title).toBe('second');
    live.held[0]!.json(todo(1, 'first'));
    await settled(() => expect(first.done).toBe(true));
    expect((first.value as Todo).title).toBe('first'); // each call resolves its own result
    expect(m.getState().data?.title).toBe('second');
    expect(m.getState().pending).toBe(false);
    c.dispose();
  });

  it('the earlier call answered first: still pending (for the latest), its data not shown', async () => {
    const c = make();
    await loaded(c, 1);
    live.hold.on = true;
    const m = observeMutation(c, TodoResource.partialUpdate);
    const seen = record(m.state$);
    const first = outcome(m.mutate({ id: 1 }, { title: 'first' }));
    void m.mutate({ id: 1 }, { title: 'second' });
    await settled(() => expect(live.held).toHaveLength(2));
    live.held[0]!.json(todo(1, 'first'));
    await settled(() => expect(first.done).toBe(true));
    await flush();
    expect(m.getState()).toMatchObject({ pending: true, data: undefined, error: undefined });
    expect(seen.values.some((state) => state.data?.title === 'first')).toBe(false);
    live.held[1]!.json(todo(1, 'second'));
    await settled(() => expect(m.getState().pending).toBe(false));
    expect(m.getState().data?.title).toBe('second');
    seen.unsubscribe();
    c.dispose();
  });

  it('an earlier call failing while the latest is pending shows no error; the latest failing does', async () => {
    const c = make();
    await loaded(c, 1);
    live.hold.on = true;
    const m = observeMutation(c, TodoResource.partialUpdate);
    const first = outcome(m.mutate({ id: 1 }, { title: 'first' }));
    const second = outcome(m.mutate({ id: 1 }, { title: 'second' }));
    await settled(() => expect(live.held).toHaveLength(2));
    live.held[0]!.json({ message: 'nope' }, 422);
    await settled(() => expect(first.done).toBe(true));
    expect((first.error as Error).name).toBe('NetworkError');
    await flush();
    expect(m.getState()).toMatchObject({ pending: true, error: undefined });
    live.held[1]!.json({ message: 'down' }, 503);
    await settled(() => expect(second.done).toBe(true));
    await flush();
    expect(m.getState().pending).toBe(false);
    expect(m.getState().error).toMatchObject({ name: 'NetworkError', status: 503 });
    c.dispose();
  });

  it('reset during a call: idle at once, the call still resolves its value, the state stays idle', async () => {
    const c = make();
    await loaded(c, 1);
    live.hold.on = true;
    const m = observeMutation(c, TodoResource.partialUpdate);
    const call = outcome(m.mutate({ id: 1 }, { title: 'after reset' }));
    await settled(() => expect(live.held).toHaveLength(1));
    m.reset();
    expect(m.getState()).toEqual({ pending: false, error: undefined, data: undefined });
    live.held[0]!.json(todo(1, 'after reset'));
    await settled(() => expect(call.done).toBe(true));
    await flush();
    expect((call.value as Todo).title).toBe('after reset');
    expect(m.getState()).toEqual({ pending: false, error: undefined, data: undefined });
    // the store took the answer all the same (reset is about the mutation's state, not the cache)
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('after reset');
    c.dispose();
  });

  it('reset during a failing call: the failure does not show, and the caller still sees the rejection', async () => {
    const c = make();
    await loaded(c, 1);
    live.hold.on = true;
    const m = observeMutation(c, TodoResource.partialUpdate);
    const call = outcome(m.mutate({ id: 1 }, { title: 'x' }));
    await settled(() => expect(live.held).toHaveLength(1));
    m.reset();
    live.held[0]!.refuse();
    await settled(() => expect(call.done).toBe(true));
    await flush();
    expect(call.error).toMatchObject({ name: 'NetworkError', status: 0 });
    expect(m.getState()).toEqual({ pending: false, error: undefined, data: undefined });
    c.dispose();
  });
});

describe('mutation errors are the named errors API.md gives, and the store keeps what it had', () => {
  const cases: [string, (held: (typeof live.held)[number]) => void, Record<string, unknown>][] = [
    [
      'an HTML error page (502)',
      (h) => h.raw('<html><body>Bad gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
      { name: 'NetworkError', status: 502 },
    ],
    [
      'an HTML page with status 200',
      (h) =>
        h.raw('<!doctype html><html><body>login</body></html>', {
          status: 200,
          headers: { 'Content-Type': 'text/html' },
        }),
      { name: 'ParseError' },
    ],
    [
      'malformed JSON',
      (h) => h.raw('{"id": 1, "title": ', { status: 200, headers: { 'Content-Type': 'application/json' } }),
      { name: 'ParseError' },
    ],
    ['a 404', (h) => h.json({ message: 'gone' }, 404), { name: 'NetworkError', status: 404 }],
    ['a 500', (h) => h.json({ message: 'boom' }, 500), { name: 'NetworkError', status: 500 }],
    ['a network failure', (h) => h.refuse(), { name: 'NetworkError', status: 0 }],
  ];
  for (const [what, answer, error] of cases) {
    it(`${what}: the optimistic change rolls back exactly, observers keep their data, the error is named`, async () => {
      const c = make();
      await loaded(c, 1, 2);
      await c.fetch(TodoResource.getList);
      const before = JSON.stringify(c.getState().entities);
      const list = record(c.observe(TodoResource.getList));
      const one = record(c.observe(TodoResource.get, { id: 1 }));
      live.hold.on = true;
      const m = observeMutation(c, TodoResource.partialUpdate);
      const call = outcome(m.mutate({ id: 1 }, { title: 'optimistic' }));
      expect(one.last().data?.title).toBe('optimistic');
      await settled(() => expect(live.held).toHaveLength(1));
      answer(live.held[0]!);
      await settled(() => expect(call.done).toBe(true));
      await flush();
      expect(call.error).toMatchObject(error);
      expect((call.error as Error).message).toContain(`${API}/todos/1`);
      expect(m.getState().error).toBe(call.error);
      expect(m.getState().pending).toBe(false);
      expect(JSON.stringify(c.getState().entities)).toBe(before);
      expect(c.getState().optimistic).toHaveLength(0);
      expect(one.last().data?.title).toBe('todo 1');
      expect(list.last().data?.map((t) => t.title)).toEqual(['todo 1', 'todo 2']);
      list.unsubscribe();
      one.unsubscribe();
      c.dispose();
    });
  }
});

describe('optimistic layers of overlapping writes to one entity', () => {
  it('the first of two partial updates fails: only its field rolls back; the second’s stays', async () => {
    const c = make();
    await loaded(c, 1);
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    live.hold.on = true;
    const a = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' }));
    const b = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true }));
    expect(one.last().data).toMatchObject({ title: 'renamed', completed: true });
    await settled(() => expect(live.held).toHaveLength(2));
    live.held[0]!.json({ message: 'conflict' }, 409);
    await settled(() => expect(a.done).toBe(true));
    await flush();
    expect(one.last().data).toMatchObject({ title: 'todo 1', completed: true });
    live.held[1]!.json(todo(1, 'todo 1', true));
    await settled(() => expect(b.done).toBe(true));
    await flush();
    expect(one.last().data).toMatchObject({ title: 'todo 1', completed: true });
    expect(c.getState().optimistic).toHaveLength(0);
    one.unsubscribe();
    c.dispose();
  });

  it('the second of two partial updates fails: the first’s layer stays until its answer', async () => {
    const c = make();
    await loaded(c, 1);
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    live.hold.on = true;
    const a = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' }));
    const b = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed again', completed: true }));
    await settled(() => expect(live.held).toHaveLength(2));
    live.held[1]!.refuse();
    await settled(() => expect(b.done).toBe(true));
    await flush();
    expect(one.last().data).toMatchObject({ title: 'renamed', completed: false });
    live.held[0]!.json(todo(1, 'renamed'));
    await settled(() => expect(a.done).toBe(true));
    await flush();
    expect(one.last().data).toMatchObject({ title: 'renamed', completed: false });
    one.unsubscribe();
    c.dispose();
  });

  it('getOptimisticResponse from the snapshot (Data Client’s increment): the failed one of two leaves base + 1', async () => {
    const c = make();
    live.counters.set(1, { id: 1, count: 10 });
    await c.fetch(getCounter, { id: 1 });
    const counter = record(c.observe(getCounter, { id: 1 }));
    live.hold.on = true;
    const a = outcome(c.fetch(increment, { id: 1 }));
    expect(counter.last().data?.count).toBe(11);
    const b = outcome(c.fetch(increment, { id: 1 }));
    expect(counter.last().data?.count).toBe(12);
    await settled(() => expect(live.held).toHaveLength(2));
    live.held[0]!.json({ message: 'nope' }, 500);
    await settled(() => expect(a.done).toBe(true));
    await flush();
    // Data Client: each layer's expected response is computed from the store as it is applied, so only the
    // failed increment is undone (base 10 + the one still pending)
    expect(counter.last().data?.count).toBe(11);
    live.held[1]!.json({ id: 1, count: 11 });
    await settled(() => expect(b.done).toBe(true));
    await flush();
    expect(counter.last().data?.count).toBe(11);
    counter.unsubscribe();
    c.dispose();
  });

  it('getOptimisticResponse: a response to the first increment keeps the second’s layer on top of it', async () => {
    const c = make();
    live.counters.set(1, { id: 1, count: 10 });
    await c.fetch(getCounter, { id: 1 });
    const counter = record(c.observe(getCounter, { id: 1 }));
    live.hold.on = true;
    const a = outcome(c.fetch(increment, { id: 1 }));
    const b = outcome(c.fetch(increment, { id: 1 }));
    await settled(() => expect(live.held).toHaveLength(2));
    // the server counted a third client's increment too: the first answer says 12
    live.held[0]!.json({ id: 1, count: 12 });
    await settled(() => expect(a.done).toBe(true));
    await flush();
    expect(counter.last().data?.count).toBe(13);
    live.held[1]!.json({ id: 1, count: 13 });
    await settled(() => expect(b.done).toBe(true));
    expect(counter.last().data?.count).toBe(13);
    counter.unsubscribe();
    c.dispose();
  });
});

describe('overlapping writes to one entity', () => {
  it('the older of two updates answers last: its answer does not overwrite the newer one', async () => {
    const c = make();
    await loaded(c, 1);
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    live.hold.on = true;
    const a = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'older' }));
    const b = outcome(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'newer' }));
    await settled(() => expect(live.held).toHaveLength(2));
    live.held[1]!.json(todo(1, 'newer'));
    await settled(() => expect(b.done).toBe(true));
    live.held[0]!.json(todo(1, 'older'));
    await settled(() => expect(a.done).toBe(true));
    await flush();
    expect(one.last().data?.title).toBe('newer');
    one.unsubscribe();
    c.dispose();
  });

  it('an optimistic delete that fails under a pending rename: the entity comes back renamed, in the list too', async () => {
    const c = make();
    await loaded(c, 1, 2);
    const list = record(c.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toHaveLength(2));
    live.hold.on = true;
    const rename = outcome(c.fetch(TodoResource.partialUpdate, { id: 2 }, { title: 'renamed' }));
    const removal = outcome(c.fetch(TodoResource.delete, { id: 2 }));
    expect(list.last().data?.map((t) => t.title)).toEqual(['todo 1']);
    await settled(() => expect(live.held).toHaveLength(2));
    const byMethod = (method: string) => live.held.find((h) => h.method === method)!;
    byMethod('DELETE').json({ message: 'forbidden' }, 403);
    await settled(() => expect(removal.done).toBe(true));
    await flush();
    expect(removal.error).toMatchObject({ name: 'NetworkError', status: 403 });
    expect(list.last().data?.map((t) => t.title)).toEqual(['todo 1', 'renamed']);
    byMethod('PATCH').json(todo(2, 'renamed'));
    await settled(() => expect(rename.done).toBe(true));
    await flush();
    expect(list.last().data?.map((t) => t.title)).toEqual(['todo 1', 'renamed']);
    list.unsubscribe();
    c.dispose();
  });
});
