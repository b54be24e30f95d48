/**
 * Two increments (getOptimisticResponse reading the current count: 10 -> 11 -> 12) whose answers arrive out of
 * order. Data Client replays its optimistic layers over the committed state and orders responses by the time
 * their fetch started: the store ends with the answer of the later request (the server's last state), and a
 * failure rolls back exactly its own layer.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import { Counter, getCounter, increment, outcome, until, useLiveServer } from '../../review12/live/harness.js';

const live = useLiveServer();

async function counterAt10() {
  live.counters.set(1, { id: 1, count: 10 });
  const c = new Controller({ retry: 0 });
  await c.fetch(getCounter, { id: 1 });
  live.hold.on = true;
  return c;
}

/** A controller at count 10, its counter observed, and two increments sent (their answers held); `close` ends both. */
async function twoIncrements() {
  const c = await counterAt10();
  const counter = record(c.observe(getCounter, { id: 1 }));
  const a = outcome(c.fetch(increment, { id: 1 }));
  const b = outcome(c.fetch(increment, { id: 1 }));
  const close = () => (counter.unsubscribe(), c.dispose());
  return { c, counter, a, b, close };
}

/** Until both increments' requests are held by the server. */
const bothHeld = () => until(() => live.held.length === 2);

const storedCount = (c: Controller) => (c.getState().entities['Counter']?.['1'] as { count: number }).count;

describe('two increments answered out of order', () => {
  it('both succeed, the later first: the store ends at the later answer (12) and never shows more', async () => {
    const { c, counter, a, b, close } = await twoIncrements();
    expect(counter.last().data?.count).toBe(12);
    await until(() => live.held.length === 2);
    live.held[1]!.json({ id: 1, count: 12 });
    await settled(() => expect(b.done).toBe(true));
    expect(counter.last().data?.count).toBe(12);
    live.held[0]!.json({ id: 1, count: 11 });
    await settled(() => expect(a.done).toBe(true));
    expect(a.value).toMatchObject({ count: 11 });
    expect(b.value).toMatchObject({ count: 12 });
    expect(c.getState().optimistic).toEqual([]);
    expect(storedCount(c)).toBe(12);
    expect(counter.last().data?.count).toBe(12);
    expect(counter.values.map((s) => s.data?.count).filter((n) => n !== undefined && n > 12)).toEqual([]);
    close();
  });

  it('both succeed, in order: 11 then 12', async () => {
    const { c, counter, a, b, close } = await twoIncrements();
    await bothHeld();
    live.held[0]!.json({ id: 1, count: 11 });
    await settled(() => expect(a.done).toBe(true));
    expect(counter.last().data?.count).toBe(12);
    live.held[1]!.json({ id: 1, count: 12 });
    await settled(() => expect(b.done).toBe(true));
    expect(storedCount(c)).toBe(12);
    expect(counter.last().data?.count).toBe(12);
    close();
  });

  it('the earlier succeeds after the later failed: 11, exactly the earlier layer kept then committed', async () => {
    const { c, counter, a, b, close } = await twoIncrements();
    await bothHeld();
    live.held[1]!.json({ message: 'no' }, 500);
    await settled(() => expect(b.done).toBe(true));
    expect(counter.last().data?.count).toBe(11);
    live.held[0]!.json({ id: 1, count: 11 });
    await settled(() => expect(a.done).toBe(true));
    expect(storedCount(c)).toBe(11);
    expect(counter.last().data?.count).toBe(11);
    expect(c.getState().optimistic).toEqual([]);
    close();
  });

  it('the earlier fails after the later succeeded: the later answer stays', async () => {
    const { c, counter, a, b, close } = await twoIncrements();
    await bothHeld();
    live.held[1]!.json({ id: 1, count: 11 });
    await settled(() => expect(b.done).toBe(true));
    live.held[0]!.json({ message: 'no' }, 500);
    await settled(() => expect(a.done).toBe(true));
    expect(storedCount(c)).toBe(11);
    expect(counter.last().data?.count).toBe(11);
    expect(c.getState().optimistic).toEqual([]);
    close();
  });

  for (const load of [true, false])
    for (const clock of ['real', 'frozen'] as const)
      it(`the later first, ${load ? 'loaded' : 'never loaded'}, ${clock} clock: the store ends at the later answer`, async () => {
        live.counters.set(1, { id: 1, count: 10 });
        const c = new Controller({ retry: 0, ...(clock === 'frozen' ? { now: () => 1000 } : {}) });
        if (load) await c.fetch(getCounter, { id: 1 });
        live.hold.on = true;
        const a = outcome(c.fetch(increment, { id: 1 }));
        const b = outcome(c.fetch(increment, { id: 1 }));
        await bothHeld();
        live.held[1]!.json({ id: 1, count: 12 });
        await settled(() => expect(b.done).toBe(true));
        expect(c.get(Counter, { id: 1 })?.count).toBe(12);
        live.held[0]!.json({ id: 1, count: 11 });
        await settled(() => expect(a.done).toBe(true));
        expect(storedCount(c)).toBe(12);
        expect(c.get(Counter, { id: 1 })?.count).toBe(12);
        c.dispose();
      });
});
