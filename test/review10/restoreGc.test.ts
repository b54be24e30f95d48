/**
 * Outside review (API.md "A key written while nobody observes it (a prefetch ...) is kept at least gcTime from
 * that write"; persist "restores a saved state on start"): restored data is kept gcTime from the restore, however
 * old it was when it was saved, so the app that starts can read it.
 */
import { describe, expect, it } from 'vitest';
import { restoreSnapshot, takeSnapshot } from '../../core/index.js';
import { TodoResource, record, useTodoServer } from '../reliability/faultHarness.js';
import { json, row, useControllers } from './fixtures.js';

useTodoServer();
const { make } = useControllers({}); // the library's defaults, retries included
const key = TodoResource.get.key({ id: 1 });

function savedAnHourAgo() {
  let now = Date.now() - 3_600_000;
  const old = make({ now: () => now });
  old.setResponse(TodoResource.get, { id: 1 }, row(1, 'saved'));
  now += 1;
  return json<unknown>(takeSnapshot(old));
}

describe('restored data that is older than gcTime', () => {
  it('initialState: a collection right after the start keeps it; an observer reads it (stale) at once', () => {
    const c = make({ initialState: savedAnHourAgo(), gcTime: 300_000 });
    c.gc();
    expect(c.getState().endpoints[key]).toBeDefined();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]!.data?.title).toBe('saved');
    expect(s.values[0]!.stale).toBe(true);
    s.unsubscribe();
  });

  it('restoreSnapshot: a collection right after it keeps it', () => {
    const c = make({ gcTime: 300_000 });
    restoreSnapshot(c, savedAnHourAgo());
    c.gc();
    expect(c.getState().endpoints[key]).toBeDefined();
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('saved');
  });
});
