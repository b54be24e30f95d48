/**
 * Outside review of the request lifecycle, tested from API.md as a TanStack Query or Data Client user would:
 * polling, focus and reconnect, retries, the two expiry lengths, abort and timeout, marks made while a request is in
 * flight, a component leaving and coming back, two controllers, and `dispose` in the middle of a request.
 */
import { describe, expect, it } from 'vitest';
import { Controller, NetworkError } from '../../../core/index.js';
import {
  TodoResource,
  answerNext,
  flush,
  hang,
  record,
  refused,
  settled,
  status,
  tick,
  until,
  useFakeClock,
  useTodoServer,
} from '../../reliability/faultHarness.js';
import { counter, outcome, row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make, track, withEnvironment } = useControllers();
const count = counter(fake);

describe('polling (pollFrequency)', () => {
  const Polled = TodoResource.get.extend({ pollFrequency: 1000 });

  it('one request per period for a key however many subscribers; it stops when the last one leaves', async () => {
    useFakeClock();
    const c = make();
    const a = record(c.observe(Polled, { id: 1 }));
    const b = record(c.observe(Polled, { id: 1 }));
    await until(() => expect(a.last().data).toBeDefined());
    expect(count('GET /todos/1')).toBe(1);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(2);
    fake.todos.get(1)!.title = 'polled';
    await tick(1000);
    expect(count('GET /todos/1')).toBe(3);
    expect([a.last().data?.title, b.last().data?.title]).toEqual(['polled', 'polled']);
    a.unsubscribe();
    await tick(1000);
    expect(count('GET /todos/1')).toBe(4);
    b.unsubscribe();
    await tick(5000);
    expect(count('GET /todos/1')).toBe(4);
  });

  it('pauses while the page is hidden or offline, and polls at once when a poll was missed', async () => {
    useFakeClock();
    const { c, env } = withEnvironment();
    const s = record(c.observe(Polled, { id: 1 }));
    await until(() => expect(s.last().data).toBeDefined());
    env.visible$.next(false);
    await tick(3000);
    expect(count('GET /todos/1')).toBe(1);
    env.visible$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    env.online$.next(false);
    await tick(3000);
    expect(count('GET /todos/1')).toBe(2);
    env.online$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(3);
    s.unsubscribe();
  });

  it('a failed poll keeps the data and reports the error; the next successful poll clears it', async () => {
    useFakeClock();
    const c = make();
    const s = record(c.observe(Polled, { id: 1 }));
    await until(() => expect(s.last().data).toBeDefined());
    const shown = s.last().data;
    answerNext(fake, 'get', '/todos/:id', status(503));
    await tick(1000);
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    expect(s.last().error).toMatchObject({ status: 503 });
    expect(s.last().data).toBe(shown);
    await tick(1000);
    expect(s.last().error).toBeUndefined();
    expect(s.last().data).toBe(shown); // the same answer: the same object
    s.unsubscribe();
  });
});

describe('focus and reconnect', () => {
  it('a stale stream refetches on focus when refetchOnFocus is on, and not when it is off', async () => {
    let now = 1_000_000;
    const on = withEnvironment({ refetchOnFocus: true, now: () => now });
    const off = withEnvironment({ now: () => now });
    const a = record(on.c.observe(TodoResource.get, { id: 1 }));
    const b = record(off.c.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(a.last().data && b.last().data).toBeDefined());
    now += 61_000; // past dataExpiryLength (60 s)
    on.env.focus$.next();
    off.env.focus$.next();
    await settled(() => expect(count('GET /todos/1')).toBe(2));
    await flush();
    expect(count('GET /todos/2')).toBe(1);
    a.unsubscribe();
    b.unsubscribe();
  });

  it('offline: a GET waits (paused) and starts when the network returns; a mutation rejects with status 0', async () => {
    const { c, env } = withEnvironment();
    env.online$.next(false);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.last()).toMatchObject({ loading: true, fetching: true, paused: true, data: undefined });
    await flush();
    expect(count('GET /todos/1')).toBe(0);
    const saving = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'offline' });
    await expect(saving).rejects.toBeInstanceOf(NetworkError);
    await expect(saving).rejects.toMatchObject({ status: 0 });
    expect(fake.requests.filter((r) => r.startsWith('PATCH'))).toEqual([]);
    env.online$.next(true);
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false, paused: false });
    s.unsubscribe();
  });

  it('reconnect (default on) refetches a stream that shows an error', async () => {
    const { c, env } = withEnvironment();
    answerNext(fake, 'get', '/todos/:id', status(404));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().error).toMatchObject({ status: 404 }));
    env.online$.next(false);
    env.online$.next(true);
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(s.last().error).toBeUndefined();
    s.unsubscribe();
  });
});

describe('retries', () => {
  it('a GET is retried on a 5xx or a network failure with the delays, not on a 4xx', async () => {
    useFakeClock();
    const c = make({ retry: 2, retryDelay: 1000 });
    answerNext(fake, 'get', '/todos/:id', status(503), refused);
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    expect(s.last()).toMatchObject({ loading: true, error: undefined });
    await tick(1000);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1000);
    await until(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(count('GET /todos/1')).toBe(3);
    answerNext(fake, 'get', '/todos/:id', status(404));
    c.invalidate(TodoResource.get, { id: 1 });
    await until(() => expect(s.last().error).toMatchObject({ status: 404 }));
    await tick(5000);
    expect(count('GET /todos/1')).toBe(4);
    s.unsubscribe();
  });

  it('a mutation is not retried unless its endpoint sets retry', async () => {
    const c = make({ retry: 3, retryDelay: 0 });
    answerNext(fake, 'patch', '/todos/:id', status(503), status(503));
    await expect(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'x' })).rejects.toMatchObject({ status: 503 });
    expect(count('PATCH /todos/1')).toBe(1);
    const Retried = TodoResource.partialUpdate.extend({ retry: 1, retryDelay: 0 });
    await expect(c.fetch(Retried, { id: 1 }, { title: 'y' })).resolves.toMatchObject({ title: 'y' });
    expect(count('PATCH /todos/1')).toBe(3);
  });
});

describe('dataExpiryLength and errorExpiryLength', () => {
  it('fetchIfStale answers from the store until dataExpiryLength has passed, then fetches', async () => {
    let now = 1_000_000;
    const Short = TodoResource.get.extend({ dataExpiryLength: 5000 });
    const c = make({ now: () => now });
    await c.fetch(Short, { id: 1 });
    now += 4999;
    await c.fetchIfStale(Short, { id: 1 });
    expect(count('GET /todos/1')).toBe(1);
    expect(c.getResponse(Short, { id: 1 }).stale).toBe(false);
    now += 1;
    expect(c.getResponse(Short, { id: 1 }).stale).toBe(true);
    await c.fetchIfStale(Short, { id: 1 });
    expect(count('GET /todos/1')).toBe(2);
  });

  it('a new subscriber to stale data shows it (stale: true, fetching) and refetches in the background', async () => {
    let now = 1_000_000;
    const c = make({ now: () => now });
    await c.fetch(TodoResource.get, { id: 1 });
    now += 60_000;
    const held = gate(fake, 'get', '/todos/:id');
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]).toMatchObject({ loading: false, fetching: true, stale: true });
    expect(s.values[0]!.data?.title).toBe('todo 1');
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json(row(1, 'refreshed'));
    await settled(() => expect(s.last()).toMatchObject({ fetching: false, stale: false }));
    expect(s.last().data?.title).toBe('refreshed');
    s.unsubscribe();
  });

  it('an error is not refetched by a second subscriber before errorExpiryLength, and is after it', async () => {
    let now = 1_000_000;
    const c = make({ now: () => now });
    answerNext(fake, 'get', '/todos/:id', status(404));
    const a = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(a.last().error).toMatchObject({ status: 404 }));
    const b = record(c.observe(TodoResource.get, { id: 1 }));
    await flush();
    expect(count('GET /todos/1')).toBe(1);
    expect(b.last().error).toMatchObject({ status: 404 });
    b.unsubscribe();
    now += 1000; // errorExpiryLength
    const d = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(d.last().data?.title).toBe('todo 1'));
    expect(count('GET /todos/1')).toBe(2);
    expect(a.last().error).toBeUndefined();
    a.unsubscribe();
    d.unsubscribe();
  });
});

describe('abort and timeout', () => {
  it('an endpoint timeout rejects a hung request with a TimeoutError (status 0); an observer keeps its data beside it', async () => {
    const Timed = TodoResource.get.extend({ timeout: 100, retry: 0 });
    const c = make();
    const s = record(c.observe(Timed, { id: 1 }));
    await settled(() => expect(s.last().data).toBeDefined());
    const shown = s.last().data;
    const seen = { aborted: false };
    answerNext(fake, 'get', '/todos/:id', hang(seen));
    const again = outcome(c.fetch(Timed, { id: 1 }));
    await settled(() => expect(again.done).toBe(true));
    expect(again.error).toMatchObject({ name: 'TimeoutError', status: 0 });
    expect(seen.aborted).toBe(true);
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    expect(s.last().error).toMatchObject({ name: 'TimeoutError' });
    expect(s.last().data).toBe(shown);
    s.unsubscribe();
  });

  it('an endpoint signal aborts its request: AbortError, nothing written, observers not fetching', async () => {
    const abort = new AbortController();
    const Aborted = TodoResource.get.extend({ signal: abort.signal });
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const s = record(c.observe(Aborted, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    abort.abort();
    await settled(() => expect(s.last().fetching).toBe(false));
    expect(held[0]!.aborted).toBe(true);
    expect(c.getState().endpoints[Aborted.key({ id: 1 })]).toBeUndefined();
    expect(s.last().loading).toBe(false);
    s.unsubscribe();
  });
});

describe('invalidate and expireAll while a request is in flight', () => {
  it('invalidate: the answer in flight is shown only if no newer mark; the observer refetches and ends fresh', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    c.invalidate(TodoResource.get, { id: 1 });
    held[0]!.json(row(1, 'before the mark'));
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json(row(1, 'after the mark'));
    await settled(() => expect(s.last().data?.title).toBe('after the mark'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false, stale: false });
    expect(c.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ stale: false, invalid: false });
    s.unsubscribe();
  });

  it('expireAll: data stays on screen, one more request follows, and the key ends fresh', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.getList));
    await settled(() => expect(s.last().data).toHaveLength(4));
    const held = gate(fake, 'get', '/todos');
    const from = s.values.length;
    c.expireAll(TodoResource.getList);
    await settled(() => expect(held).toHaveLength(1));
    c.expireAll(TodoResource.getList);
    expect(s.last().data).toHaveLength(4);
    held[0]!.json([row(1, 'a')]);
    await settled(() => expect(held).toHaveLength(2));
    expect(s.values.slice(from).every((v) => v.data !== undefined)).toBe(true);
    held[1]!.json([row(1, 'a'), row(2, 'b')]);
    await settled(() => expect(s.last().data).toHaveLength(2));
    expect(s.last()).toMatchObject({ fetching: false, stale: false });
    s.unsubscribe();
  });
});

describe('a component that leaves and comes back while its request runs', () => {
  it('leaving aborts the request nobody awaits; coming back starts a new one whose answer shows', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const first = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    first.unsubscribe();
    await settled(() => expect(held[0]!.aborted).toBe(true));
    const again = record(c.observe(TodoResource.get, { id: 1 }));
    expect(again.values[0]).toMatchObject({ loading: true, fetching: true, error: undefined });
    await settled(() => expect(held).toHaveLength(2));
    held[1]!.json(row(1, 'second mount'));
    await settled(() => expect(again.last().data?.title).toBe('second mount'));
    expect(again.values.filter((v) => v.error !== undefined)).toEqual([]);
    again.unsubscribe();
  });

  it('coming back before the abort settles joins nothing stale: exactly one answer shows, no error', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const first = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    first.unsubscribe();
    const again = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held.filter((h) => !h.aborted)).toHaveLength(1));
    held.find((h) => !h.aborted)!.json(row(1, 'shown'));
    await settled(() => expect(again.last().data?.title).toBe('shown'));
    expect(again.values.filter((v) => v.error !== undefined || (!v.loading && v.data === undefined))).toEqual([]);
    again.unsubscribe();
  });
});

describe('two controllers', () => {
  it('have separate stores and requests: one’s answer, invalidation or dispose does not reach the other', async () => {
    const a = make();
    const b = make();
    const sa = record(a.observe(TodoResource.get, { id: 1 }));
    const sb = record(b.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(sa.last().data && sb.last().data).toBeDefined());
    expect(count('GET /todos/1')).toBe(2); // not shared across controllers
    a.setResponse(TodoResource.get, { id: 1 }, row(1, 'only in a'));
    expect(sa.last().data?.title).toBe('only in a');
    expect(sb.last().data?.title).toBe('todo 1');
    a.dispose();
    b.invalidate(TodoResource.get, { id: 1 });
    await settled(() => expect(count('GET /todos/1')).toBe(3));
    await settled(() => expect(sb.last().data?.title).toBe('todo 1'));
    sb.unsubscribe();
  });
});

describe('dispose in the middle of a request', () => {
  it('aborts it, completes the streams, writes nothing; later calls throw and fetch rejects, naming the disposal', async () => {
    const c = track(new Controller({ retry: 0 }));
    const held = gate(fake, 'get', '/todos/:id');
    let completed = false;
    const values: unknown[] = [];
    c.observe(TodoResource.get, { id: 1 }).subscribe({
      next: (v) => values.push(v),
      complete: () => (completed = true),
    });
    const fetched = outcome(c.fetch(TodoResource.get, { id: 2 }));
    await settled(() => expect(held).toHaveLength(2));
    const states = record(c.state$);
    const before = states.values.length;
    c.dispose();
    expect(completed).toBe(true);
    await settled(() => expect(held.every((h) => h.aborted)).toBe(true));
    await settled(() => expect(fetched.done).toBe(true));
    expect((fetched.error as Error).name).toBe('AbortError');
    await flush();
    expect(states.values.length).toBe(before); // nothing written after the dispose
    expect(() => c.observe(TodoResource.get, { id: 1 })).toThrow(/disposed/);
    expect(() => c.invalidate(TodoResource.get, { id: 1 })).toThrow(/disposed/);
    expect(() => c.setResponse(TodoResource.get, { id: 1 }, row(1, 'x'))).toThrow(/disposed/);
    await expect(Promise.resolve().then(() => c.fetch(TodoResource.get, { id: 1 }))).rejects.toThrow(/disposed/);
  });

  it('dispose while a retry waits: no further attempt is made', async () => {
    useFakeClock();
    const c = track(new Controller({ retry: 3, retryDelay: 1000 }));
    answerNext(fake, 'get', '/todos/:id', status(503));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    c.dispose();
    await tick(10_000);
    expect(count('GET /todos/1')).toBe(1);
    s.unsubscribe();
  });
});
