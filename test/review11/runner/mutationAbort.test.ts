/**
 * Outside review (API.md: "a failed mutation leaves the store as it was"; RestEndpoint `signal`): an optimistic
 * mutation aborted by its endpoint's signal rejects as an abort, its optimistic change goes, and its late answer
 * (the server may have applied it) is not written over what the store holds.
 */
import { describe, expect, it } from 'vitest';
import { TodoResource, flush, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { outcome, row, useControllers } from '../../review10/fixtures.js';
import { gate } from '../../review10/gate.js';

const fake = useTodoServer();
const { make } = useControllers();

describe('an optimistic mutation aborted by its signal', () => {
  it('rejects as an abort, rolls back at once, and writes nothing', async () => {
    const c = make();
    const one = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(one.last().data).toBeDefined());
    const shown = one.last().data;
    const held = gate(fake, 'patch', '/todos/:id');
    const abort = new AbortController();
    const Patch = TodoResource.partialUpdate.extend({ signal: abort.signal });
    const patching = outcome(c.fetch(Patch, { id: 1 }, { title: 'aborted' }));
    expect(one.last().data?.title).toBe('aborted');
    await settled(() => expect(held).toHaveLength(1));
    abort.abort();
    await settled(() => expect(patching.done).toBe(true));
    expect((patching.error as Error).name).toBe('AbortError');
    expect(one.last().data).toBe(shown);
    expect(c.getState().optimistic).toEqual([]);
    if (!held[0]!.aborted) held[0]!.json(row(1, 'aborted'));
    await flush();
    expect(one.last().data?.title).toBe('todo 1');
    one.unsubscribe();
  });
});
