/**
 * Outside review (API.md "The controller and the store", "The app lifecycle"): the request runner when
 * shared requests meet aborts, invalidation, resets, dispose and garbage collection while in flight.
 */
import { describe, expect, it, vi } from 'vitest';
import { type ControllerOptions, type QueryState } from '../../core/index.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';
import { answerLive, counter, observedWhileHeld, outcome, resolvesTo, row, useControllers } from './fixtures.js';
import { gate } from './gate.js';

const fake = useTodoServer();
const { withEnvironment } = useControllers();
const make = (options: ControllerOptions = {}) => withEnvironment(options).c;
const count = counter(fake);

describe('shared requests', () => {
  it('two fetches and an observer of one key share one request and all see its answer', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const a = c.fetch(TodoResource.get, { id: 1 });
    const b = c.fetch(TodoResource.get, { id: 1 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json(row(1, 'one'));
    expect((await a).title).toBe('one');
    expect((await b).title).toBe('one');
    await settled(() => expect(s.last().data?.title).toBe('one'));
    expect(count('GET /todos/1')).toBe(1);
    s.unsubscribe();
  });

  it('an observer that leaves the request it started does not take a fetch of the same key down with it', async () => {
    const c = make();
    const { held, s } = await observedWhileHeld(fake, c);
    s.unsubscribe();
    const fetched = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await flush();
    // whichever request carries the fetch, it is answered and the fetch resolves with the answer
    answerLive(held, 'after');
    await resolvesTo(fetched, 'after');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('after');
  });

  it('a fetch that joined an observer’s request keeps it when the observer leaves (one request)', async () => {
    const c = make();
    const { held, s } = await observedWhileHeld(fake, c);
    const fetched = outcome(c.fetch(TodoResource.get, { id: 1 }));
    s.unsubscribe();
    await flush();
    expect(held[0]!.aborted).toBe(false);
    held[0]!.json(row(1, 'kept'));
    await settled(() => expect(fetched.done).toBe(true));
    expect(fetched.value?.title).toBe('kept');
    expect(count('GET /todos/1')).toBe(1);
  });
});

describe('a reset while a request is in flight', () => {
  it('the late answer is not written; the observer refetches and ends loading with the new answer', async () => {
    const c = make();
    const { held, s } = await observedWhileHeld(fake, c);
    c.resetEntireStore();
    await settled(() => expect(held.length).toBeGreaterThanOrEqual(1));
    held[0]!.json(row(1, 'before reset'));
    await flush();
    expect(c.getState().entities.Todo?.['1']).toBeUndefined();
    // the observer is still loading (its data was reset) and a request after the reset answers it
    await settled(() => expect(held).toHaveLength(2));
    expect(s.last().data).toBeUndefined();
    held[1]!.json(row(1, 'after reset'));
    await settled(() => expect(s.last().data?.title).toBe('after reset'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false, error: undefined });
    s.unsubscribe();
  });

  it('a fetch from before the reset settles (it does not hang), and writes nothing', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const fetched = outcome(c.fetch(TodoResource.get, { id: 2 }));
    await settled(() => expect(held).toHaveLength(1));
    c.resetEntireStore();
    held[0]!.json(row(2, 'old'));
    await settled(() => expect(fetched.done).toBe(true));
    expect(c.getState().entities.Todo?.['2']).toBeUndefined();
    expect(c.getState().endpoints[TodoResource.get.key({ id: 2 })]).toBeUndefined();
  });

  it('a fetch after the reset does not share the request from before it', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const before = outcome(c.fetch(TodoResource.get, { id: 3 }));
    await settled(() => expect(held).toHaveLength(1));
    c.resetEntireStore();
    const after = outcome(c.fetch(TodoResource.get, { id: 3 }));
    await settled(() => expect(held).toHaveLength(2));
    held[0]!.json(row(3, 'old'));
    held[1]!.json(row(3, 'new'));
    await settled(() => expect(after.done && before.done).toBe(true));
    expect(after.value?.title).toBe('new');
    expect(c.getResponse(TodoResource.get, { id: 3 }).data?.title).toBe('new');
  });
});

describe('invalidate and expire while a request is in flight', () => {
  it('invalidate during a refresh: the observer ends with data and not fetching', async () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'cached'));
    c.expireAll(TodoResource.get);
    const { held, s } = await observedWhileHeld(fake, c);
    c.invalidate(TodoResource.get, { id: 1 });
    await flush();
    answerLive(held, 'fresh');
    await flush();
    answerLive(held, 'fresh');
    await settled(() => expect(s.last()).toMatchObject({ loading: false, fetching: false }));
    expect(s.last().data?.title).toBe('fresh');
    const after = s.values.length;
    await flush();
    expect(s.values.length).toBe(after);
    s.unsubscribe();
  });

  it('the invalidated key is refetched: an answer from before the invalidation does not mark it fresh for good', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const fetched = c.fetch(TodoResource.get, { id: 1 });
    await settled(() => expect(held).toHaveLength(1));
    c.invalidate(TodoResource.get, { id: 1 });
    held[0]!.json(row(1, 'from before'));
    await fetched.catch(() => undefined);
    await flush();
    // the store either keeps the invalidation or holds the answer; an observer must not stay loading
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await flush();
    for (const h of held.slice(1)) h.json(row(1, 'refetched'));
    await settled(() => expect(s.last()).toMatchObject({ loading: false, fetching: false }));
    expect(s.last().data).toBeDefined();
    s.unsubscribe();
  });
});

describe('dispose with requests in flight', () => {
  it('every shared fetch rejects naming the disposal, observers complete, no timer is left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const c = make({ retry: 2, retryDelay: () => 1000 });
    const Polled = TodoResource.get.extend({ pollFrequency: 500 });
    const held = gate(fake, 'get', '/todos/:id');
    const a = outcome(c.fetch(TodoResource.get, { id: 1 }));
    const b = outcome(c.fetch(TodoResource.get, { id: 1 }));
    let completed = 0;
    const sub = c.observe(Polled, { id: 2 }).subscribe({ complete: () => completed++ });
    await vi.waitFor(() => expect(held).toHaveLength(2));
    c.dispose();
    await vi.advanceTimersByTimeAsync(0);
    await flush();
    expect(a.done && b.done).toBe(true);
    expect(String(a.error)).toMatch(/dispos/);
    expect(String(b.error)).toMatch(/dispos/);
    expect(completed).toBe(1);
    expect(held.every((h) => h.aborted)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    sub.unsubscribe();
  });
});

describe('garbage collection while a request is in flight', () => {
  it('a gc during a prefetch does not lose its answer: the key holds it and the fetch resolves it', async () => {
    const c = make({ gcTime: 60_000 });
    const held = gate(fake, 'get', '/todos/:id');
    const fetched = c.fetch(TodoResource.get, { id: 4 });
    await settled(() => expect(held).toHaveLength(1));
    c.gc();
    held[0]!.json(row(4, 'prefetched'));
    expect((await fetched).title).toBe('prefetched');
    expect(c.getResponse(TodoResource.get, { id: 4 }).data?.title).toBe('prefetched');
  });

  it('an observer leaving and its key collected while its request is in flight: a new observer gets the data', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const c = make({ gcTime: 100 });
    const held = gate(fake, 'get', '/todos/:id');
    const first = record(c.observe(TodoResource.get, { id: 1 }));
    await vi.waitFor(() => expect(held).toHaveLength(1));
    first.unsubscribe();
    await vi.advanceTimersByTimeAsync(200);
    c.gc();
    const second = record(c.observe(TodoResource.get, { id: 1 }));
    await flush();
    answerLive(held, 'late');
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(0);
      await flush(1);
      answerLive(held, 'late');
      expect(second.last().data?.title).toBe('late');
    });
    expect(second.last()).toMatchObject({ loading: false, fetching: false });
    second.unsubscribe();
  });
});

describe('observe emissions', () => {
  it('a first load emits exactly twice: loading (synchronously), then the data', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values).toHaveLength(1);
    expect(s.values[0]).toMatchObject({
      data: undefined,
      loading: true,
      fetching: true,
      error: undefined,
      stale: false,
    });
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json(row(1, 'one'));
    await settled(() => expect(s.last().data?.title).toBe('one'));
    await flush();
    expect(s.values).toHaveLength(2);
    expect(s.values[1]).toMatchObject({ loading: false, fetching: false, error: undefined });
    s.unsubscribe();
  });

  it('a second subscriber gets the current state synchronously, and no request more', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values).toHaveLength(1);
    expect(s.values[0]).toMatchObject({ loading: false, fetching: false });
    expect(s.values[0]!.data?.title).toBe('todo 1');
    await flush();
    expect(s.values).toHaveLength(1);
    expect(count('GET /todos/1')).toBe(1);
    s.unsubscribe();
  });

  it('a 5xx refresh keeps the data and reports the error; the next success clears the error, keeping ===', async () => {
    const c = make();
    const { held, s } = await observedWhileHeld(fake, c);
    held[0]!.json(row(1, 'one'));
    await settled(() => expect(s.last().data?.title).toBe('one'));
    const data = s.last().data;
    c.expireAll(TodoResource.get);
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json({ message: 'down' }, 503);
    await settled(() => expect(s.last().error).toBeDefined());
    expect(s.last().data).toBe(data);
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    c.expireAll(TodoResource.get);
    await settled(() => expect(held).toHaveLength(3));
    held[2]!.json(row(1, 'one'));
    await settled(() => expect(s.last().error).toBeUndefined());
    expect(s.last().data).toBe(data);
    // no two equal emissions in a row
    for (let i = 1; i < s.values.length; i++) {
      const [p, q] = [s.values[i - 1]!, s.values[i]!] as QueryState<unknown>[];
      expect(
        p!.data === q!.data &&
          p!.error === q!.error &&
          p!.loading === q!.loading &&
          p!.fetching === q!.fetching &&
          p!.stale === q!.stale &&
          p!.paused === q!.paused,
      ).toBe(false);
    }
    s.unsubscribe();
  });

  it('an idle stream (args null) emits once, never fetches', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.get, null));
    await flush();
    expect(s.values).toHaveLength(1);
    expect(s.values[0]).toMatchObject({ data: undefined, loading: false, fetching: false });
    expect(fake.requests).toHaveLength(0);
    s.unsubscribe();
  });
});
