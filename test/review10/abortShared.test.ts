/**
 * Outside review (API.md "Identical GET requests in flight share one network request"; RestEndpoint's
 * `signal`): a shared request when one of its callers' endpoints aborts. The abort belongs to that caller:
 * it rejects, and the others (fetches and observers of the same key) still get the answer.
 */
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import {
  TodoResource,
  answerNext,
  flush,
  record,
  settled,
  status,
  tick,
  useFakeClock,
  useTodoServer,
} from '../reliability/faultHarness.js';
import { abortsWith, answerLive, outcome, resolvesTo, row, useControllers } from './fixtures.js';
import { gate } from './gate.js';

const fake = useTodoServer();
const { make } = useControllers();
const abortable = () => {
  const abort = new AbortController();
  return { abort, Get: TodoResource.get.extend({ signal: abort.signal }) };
};

describe('a shared GET when one caller aborts', () => {
  it('the aborting fetch joined a plain fetch: it rejects as an abort, the plain one resolves', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const { abort, Get } = abortable();
    expect(Get.key({ id: 1 })).toBe(TodoResource.get.key({ id: 1 }));
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    const mine = outcome(c.fetch(Get, { id: 1 }));
    await settled(() => expect(held.length).toBeGreaterThanOrEqual(1));
    abort.abort();
    await abortsWith(mine);
    answerLive(held, 'answer');
    await resolvesTo(plain, 'answer');
  });

  it('a plain fetch joined the aborting one: the aborting one rejects, the plain one still resolves the answer', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const { abort, Get } = abortable();
    const mine = outcome(c.fetch(Get, { id: 1 }));
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held.length).toBeGreaterThanOrEqual(1));
    abort.abort();
    await abortsWith(mine);
    await flush();
    answerLive(held, 'answer');
    await resolvesTo(plain, 'answer');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('answer');
  });

  it('an observer sharing the aborted request still ends with the data, not idle without data', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const { abort, Get } = abortable();
    const mine = outcome(c.fetch(Get, { id: 1 }));
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held.length).toBeGreaterThanOrEqual(1));
    abort.abort();
    await settled(() => expect(mine.done).toBe(true));
    await flush();
    // never "done" without data nor error
    const last = s.last();
    expect(last.data !== undefined || last.error !== undefined || last.loading).toBe(true);
    answerLive(held, 'answer');
    await settled(() => expect(s.last().data?.title).toBe('answer'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    s.unsubscribe();
  });

  it('an aborting fetch that joined an observer’s request rejects when its signal aborts', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const { abort, Get } = abortable();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    const mine = outcome(c.fetch(Get, { id: 1 }));
    abort.abort();
    await abortsWith(mine);
    held[0]!.json(row(1, 'answer'));
    await settled(() => expect(s.last().data?.title).toBe('answer'));
    s.unsubscribe();
  });

  it('an endpoint whose signal is already aborted rejects at once and does not stop a later plain fetch', async () => {
    const c = make();
    const { abort, Get } = abortable();
    abort.abort();
    await expect(c.fetch(Get, { id: 2 })).rejects.toMatchObject({ name: 'AbortError' });
    expect((await c.fetch(TodoResource.get, { id: 2 })).title).toBe('todo 2');
  });
});

describe('an endpoint signal during a retry wait', () => {
  it('aborting while the retry waits rejects the fetch at once as an abort, and no retry is sent', async () => {
    useFakeClock();
    const c = make();
    const abort = new AbortController();
    const Get = TodoResource.get.extend({ signal: abort.signal, retry: 3, retryDelay: 10_000 });
    answerNext(fake, 'get', '/todos/:id', status(503));
    const fetched = outcome(c.fetch(Get, { id: 1 }));
    await tick(0);
    expect(fake.requests).toEqual(['GET /todos/1']);
    abort.abort();
    await tick(0);
    expect(fetched.done).toBe(true);
    expect((fetched.error as Error | undefined)?.name).toBe('AbortError');
    await tick(30_000);
    expect(fake.requests).toEqual(['GET /todos/1']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an observer of such an endpoint stops fetching when it aborts during the wait', async () => {
    useFakeClock();
    const c = make();
    const abort = new AbortController();
    const Get = TodoResource.get.extend({ signal: abort.signal, retry: 3, retryDelay: 10_000 });
    answerNext(fake, 'get', '/todos/:id', status(503));
    const s = record(c.observe(Get, { id: 1 }));
    await tick(0);
    abort.abort();
    await tick(0);
    expect(s.last().fetching).toBe(false);
    await tick(30_000);
    expect(fake.requests).toEqual(['GET /todos/1']);
    s.unsubscribe();
  });
});

describe('an endpoint signal while offline', () => {
  it('aborting while the request waits for the network rejects at once; nothing is sent when it returns', async () => {
    const online$ = new BehaviorSubject(false);
    const c = make({ environment: { online$ } });
    const abort = new AbortController();
    const Get = TodoResource.get.extend({ signal: abort.signal });
    const fetched = outcome(c.fetch(Get, { id: 1 }));
    const s = record(c.observe(Get, { id: 1 }));
    await flush();
    expect(s.last()).toMatchObject({ paused: true });
    abort.abort();
    await abortsWith(fetched);
    expect(s.last()).toMatchObject({ paused: false, fetching: false });
    online$.next(true);
    await flush();
    expect(fake.requests).toHaveLength(0);
    s.unsubscribe();
  });
});

describe('a shared GET and an endpoint timeout', () => {
  it('a plain fetch does not fail by the timeout of another endpoint of the same key, the timed one does', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const Timed = TodoResource.get.extend({ timeout: 50 });
    const timed = outcome(c.fetch(Timed, { id: 1 }));
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(timed.done).toBe(true));
    expect((timed.error as Error | undefined)?.name).toBe('TimeoutError');
    answerLive(held, 'slow answer');
    await resolvesTo(plain, 'slow answer');
  });

  it('a timed fetch that joins a plain request still times out', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const Timed = TodoResource.get.extend({ timeout: 50 });
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    const timed = outcome(c.fetch(Timed, { id: 1 }));
    await settled(() => expect(timed.done).toBe(true));
    expect((timed.error as Error | undefined)?.name).toBe('TimeoutError');
    answerLive(held, 'slow answer');
    await settled(() => expect(plain.done).toBe(true));
    expect(plain.value?.title).toBe('slow answer');
  });
});
