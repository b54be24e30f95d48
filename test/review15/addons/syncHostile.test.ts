// @vitest-environment jsdom
/**
 * Review 15 of `rx-rest/sync` (docs/addons.md "rx-rest/sync"). Tabs are controllers on an in-memory channel that
 * delivers each message to the other ends, structured-cloned, a microtask later (as a `BroadcastChannel` does,
 * later); a tab can be frozen (in the back/forward cache: it hears nothing).
 * - A tab restored from the back/forward cache (`pageshow` with `persisted: true`) missed what the others changed
 *   while it was frozen: it says hello again, and their answers bring it up to date.
 * - An invalidation or expiry mark (`markedAt`) more than 10 minutes ahead of the tab's clock (a hostile or buggy
 *   tab) is refused as a `fetchedAt` so far ahead is: taken, it would keep the key invalid past every later answer.
 * - Messages of another app on a shared channel (no format marker) are said once per tab, not once each.
 */
import { describe, expect, it } from 'vitest';
import { Controller, takeSnapshot } from '../../../core/index.js';
import { syncTabs, type SyncChannel } from '../../../adapters/sync/index.js';
import { PlainTodo } from '../../fixtures/entities.js';
import { todo, todoEndpoint, useAddonTest } from '../../fixtures/addonTests.js';

const getTodo = todoEndpoint('http://review15-sync-hostile.test');

const { cleanups, warn } = useAddonTest({ reverse: true });

interface End {
  readonly channel: SyncChannel;
  frozen: boolean;
}
/** The ends of one in-memory channel. */
function hub() {
  const ends: End[] = [];
  const deliver = (from: End, message: unknown) => {
    for (const end of ends)
      if (end !== from && !end.frozen) {
        const data = structuredClone(message);
        queueMicrotask(() => end.channel.onmessage?.({ data } as MessageEvent));
      }
  };
  const open = (): End => {
    const end: End = {
      frozen: false,
      channel: { postMessage: (message) => deliver(end, message), close: () => undefined, onmessage: null },
    };
    ends.push(end);
    return end;
  };
  return { open, deliver };
}

function tab(end: End): Controller {
  const controller = new Controller({
    environment: {},
    gcTime: Infinity,
    managers: [(c) => syncTabs(c, { channel: end.channel })],
  });
  cleanups.push(() => controller.dispose());
  return controller;
}
const ticks = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};
const titleIn = (controller: Controller, id: number) =>
  (controller.getResponse(getTodo, { id }).data as PlainTodo | undefined)?.title;

/** `pageshow` as the browser sends it; `persisted`: the page comes back from the back/forward cache. */
function pageshow(persisted: boolean) {
  const event = new Event('pageshow');
  Object.defineProperty(event, 'persisted', { value: persisted });
  window.dispatchEvent(event);
}

describe('sync: a tab back from the back/forward cache', () => {
  it('says hello again and gets what the other tabs changed while it was frozen', async () => {
    const channel = hub();
    const a = channel.open();
    const b = channel.open();
    const one = tab(a);
    const two = tab(b);
    one.setResponse(getTodo, { id: 1 }, todo(1, 'before'));
    await ticks();
    expect(titleIn(two, 1)).toBe('before');
    b.frozen = true; // the page is hidden into the back/forward cache
    one.setResponse(getTodo, { id: 1 }, todo(1, 'changed meanwhile'));
    one.setResponse(getTodo, { id: 2 }, todo(2, 'made meanwhile'));
    await ticks();
    expect(titleIn(two, 1)).toBe('before');
    b.frozen = false;
    pageshow(true);
    await ticks();
    expect(titleIn(two, 1)).toBe('changed meanwhile');
    expect(titleIn(two, 2)).toBe('made meanwhile');
  });

  it('a first pageshow (not from the cache) sends no second hello', async () => {
    const channel = hub();
    const a = channel.open();
    const listen = channel.open(); // a listener that counts hellos
    const hellos: unknown[] = [];
    listen.channel.onmessage = (event) =>
      void ((event.data as { kind?: string }).kind === 'hello' && hellos.push(event.data));
    tab(a);
    await ticks();
    expect(hellos).toHaveLength(1);
    pageshow(false);
    await ticks();
    expect(hellos).toHaveLength(1);
    pageshow(true);
    await ticks();
    expect(hellos).toHaveLength(2);
  });

  it('a tab torn down says nothing on pageshow', async () => {
    const channel = hub();
    const a = channel.open();
    const listen = channel.open();
    const hellos: unknown[] = [];
    listen.channel.onmessage = (event) =>
      void ((event.data as { kind?: string }).kind === 'hello' && hellos.push(event.data));
    tab(a).dispose();
    await ticks();
    pageshow(true);
    await ticks();
    expect(hellos).toHaveLength(1);
  });
});

describe('sync: a mark stamped far ahead', () => {
  /** A message of another tab whose snapshot invalidates todo 1's result with `markedAt`. */
  function markMessage(markedAt: number) {
    const source = new Controller({ environment: {}, gcTime: Infinity });
    source.setResponse(getTodo, { id: 1 }, todo(1, 'from the hostile tab'));
    source.invalidate(getTodo, { id: 1 });
    const snapshot = JSON.parse(JSON.stringify(takeSnapshot(source, { invalid: true })));
    source.dispose();
    snapshot.meta[getTodo.key({ id: 1 })].markedAt = markedAt;
    return { format: 'rx-rest/sync@1', version: 2, from: 'hostile', kind: 'snapshot', snapshot };
  }

  for (const [name, ahead] of [
    ['a year ahead', Date.now() + 365 * 24 * 3600_000],
    ['beyond what a Date holds', 1e16],
  ] as const)
    it(`a markedAt ${name} is ignored with a warning, and the key's later answers read valid`, async () => {
      const channel = hub();
      const a = channel.open();
      const controller = tab(a);
      await ticks();
      controller.setResponse(getTodo, { id: 1 }, todo(1, 'mine'));
      channel.deliver(channel.open(), markMessage(ahead));
      await ticks();
      expect(warn.mock.calls.some((call) => /ahead of this tab's clock/.test(String(call[1] ?? call[0])))).toBe(true);
      controller.setResponse(getTodo, { id: 1 }, todo(1, 'answered later'));
      expect(controller.getResponse(getTodo, { id: 1 })).toMatchObject({ invalid: false, stale: false });
      expect(titleIn(controller, 1)).toBe('answered later');
    });

  it('a markedAt of now is taken: the invalidation applies', async () => {
    const channel = hub();
    const controller = tab(channel.open());
    await ticks();
    channel.deliver(channel.open(), markMessage(Date.now()));
    await ticks();
    expect(controller.getResponse(getTodo, { id: 1 })).toMatchObject({ invalid: true });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('sync: messages of another app on the channel', () => {
  it('are said once per tab, while malformed rx-rest messages are each warned about', async () => {
    const channel = hub();
    tab(channel.open());
    await ticks();
    const other = channel.open();
    for (let i = 0; i < 5; i++) channel.deliver(other, { type: 'another-app', i });
    channel.deliver(other, 'a string');
    await ticks();
    expect(warn).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 2; i++)
      channel.deliver(other, { format: 'rx-rest/sync@1', version: 2, from: 'x', kind: 'snapshot', snapshot: 1 });
    await ticks();
    expect(warn).toHaveBeenCalledTimes(3);
  });
});
