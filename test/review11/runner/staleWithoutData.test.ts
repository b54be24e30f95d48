/**
 * API.md: `stale: boolean; // the data is past its expiry`. A state that shows no data has no data past its
 * expiry: an invalidated result being refetched is loading, not stale (as a key never fetched is), while
 * `expireAll` keeps the data and says it is stale.
 */
import { describe, expect, it } from 'vitest';
import { TodoResource, answerNext, record, settled, status, useTodoServer } from '../../reliability/faultHarness.js';
import { row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make } = useControllers();

describe('stale in a QueryState without data', () => {
  it('an invalidated result being refetched is loading without data and not stale; the answer is fresh', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    const held = gate(fake, 'get', '/todos/:id');
    c.invalidate(TodoResource.get, { id: 1 });
    expect(s.last()).toMatchObject({ data: undefined, loading: true, fetching: true, stale: false });
    // no emission on the way claimed stale data that it did not show
    expect(s.values.filter((v) => v.stale && v.data === undefined)).toEqual([]);
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json(row(1, 'again'));
    await settled(() => expect(s.last().data?.title).toBe('again'));
    expect(s.last()).toMatchObject({ loading: false, fetching: false, stale: false });
    s.unsubscribe();
  });

  it('invalidateAll: the same for every observer of the endpoint', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    const two = record(c.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(two.last().data?.title).toBe('todo 2'));
    await settled(() => expect(one.last().data?.title).toBe('todo 1'));
    gate(fake, 'get', '/todos/:id');
    c.invalidateAll(TodoResource.get);
    for (const s of [one, two]) expect(s.last()).toMatchObject({ data: undefined, loading: true, stale: false });
    one.unsubscribe();
    two.unsubscribe();
  });

  it('a 4xx that replaced the data is shown without data and not stale, also when refetched past its expiry', async () => {
    let clock = 1_000_000;
    const c = make({ now: () => clock });
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    answerNext(fake, 'get', '/todos/:id', status(404));
    clock += 120_000; // the data expired
    const failed = c.fetch(TodoResource.get, { id: 1 }).catch((error: unknown) => error);
    expect(await failed).toMatchObject({ status: 404 });
    await settled(() => expect(s.last().error).toMatchObject({ status: 404 }));
    expect(s.last()).toMatchObject({ data: undefined, stale: false });
    // past the error's expiry, expireAll: the observer refetches, still without data to call stale
    clock += 120_000;
    const held = gate(fake, 'get', '/todos/:id');
    c.expireAll(TodoResource.get);
    expect(s.last()).toMatchObject({ data: undefined, fetching: true, stale: false });
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json(row(1, 'back'));
    await settled(() => expect(s.last().data?.title).toBe('back'));
    expect(s.last()).toMatchObject({ error: undefined, stale: false, fetching: false });
    s.unsubscribe();
  });

  it('expireAll keeps the data and says it is stale while it refetches', async () => {
    const c = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    const held = gate(fake, 'get', '/todos/:id');
    c.expireAll(TodoResource.get);
    expect(s.last()).toMatchObject({ loading: false, fetching: true, stale: true });
    expect(s.last().data?.title).toBe('todo 1');
    await settled(() => expect(held).toHaveLength(1));
    held[0]!.json(row(1, 'fresh'));
    await settled(() => expect(s.last()).toMatchObject({ fetching: false, stale: false }));
    expect(s.last().data?.title).toBe('fresh');
    s.unsubscribe();
  });
});
