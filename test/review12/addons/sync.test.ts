/**
 * Outside review of `rx-rest/sync` (API.md "Add-on entry points": a `BroadcastChannel` between tabs; a
 * response, `set`, invalidation or reset in one tab applies in the others, with no echo loop; a teardown),
 * as a user of TanStack Query's broadcastQueryClient would test it. Tabs are controllers in one process on
 * Node 20's BroadcastChannel; a hostile page on the channel is a raw BroadcastChannel.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, takeSnapshot } from '../../../core/index.js';
import { syncTabs } from '../../../adapters/sync/index.js';
import { PlainTodo } from '../../fixtures/entities.js';

const getTodo = new RestEndpoint({
  urlPrefix: 'http://review12-sync.test',
  path: '/todos/:id',
  schema: PlainTodo,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});
const todo = (id: number, title: string) => ({ id, userId: 1, title, completed: false });

let name = '';
let names = 0;
let cleanups: (() => void)[] = [];
beforeEach(() => {
  name = `review12-sync-${++names}-${Math.random()}`;
  vi.stubGlobal('document', {}); // tabs of a browser
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (check: () => void) => {
  for (let i = 0; ; i++) {
    try {
      check();
      return;
    } catch (error) {
      if (i > 200) throw error;
      await sleep(10);
    }
  }
};

function tab() {
  let stop!: () => void;
  const c = new Controller({ retry: 0, environment: {}, managers: [(c) => (stop = syncTabs(c, { channel: name }))] });
  cleanups.push(() => c.dispose());
  return { c, stop: () => stop() };
}

/** Every message on this test's channel, and a way to post as a hostile page. */
function page() {
  const channel = new BroadcastChannel(name);
  const messages: any[] = [];
  channel.onmessage = (event) => messages.push(event.data);
  cleanups.push(() => channel.close());
  return { messages, post: (message: unknown) => channel.postMessage(message) };
}

describe('syncTabs: echo and loops', () => {
  it('syncTabs started twice on one controller: changes reach the other tab, and the messages stop', async () => {
    const a = tab();
    const again = syncTabs(a.c, { channel: name });
    cleanups.push(again);
    const b = tab();
    const spy = page();
    await sleep(30);
    spy.messages.length = 0;
    a.c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await until(() => expect(b.c.get(PlainTodo, { id: 1 })?.title).toBe('one'));
    await sleep(150);
    const settled = spy.messages.length;
    await sleep(150);
    expect(spy.messages.length).toBe(settled); // no loop
    expect(settled).toBeLessThanOrEqual(4);
  });

  it('a thousand changes in one tab: the other ends with the last of each, and the channel falls silent', async () => {
    const a = tab();
    const b = tab();
    const spy = page();
    for (let i = 0; i < 1_000; i++) a.c.setResponse(getTodo, { id: i % 10 }, todo(i % 10, `v${i}`));
    await until(() => expect(b.c.get(PlainTodo, { id: 9 })?.title).toBe('v999'));
    for (let id = 0; id < 10; id++) expect(b.c.get(PlainTodo, { id })?.title).toBe(`v${990 + id}`);
    await sleep(50);
    const n = spy.messages.length;
    await sleep(100);
    expect(spy.messages.length).toBe(n);
  });
});

describe('syncTabs: hostile pages on the channel', () => {
  it.each([
    ['a message whose snapshot is a huge string', (m: any) => ({ ...m, snapshot: 'x'.repeat(1_000_000) })],
    ['entities as an array', (m: any) => ({ ...m, snapshot: { ...m.snapshot, entities: [1, 2] } })],
    [
      'a table of records that are numbers',
      (m: any) => ({ ...m, snapshot: { ...m.snapshot, entities: { PlainTodo: { '1': 5 } } } }),
    ],
    [
      'endpoints holding a result for an unknown key shape',
      (m: any) => ({ ...m, snapshot: { ...m.snapshot, endpoints: { 'GET x': { nested: { deep: [1] } } }, meta: {} } }),
    ],
    [
      'a hello to nobody, with a huge id',
      (m: any) => ({ ...m, kind: 'hello', from: 'x'.repeat(100_000), snapshot: undefined }),
    ],
    ['a snapshot addressed to another tab', (m: any) => ({ ...m, to: 'someone-else' })],
  ])('%s: the tab throws nothing, keeps its data, and still syncs', async (_, forge) => {
    const a = tab();
    const b = tab();
    const spy = page();
    a.c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await until(() => expect(b.c.get(PlainTodo, { id: 1 })?.title).toBe('one'));
    const genuine = spy.messages.find((m) => m.kind === 'snapshot');
    expect(genuine).toBeDefined();
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    cleanups.push(() => process.off('uncaughtException', onError));
    spy.post(forge(structuredClone(genuine)));
    await sleep(30);
    expect(errors).toEqual([]);
    expect(b.c.get(PlainTodo, { id: 1 })?.title).toBe('one');
    a.c.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    await until(() => expect(b.c.get(PlainTodo, { id: 2 })?.title).toBe('two'));
  });
});

describe('syncTabs: a reset stamped far in the future (a forged or skewed clock)', () => {
  // (review13: a stamp far ahead of the tab's clock is refused, not applied: see test/review13/sync/futureStamps.test.ts)
  it('is ignored (the tab keeps its data), and what any tab writes later is still written and shown', async () => {
    const a = tab();
    const b = tab();
    const spy = page();
    a.c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await until(() => expect(b.c.get(PlainTodo, { id: 1 })?.title).toBe('one'));
    const genuine = spy.messages.find((m) => m.kind === 'snapshot');
    spy.post({ ...genuine, from: 'a hostile page', kind: 'reset', at: 8.64e15, snapshot: undefined });
    await sleep(30);
    expect(b.c.get(PlainTodo, { id: 1 })?.title).toBe('one');
    a.c.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    await until(() => expect(b.c.get(PlainTodo, { id: 2 })?.title).toBe('two'));
    b.c.setResponse(getTodo, { id: 3 }, todo(3, 'three'));
    expect(b.c.get(PlainTodo, { id: 3 })?.title).toBe('three');
    // two writes of one record after it, in one millisecond: the later one wins in both tabs
    a.c.setResponse(getTodo, { id: 4 }, todo(4, 'first'));
    a.c.setResponse(getTodo, { id: 4 }, todo(4, 'second'));
    await until(() => expect(b.c.get(PlainTodo, { id: 4 })?.title).toBe('second'));
    expect(a.c.get(PlainTodo, { id: 4 })?.title).toBe('second');
  });
});

describe('syncTabs: dispose', () => {
  it('a tab disposed while its message is on its way: the other applies it; the disposed one receives nothing more and throws nothing', async () => {
    const a = tab();
    const b = tab();
    a.c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    a.c.dispose();
    await until(() => expect(b.c.get(PlainTodo, { id: 1 })?.title).toBe('one'));
    b.c.setResponse(getTodo, { id: 2 }, todo(2, 'two'));
    await sleep(30);
    expect(takeSnapshot(a.c).entities.PlainTodo?.['2']).toBeUndefined();
  });

  it('a tab that receives a message after its teardown but before its controller is disposed ignores it', async () => {
    const a = tab();
    const b = tab();
    b.stop();
    a.c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await sleep(50);
    expect(b.c.get(PlainTodo, { id: 1 })).toBeUndefined();
  });

  it('a deletion reaches a tab that opens later and never read the record', async () => {
    const a = tab();
    a.c.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    const b = tab();
    await until(() => expect(b.c.get(PlainTodo, { id: 1 })?.title).toBe('one'));
    a.c.invalidate(getTodo, { id: 1 });
    await until(() => expect(b.c.getResponse(getTodo, { id: 1 }).invalid).toBe(true));
  });
});
