/**
 * rx-rest/sync: a stamp from another tab far ahead of this tab's clock (8.64e15, the last time a Date holds, or
 * an hour ahead) would become the newest write this tab knows, and its own later stamps could no longer pass it
 * (at 8.64e15 they stop growing at all): ordering would fall to arrival order. Such a message is ignored with a
 * warning naming the stamp, as other bad messages are, and nothing in the store is lost.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, Entity } from '../../../core/index.js';
import { syncTabs, type SyncChannel } from '../../../adapters/sync/index.js';

class Todo extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

const MAX_TIME = 8.64e15;
let warn: ReturnType<typeof vi.fn<(...args: unknown[]) => void>>;
beforeEach(() => {
  warn = vi.fn();
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith('controller.')) warn(...args);
  });
});
afterEach(() => vi.restoreAllMocks());

/** A tab synced through a channel the test delivers to by hand (at once). */
function tabOn() {
  const posted: unknown[] = [];
  const channel: SyncChannel = { postMessage: (m) => posted.push(m), close: () => {}, onmessage: null };
  const controller = new Controller({ retry: 0, gcTime: Infinity });
  const stop = syncTabs(controller, { channel });
  const deliver = (message: unknown) => channel.onmessage!({ data: message } as MessageEvent);
  return { controller, posted, deliver, dispose: () => (stop(), controller.dispose()) };
}

const base = { format: 'rx-rest/sync@1', version: 2, from: 'another tab', kind: 'snapshot' } as const;
/** A message from another tab writing todo `id` at `stamp` (and a request key's result at `keyStamp`). */
const todoAt = (id: number, title: string, stamp: number, keyStamp?: number) => ({
  ...base,
  snapshot: {
    entities: { Todo: { [id]: { id, title } } },
    entitiesMeta: {
      Todo: { [id]: { date: Math.min(stamp, Date.now()), fetchedAt: stamp, expiresAt: stamp + 60_000 } },
    },
    endpoints: keyStamp === undefined ? {} : { 'GET /todos': [`${id}`] },
    meta:
      keyStamp === undefined ? {} : { 'GET /todos': { date: Date.now(), fetchedAt: keyStamp, expiresAt: keyStamp } },
  },
});

describe('a stamp far ahead of this tab’s clock', () => {
  it('8.64e15, an hour ahead: the message is ignored with a warning naming it; the store and later stamps are unharmed', () => {
    const { controller, deliver, dispose } = tabOn();
    controller.set(Todo, { id: 1, title: 'kept' });
    const before = controller.getState();
    const hostile = [
      todoAt(1, 'hostile', MAX_TIME),
      todoAt(2, 'hostile', Date.now() + 3_600_000),
      todoAt(3, 'hostile', Date.now(), MAX_TIME), // a request key's stamp
      todoAt(4, 'hostile', MAX_TIME - 1),
    ];
    for (const message of hostile) deliver(message);
    expect(controller.getState()).toBe(before);
    expect(warn).toHaveBeenCalledTimes(hostile.length);
    for (const [index, [prefix, text, message]] of warn.mock.calls.entries()) {
      expect(prefix).toBe('rx-rest/sync:');
      expect(text).toMatch(
        /^ignored a message with a stamp ahead of this tab's clock \((entitiesMeta\.Todo\.\d|meta\.GET \/todos)\.fetchedAt: \d+ is more than 10 minutes after now\):$/,
      );
      expect(message).toBe(hostile[index]);
    }
    // this tab's writes go on in order, each later than the last, and a genuine later write from another tab wins
    controller.set(Todo, { id: 1, title: 'mine' });
    const first = controller.getState().entitiesMeta.Todo!['1']!.fetchedAt;
    controller.set(Todo, { id: 1, title: 'mine again' });
    const second = controller.getState().entitiesMeta.Todo!['1']!.fetchedAt;
    expect(second).toBeGreaterThan(first);
    expect(second).toBeLessThan(Date.now() + 1_000);
    deliver(todoAt(1, 'a later write elsewhere', second + 1));
    expect(controller.get(Todo, { id: 1 })?.title).toBe('a later write elsewhere');
    dispose();
  });

  it('a reset stamped far ahead is ignored too; one a minute ahead (clock skew) and a snapshot so stamped apply', () => {
    const { controller, deliver, dispose } = tabOn();
    controller.set(Todo, { id: 1, title: 'kept' });
    const before = controller.getState();
    const reset = { format: 'rx-rest/sync@1', version: 2, from: 'another tab', kind: 'reset', at: MAX_TIME };
    deliver(reset);
    expect(controller.getState()).toBe(before);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![1]).toMatch(/^ignored a message with a stamp ahead of this tab's clock \(lastReset: /);
    const skewed = Date.now() + 60_000;
    deliver(todoAt(2, 'a minute ahead', skewed));
    expect(controller.get(Todo, { id: 2 })?.title).toBe('a minute ahead');
    deliver({ ...reset, at: skewed + 1 });
    expect(controller.get(Todo, { id: 1 })).toBeUndefined(); // the reset applied
    expect(warn).toHaveBeenCalledTimes(1);
    dispose();
  });
});
