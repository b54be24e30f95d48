/**
 * Outside review (API.md "Identical GET requests in flight share one network request"; RestEndpoint's
 * `signal`): a shared request when one of its callers' endpoints aborts. The abort belongs to that caller:
 * it rejects, and the others (fetches and observers of the same key) still get the answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Controller } from '../../core/index.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';
import { gate } from './gate.js';

const fake = useTodoServer();
const row = (id: number, title: string) => ({
  id,
  userId: 1,
  title,
  completed: false,
  createdAt: '2024-01-01T00:00:00Z',
});
let controllers: Controller[] = [];
const make = () => {
  const c = new Controller({ retry: 0 });
  controllers.push(c);
  return c;
};
afterEach(() => {
  for (const c of controllers) c.dispose();
  controllers = [];
});
const outcome = <T>(promise: Promise<T>) => {
  const seen: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then(
    (value) => Object.assign(seen, { value, done: true }),
    (error: unknown) => Object.assign(seen, { error, done: true }),
  );
  return seen;
};
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
    await settled(() => expect(mine.done).toBe(true));
    expect((mine.error as Error | undefined)?.name).toBe('AbortError');
    for (const h of held) if (!h.aborted) h.json(row(1, 'answer'));
    await settled(() => expect(plain.done).toBe(true));
    expect(plain.error).toBeUndefined();
    expect(plain.value?.title).toBe('answer');
  });

  it('a plain fetch joined the aborting one: the aborting one rejects, the plain one still resolves the answer', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const { abort, Get } = abortable();
    const mine = outcome(c.fetch(Get, { id: 1 }));
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held.length).toBeGreaterThanOrEqual(1));
    abort.abort();
    await settled(() => expect(mine.done).toBe(true));
    expect((mine.error as Error | undefined)?.name).toBe('AbortError');
    await flush();
    for (const h of held) if (!h.aborted) h.json(row(1, 'answer'));
    await settled(() => expect(plain.done).toBe(true));
    expect(plain.error).toBeUndefined();
    expect(plain.value?.title).toBe('answer');
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
    for (const h of held) if (!h.aborted) h.json(row(1, 'answer'));
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
    await settled(() => expect(mine.done).toBe(true));
    expect((mine.error as Error | undefined)?.name).toBe('AbortError');
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
