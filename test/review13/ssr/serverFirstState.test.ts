/**
 * What a server renders is what the browser's first render shows: on the server the adapters read
 * `peekQuery` (no subscription), in the browser the query subscribes and renders the first emission of
 * `observe`. For each state a load can leave (data, a failure caught by the load, stale data whose refresh
 * failed), the two agree on data, error and loading, else the hydrated page differs from its HTML.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { Controller, peekQuery, restoreSnapshot, takeSnapshot } from '../../../core/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
});

/** The server's state (peekQuery) and the browser's first one, the server's snapshot restored into a new controller. */
async function bothSides(prepare: (controller: Controller) => Promise<void>) {
  const server = new Controller({ retry: 0 });
  await prepare(server);
  const peeked = peekQuery(server, TodoResource.get, { id: 1 });
  const browser = new Controller({ retry: 0 });
  restoreSnapshot(browser, JSON.parse(JSON.stringify(takeSnapshot(server))));
  const first = await firstValueFrom(browser.observe(TodoResource.get, { id: 1 }));
  const pick = (state: typeof peeked) => ({
    data: state.data?.title,
    error: state.error?.name,
    loading: state.loading,
  });
  return { server: pick(peeked), browser: pick(first) };
}

describe('the server state and the browser first state', () => {
  it('fresh data', async () => {
    const { server, browser } = await bothSides(async (c) => void (await c.fetch(TodoResource.get, { id: 1 })));
    expect(server).toEqual({ data: 'todo 1', error: undefined, loading: false });
    expect(browser).toEqual(server);
  });

  it('a first load that failed (the load caught it)', async () => {
    fake.fail('GET', 500);
    const { server, browser } = await bothSides(async (c) => {
      await c.fetch(TodoResource.get, { id: 1 }).catch(() => {});
    });
    expect(browser).toEqual(server);
  });

  it('stale data whose refresh failed with a 5xx', async () => {
    const { server, browser } = await bothSides(async (c) => {
      await c.fetch(TodoResource.get, { id: 1 });
      c.expireAll(TodoResource.get);
      fake.fail('GET', 503);
      await c.fetch(TodoResource.get, { id: 1 }).catch(() => {});
    });
    expect(server.data).toBe('todo 1');
    expect(browser).toEqual(server);
  });
});
