/**
 * A request that runs beside a key's shared request (its endpoint has a `signal` or `timeout` of its own, or a
 * later request took its place as the key's request in flight) is still one its observers wanted: when the
 * last of them leaves it is aborted as the shared one is, and no late answer changes the store.
 */
import { describe, expect, it } from 'vitest';
import { TodoResource, flush, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { outcome, resolvesTo, row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make } = useControllers();

describe('the last observer leaves while its request runs beside the shared one', () => {
  it('a polling refetch with its own timeout beside a plain fetch is aborted, and its late answer is not stored', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const Polled = TodoResource.get.extend({ timeout: 60_000, pollFrequency: 60_000 });
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    // no data yet: the poll starts at once, beside the plain fetch (another timeout)
    const s = record(c.observe(Polled, { id: 1 }));
    await settled(() => expect(held).toHaveLength(2));
    s.unsubscribe();
    await settled(() => expect(held[1]!.aborted).toBe(true));
    held[0]!.json(row(1, 'plain answer'));
    await resolvesTo(plain, 'plain answer');
    // were it still running, its answer (started later) would win the record
    if (!held[1]!.aborted) held[1]!.json(row(1, 'late answer'));
    await flush();
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('plain answer');
    expect(c.getState().entities.Todo?.['1']).toMatchObject({ title: 'plain answer' });
  });

  it('an observer’s refetch that a plain fetch displaced as the key’s request is aborted when the observer leaves', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const Get = TodoResource.get.extend({ signal: new AbortController().signal });
    const s = record(c.observe(Get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    // another signal: the fetch does not share the observer's request, and becomes the key's request
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(2));
    s.unsubscribe();
    await settled(() => expect(held[0]!.aborted).toBe(true));
    expect(held[1]!.aborted).toBe(false); // a fetch awaits it
    held[1]!.json(row(1, 'plain answer'));
    await resolvesTo(plain, 'plain answer');
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('plain answer');
  });

  it('an observer that stays keeps its request beside the shared one, and it is stored', async () => {
    const c = make();
    const held = gate(fake, 'get', '/todos/:id');
    const Polled = TodoResource.get.extend({ timeout: 60_000, pollFrequency: 60_000 });
    const plain = outcome(c.fetch(TodoResource.get, { id: 1 }));
    await settled(() => expect(held).toHaveLength(1));
    const s = record(c.observe(Polled, { id: 1 }));
    const other = record(c.observe(Polled, { id: 1 }));
    await settled(() => expect(held).toHaveLength(2));
    s.unsubscribe(); // one observer of two leaves: nothing is aborted
    await flush();
    expect(held.map((h) => h.aborted)).toEqual([false, false]);
    held[0]!.json(row(1, 'plain answer'));
    await resolvesTo(plain, 'plain answer');
    held[1]!.json(row(1, 'polled answer'));
    await settled(() => expect(other.last().data?.title).toBe('polled answer'));
    other.unsubscribe();
  });
});

describe('the last observer leaves just after the answer arrived', () => {
  it('whenever it leaves after the body was read, the store holds what it held when it left', async () => {
    for (let depth = 0; depth < 16; depth++) {
      const c = make();
      let leave = () => {};
      const Get = TodoResource.get.extend({
        parseResponse: async (response: Response) => {
          const body: unknown = await response.json();
          // the observer leaves `depth` microtasks after the body is read, before or after it is written
          let later = Promise.resolve();
          for (let i = 0; i < depth; i++) later = later.then(() => undefined);
          void later.then(() => leave());
          return body;
        },
      });
      let heldAtLeave: unknown = 'not left';
      const s = record(c.observe(Get, { id: 1 }));
      leave = () => {
        heldAtLeave = c.getState().entities.Todo?.['1'];
        s.unsubscribe();
      };
      await settled(() => expect(heldAtLeave).not.toBe('not left'));
      await flush();
      expect(c.getState().entities.Todo?.['1'], `left ${depth} microtasks after the body`).toBe(heldAtLeave);
    }
  });
});
