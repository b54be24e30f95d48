/**
 * Review 14 of `rx-rest/sync` (docs/addons.md: `channel` may be "a `BroadcastChannel` you opened, a
 * `MessagePort`"): two tabs (or a tab and a worker) joined by the two ports of a `MessageChannel`, each port
 * given as it is. In a browser (HTML spec, "message port post message steps"), a port's messages wait in its
 * queue until `start()` is called or `onmessage` is set: `addEventListener('message')` alone does not start it.
 * Node's ports start on `addEventListener`, so the browser's port is written out here over Node's own
 * `EventTarget`, `MessageEvent` and `structuredClone`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint } from '../../../core/index.js';
import { syncTabs, type SyncChannel } from '../../../adapters/sync/index.js';
import { PlainTodo } from '../../fixtures/entities.js';

const getTodo = new RestEndpoint({
  urlPrefix: 'http://review14-sync-port.test',
  path: '/todos/:id',
  schema: PlainTodo,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});
const todo = (id: number, title: string) => ({ id, userId: 1, title, completed: false });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One end of a browser's MessageChannel: messages queue until start() (or setting onmessage). */
class BrowserPort extends EventTarget {
  other: BrowserPort | undefined;
  #queue: unknown[] = [];
  #started = false;
  #closed = false;
  #onmessage: ((event: MessageEvent) => void) | null = null;
  postMessage(message: unknown): void {
    if (!this.#closed) this.other?.receive(structuredClone(message));
  }
  receive(data: unknown): void {
    if (this.#closed) return;
    this.#queue.push(data);
    this.#deliver();
  }
  start(): void {
    this.#started = true;
    this.#deliver();
  }
  close(): void {
    this.#closed = true;
  }
  get onmessage() {
    return this.#onmessage;
  }
  set onmessage(listener: ((event: MessageEvent) => void) | null) {
    if (this.#onmessage) this.removeEventListener('message', this.#onmessage as EventListener);
    this.#onmessage = listener;
    if (listener) {
      this.addEventListener('message', listener as EventListener);
      this.start(); // the spec: setting onmessage starts the port
    }
  }
  #deliver(): void {
    if (!this.#started) return;
    for (const data of this.#queue.splice(0))
      setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data })));
  }
}
function browserChannel() {
  const [port1, port2] = [new BrowserPort(), new BrowserPort()];
  port1.other = port2;
  port2.other = port1;
  return { port1, port2 };
}

const cleanups: (() => void)[] = [];
beforeEach(() => {
  vi.stubGlobal('document', {}); // tabs of a browser
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function tab(port: BrowserPort) {
  const controller = new Controller({ retry: 0, gcTime: Infinity, environment: {} });
  const stop = syncTabs(controller, { channel: port as unknown as SyncChannel });
  cleanups.push(() => (stop(), controller.dispose()));
  return controller;
}

describe('syncTabs over the ports of a MessageChannel, each given as it is', () => {
  it('the ports are started: a change in one end reaches the other, both ways, and the later end is answered', async () => {
    const { port1, port2 } = browserChannel();
    const a = tab(port1);
    a.setResponse(getTodo, { id: 1 }, todo(1, 'before the other end'));
    const b = tab(port2); // its hello is answered by A
    await sleep(20);
    expect(b.get(PlainTodo, { id: 1 })?.title).toBe('before the other end');
    a.setResponse(getTodo, { id: 2 }, todo(2, 'from A'));
    await sleep(20);
    expect(b.get(PlainTodo, { id: 2 })?.title).toBe('from A');
    b.setResponse(getTodo, { id: 3 }, todo(3, 'from B'));
    await sleep(20);
    expect(a.get(PlainTodo, { id: 3 })?.title).toBe('from B');
  });

  it('a port given with no addEventListener (onmessage only) works as before', async () => {
    const { port1, port2 } = browserChannel();
    const onlyOnmessage = (port: BrowserPort) =>
      ({
        postMessage: (message: unknown) => port.postMessage(message),
        close: () => port.close(),
        get onmessage() {
          return port.onmessage;
        },
        set onmessage(listener) {
          port.onmessage = listener;
        },
      }) as SyncChannel;
    const a = new Controller({ retry: 0, gcTime: Infinity, environment: {} });
    const b = new Controller({ retry: 0, gcTime: Infinity, environment: {} });
    const stops = [syncTabs(a, { channel: onlyOnmessage(port1) }), syncTabs(b, { channel: onlyOnmessage(port2) })];
    cleanups.push(() => (stops.forEach((stop) => stop()), a.dispose(), b.dispose()));
    a.setResponse(getTodo, { id: 1 }, todo(1, 'one'));
    await sleep(20);
    expect(b.get(PlainTodo, { id: 1 })?.title).toBe('one');
  });
});
