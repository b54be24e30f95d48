/**
 * Outside review of API.md "Server rendering": `new Controller({ fetch })` sends every request through the
 * given fetch (an endpoint's own `fetchResponse` still wins); outside a browser requests are not retried
 * unless `retry` is given; a key written while nobody observes it is kept at least `gcTime` from that
 * write; a state carried from the server hydrates without a request, also from a server whose clock is a
 * little ahead, and one dated far ahead is not fresh for longer than the endpoint's lifetime.
 */
import { describe, expect, it } from 'vitest';
import { Controller, NetworkError, restoreSnapshot, takeSnapshot } from '../../../core/index.js';
import { API, TodoResource, flush, record, useTodoServer } from '../../reliability/faultHarness.js';
import { counter, json, useControllers } from '../../review10/fixtures.js';

const fake = useTodoServer();
const count = counter(fake);
const { make, track } = useControllers({});

describe('server rendering', () => {
  it('new Controller({ fetch }): every request goes through it; an endpoint’s fetchResponse still wins', async () => {
    const seen: string[] = [];
    const c = make({
      fetch: (input, init) => {
        seen.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return fetch(input, init);
      },
    });
    await c.fetch(TodoResource.get, { id: 1 });
    await c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'patched' });
    expect(seen).toEqual([`GET ${API}/todos/1`, `PATCH ${API}/todos/1`]);
    const own = TodoResource.get.extend({
      fetchResponse: () => Promise.resolve(Response.json({ id: 9, userId: 1, title: 'own', completed: false })),
    });
    expect((await c.fetch(own, { id: 9 })).title).toBe('own');
    expect(seen).toHaveLength(2);
  });

  it('outside a browser a failing request is not retried unless retry is given', async () => {
    fake.fail('GET', 503, 10);
    const c = track(new Controller());
    const error = await c.fetch(TodoResource.get, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(count('GET /todos/1')).toBe(1);
    const retried = track(new Controller({ retry: 1, retryDelay: () => 0 }));
    await retried.fetch(TodoResource.get, { id: 1 }).catch(() => undefined);
    expect(count('GET /todos/1')).toBe(3);
  });

  it('a prefetched key nobody observes is kept at least gcTime from its write', async () => {
    let now = 1_000_000;
    const c = make({ now: () => now, gcTime: 60_000 });
    await c.fetch(TodoResource.get, { id: 2 });
    c.gc();
    now += 59_000;
    c.gc();
    expect(c.getResponse(TodoResource.get, { id: 2 }).data?.title).toBe('todo 2');
  });

  it('a state from the server (its clock a few seconds ahead) hydrates at once, fresh, with no request', async () => {
    let serverNow = Date.now() + 4_000;
    const server = make({ now: () => serverNow });
    await server.fetch(TodoResource.getList, {});
    serverNow += 1;
    const carried = json(takeSnapshot(server));
    fake.requests.length = 0;
    const restored = () => {
      const browser = make();
      restoreSnapshot(browser, carried);
      return browser;
    };
    for (const browser of [make({ initialState: carried }), restored()]) {
      const s = record(browser.observe(TodoResource.getList, {}));
      expect(s.values[0]).toMatchObject({ loading: false, fetching: false, stale: false });
      expect(s.values[0]?.data).toHaveLength(4);
      await flush();
      expect(fake.requests).toEqual([]);
      s.unsubscribe();
    }
  });

  it('a state dated a year ahead is fresh no longer than the endpoint’s lifetime from now', async () => {
    const year = 365 * 86_400_000;
    const server = make({ now: () => Date.now() + year });
    await server.fetch(TodoResource.getList, {});
    const carried = json(server.getState());
    let now = Date.now();
    const browser = make({ initialState: carried, now: () => now });
    expect(browser.getResponse(TodoResource.getList, {}).stale).toBe(false);
    now += TodoResource.getList.dataExpiryLength + 1;
    expect(browser.getResponse(TodoResource.getList, {}).stale).toBe(true);
    fake.requests.length = 0;
    const s = record(browser.observe(TodoResource.getList, {}));
    expect(s.values[0]).toMatchObject({ loading: false, stale: true, fetching: true });
    await flush();
    expect(count('GET /todos')).toBe(1);
    s.unsubscribe();
  });
});
