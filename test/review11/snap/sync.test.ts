/**
 * Outside review of `rx-rest/sync` from API.md alone ("Add-on entry points": `syncTabs(controller,
 * { channel = 'rx-rest' })`: a `BroadcastChannel` between tabs; a response, `set`, invalidation or reset in
 * one tab applies in the others, with no echo loop; returns a teardown; "Server rendering": starting it on
 * a server does nothing and throws nothing). Tabs are controllers in one process on Node's BroadcastChannel.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { syncTabs } from '../../../adapters/sync/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { counter, row } from '../../review10/fixtures.js';

const fake = useTodoServer();
const count = counter(fake);
let name = '';
let names = 0;
let cleanups: (() => void)[] = [];
beforeEach(() => {
  name = `review11-sync-${++names}`;
  vi.stubGlobal('document', {}); // tabs of a browser
});
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A tab on this test's channel; its teardown is returned too. */
function tab() {
  let stop!: () => void;
  const c = new Controller({ retry: 0, managers: [(c) => (stop = syncTabs(c, { channel: name }))] });
  cleanups.push(() => c.dispose());
  return { c, stop: () => stop() };
}

/** Every message on this test's channel. */
function listen() {
  const channel = new BroadcastChannel(name);
  const messages: unknown[] = [];
  channel.onmessage = (event) => messages.push(event.data);
  cleanups.push(() => channel.close());
  return messages;
}

describe('syncTabs', () => {
  it('a response in one tab is shown in the other without a request', async () => {
    const a = tab();
    const b = tab();
    await a.c.fetch(TodoResource.getList, {});
    await settled(() => expect(b.c.getResponse(TodoResource.getList, {}).data).toHaveLength(4));
    const s = record(b.c.observe(TodoResource.getList, {}));
    expect(s.last()).toMatchObject({ loading: false, fetching: false });
    expect(count('GET /todos')).toBe(1);
    s.unsubscribe();
  });

  it('set and invalidate apply in the other tab; its observer refetches once', async () => {
    const a = tab();
    const b = tab();
    await a.c.fetch(TodoResource.get, { id: 1 });
    await settled(() => expect(b.c.get(Todo, { id: 1 })?.title).toBe('todo 1'));
    const s = record(b.c.observe(TodoResource.get, { id: 1 }));
    a.c.set(Todo, { id: 1, title: 'renamed in A' });
    await settled(() => expect(s.last().data?.title).toBe('renamed in A'));
    fake.requests.length = 0;
    a.c.invalidate(TodoResource.get, { id: 1 });
    await settled(() => expect(s.last()).toMatchObject({ fetching: false, loading: false }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    expect(count('GET /todos/1')).toBeGreaterThanOrEqual(1);
    s.unsubscribe();
  });

  it('a reset in one tab empties the other', async () => {
    const a = tab();
    const b = tab();
    await a.c.fetch(TodoResource.get, { id: 2 });
    await settled(() => expect(b.c.get(Todo, { id: 2 })).toBeDefined());
    a.c.resetEntireStore();
    await settled(() => expect(b.c.get(Todo, { id: 2 })).toBeUndefined());
  });

  it('no echo: one change is posted once, and what a tab applies is not posted again', async () => {
    const messages = listen();
    const a = tab();
    tab();
    tab();
    await settled(() => expect(messages.length).toBe(3)); // three hellos (tabs with nothing answer nothing)
    await new Promise((resolve) => setTimeout(resolve, 30));
    const before = messages.length;
    a.c.setResponse(TodoResource.get, { id: 3 }, row(3, 'one change'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages.length - before).toBe(1);
  });

  it('after its teardown a tab neither posts nor applies', async () => {
    const a = tab();
    const b = tab();
    b.stop();
    const messages = listen();
    b.c.setResponse(TodoResource.get, { id: 1 }, row(1, 'b only'));
    a.c.setResponse(TodoResource.get, { id: 2 }, row(2, 'a only'));
    // (a hello answer to tab B may still be on its way: a message `to` one tab)
    const changes = () =>
      messages.filter((m) => (m as { kind?: string }).kind === 'snapshot' && !(m as { to?: string }).to);
    await settled(() => expect(changes()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(b.c.get(Todo, { id: 2 })).toBeUndefined();
    expect(a.c.get(Todo, { id: 1 })).toBeUndefined();
  });

  it('on a server (no document) it does nothing and throws nothing', async () => {
    vi.unstubAllGlobals();
    const warn = vi.spyOn(console, 'warn');
    const a = tab();
    const b = tab();
    a.c.setResponse(TodoResource.get, { id: 1 }, row(1, "one user's"));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(b.c.get(Todo, { id: 1 })).toBeUndefined();
    expect(() => a.stop()).not.toThrow();
    expect(warn).not.toHaveBeenCalled();
  });
});
