/**
 * A state from a server whose clock is minutes ahead (`new Controller({ initialState })` in server rendering, or a
 * snapshot from it) may hold an invalidation or expiry mark stamped after every write it holds. This controller
 * stamps its requests after the newest time the state holds: the mark counts among those times, or an answer to a
 * request started before the mark keeps it (the key stays invalid or stale) and the stream asks again after each
 * answer, until the client's clock passes the server's. The state is taken as it is (not bounded more tightly).
 */
import { describe, expect, it } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot } from '../../../core/index.js';
import { TodoResource, flush, record, todoGets, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();
const ahead = () => Date.now() + 5 * 60_000;

async function serverState() {
  const server = new Controller({ retry: 0, now: ahead, environment: {} });
  await server.fetch(TodoResource.get, { id: 1 });
  server.invalidate(TodoResource.get, { id: 1 });
  const state = JSON.parse(JSON.stringify(server.getState())) as unknown;
  server.dispose();
  fake.requests.length = 0;
  return state;
}

describe('an invalidation stamped by a server clock minutes ahead', () => {
  for (const how of ['initialState', 'restoreSnapshot'] as const)
    it(`restored by ${how}: one refetch clears it; no request after each answer`, async () => {
      const state = await serverState();
      const client = new Controller({
        retry: 0,
        environment: {},
        ...(how === 'initialState' ? { initialState: state } : {}),
      });
      if (how === 'restoreSnapshot') restoreSnapshot(client, state);
      const states = record(client.observe(TodoResource.get, { id: 1 }));
      for (let round = 0; round < 10 && todoGets(fake, 1) < 4; round++) await flush(5);
      states.unsubscribe();
      const gets = todoGets(fake, 1);
      const response = client.getResponse(TodoResource.get, { id: 1 });
      const meta = takeSnapshot(client).meta[TodoResource.get.key({ id: 1 })];
      client.dispose();
      expect(gets).toBe(1);
      expect(response).toMatchObject({ invalid: false, stale: false });
      expect(meta?.invalidated).toBeUndefined();
    });
});
