/**
 * Outside review (API.md "A key written while nobody observes it (a prefetch ...) is kept at least gcTime from
 * that write"; persist "restores a saved state on start"): restored data is kept gcTime from the restore, however
 * old it was when it was saved, so the app that starts can read it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot } from '../../core/index.js';
import { TodoResource, record, useTodoServer } from '../reliability/faultHarness.js';

useTodoServer();
let controllers: Controller[] = [];
afterEach(() => {
  for (const c of controllers) c.dispose();
  controllers = [];
});
const key = TodoResource.get.key({ id: 1 });
const row = { id: 1, userId: 1, title: 'saved', completed: false, createdAt: '2024-01-01T00:00:00Z' };

function savedAnHourAgo() {
  let now = Date.now() - 3_600_000;
  const old = new Controller({ now: () => now });
  controllers.push(old);
  old.setResponse(TodoResource.get, { id: 1 }, row);
  now += 1;
  return JSON.parse(JSON.stringify(takeSnapshot(old))) as unknown;
}

describe('restored data that is older than gcTime', () => {
  it('initialState: a collection right after the start keeps it; an observer reads it (stale) at once', () => {
    const c = new Controller({ initialState: savedAnHourAgo(), gcTime: 300_000 });
    controllers.push(c);
    c.gc();
    expect(c.getState().endpoints[key]).toBeDefined();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    expect(s.values[0]!.data?.title).toBe('saved');
    expect(s.values[0]!.stale).toBe(true);
    s.unsubscribe();
  });

  it('restoreSnapshot: a collection right after it keeps it', () => {
    const c = new Controller({ gcTime: 300_000 });
    controllers.push(c);
    restoreSnapshot(c, savedAnHourAgo());
    c.gc();
    expect(c.getState().endpoints[key]).toBeDefined();
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('saved');
  });
});
