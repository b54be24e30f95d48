/**
 * An `expireAll` made during a server render whose clock is minutes ahead of the browser's: the mark's expiry
 * (the server's now) is still in the browser's future. Restored (initialState or restoreSnapshot, so the SSR
 * helpers and persist too), the key reads stale, as the server meant: its observers show the data and refetch
 * it once in the background. A key the server left fresh still hydrates fresh, with no request.
 */
import { describe, expect, it } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot } from '../../../core/index.js';
import { TodoResource, flush, record, todoGets, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();
const ahead = () => Date.now() + 5 * 60_000;

async function serverState(expire: boolean) {
  const server = new Controller({ retry: 0, now: ahead, environment: {} });
  await server.fetch(TodoResource.get, { id: 1 });
  await server.fetch(TodoResource.get, { id: 2 });
  if (expire) server.expireAll(TodoResource.get);
  const state = JSON.parse(JSON.stringify(takeSnapshot(server))) as unknown;
  server.dispose();
  fake.requests.length = 0;
  return state;
}

function client(how: 'initialState' | 'restoreSnapshot', state: unknown) {
  const c = new Controller({ retry: 0, environment: {}, ...(how === 'initialState' ? { initialState: state } : {}) });
  if (how === 'restoreSnapshot') restoreSnapshot(c, state);
  return c;
}

describe('an expireAll stamped by a server clock minutes ahead', () => {
  for (const how of ['initialState', 'restoreSnapshot'] as const) {
    it(`restored by ${how}: the keys read stale, keep their data and are refetched once`, async () => {
      const c = client(how, await serverState(true));
      expect(c.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ stale: true, invalid: false });
      const states = record(c.observe(TodoResource.get, { id: 1 }));
      expect(states.values[0]).toMatchObject({ stale: true, loading: false, fetching: true });
      expect(states.values[0]?.data).toMatchObject({ id: 1 });
      for (let round = 0; round < 10 && todoGets(fake, 1) < 3; round++) await flush(5);
      states.unsubscribe();
      expect(todoGets(fake, 1)).toBe(1);
      expect(c.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ stale: false });
      expect(c.getResponse(TodoResource.get, { id: 2 })).toMatchObject({ stale: true });
      c.dispose();
    });

    it(`restored by ${how} without the mark: the keys hydrate fresh, no request`, async () => {
      const c = client(how, await serverState(false));
      expect(c.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ stale: false });
      const states = record(c.observe(TodoResource.get, { id: 1 }));
      await flush(10);
      states.unsubscribe();
      expect(todoGets(fake, 1)).toBe(0);
      c.dispose();
    });
  }
});
