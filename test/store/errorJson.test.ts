/**
 * API.md "The controller and the store": `getState()` survives JSON and `new Controller({ initialState })`
 * restores it. An error in the state's meta that is a plain `Error` (or a subclass without its own `toJSON`),
 * whose `name` and `message` are not enumerable, keeps its name, message and status through that JSON, and the
 * state still holds the very error that was stored.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../core/index.js';
import { useControllers } from '../fixtures/controllers.js';
import { TodoResource, record, settled, useTodoServer } from '../reliability/faultHarness.js';

useTodoServer();
const { make } = useControllers();
const restored = (from: Controller) => make({ initialState: JSON.parse(JSON.stringify(from.getState())) });

class QuotaError extends Error {
  override name = 'QuotaError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

describe('a plain Error in the state, through getState() JSON and initialState', () => {
  it('setError with a plain Error: its name, message and status are restored; the state holds the same error', () => {
    const server = make();
    const down = Object.assign(new Error('the service is down'), { status: 503 });
    server.setError(TodoResource.get, { id: 1 }, down);
    expect(server.getState().meta[TodoResource.get.key({ id: 1 })]?.error).toBe(down);
    const c = restored(server);
    const error = c.getState().meta[TodoResource.get.key({ id: 1 })]?.error as Error & { status?: number };
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('Error');
    expect(error.message).toBe('the service is down');
    expect(error.status).toBe(503);
    // and again: the restored state is JSON too
    const again = restored(c).getState().meta[TodoResource.get.key({ id: 1 })]?.error;
    expect(again?.message).toBe('the service is down');
  });

  it('a subclass without its own toJSON keeps its name and message; the error object is not changed otherwise', () => {
    const server = make();
    const quota = new QuotaError('over quota', 429);
    server.setError(TodoResource.get, { id: 2 }, quota);
    expect(Object.keys(quota)).toEqual(Object.keys(new QuotaError('x', 1)));
    expect(quota.message).toBe('over quota');
    const error = restored(server).getState().meta[TodoResource.get.key({ id: 2 })]?.error as Error & {
      status?: number;
    };
    expect(error.name).toBe('QuotaError');
    expect(error.message).toBe('over quota');
    expect(error.status).toBe(429);
  });

  it('a frozen error is stored as it is (nothing is added to it)', () => {
    const server = make();
    const frozen = Object.freeze(new Error('frozen'));
    expect(() => server.setError(TodoResource.get, { id: 3 }, frozen)).not.toThrow();
    expect(server.getState().meta[TodoResource.get.key({ id: 3 })]?.error).toBe(frozen);
    expect(() => JSON.stringify(server.getState())).not.toThrow();
  });

  it('a plain Error a custom parseResponse throws, as the request failed: restored with its name and message', async () => {
    const server = make();
    const thrown = new TypeError('the body is not a todo');
    const endpoint = TodoResource.get.extend({
      parseResponse: () => Promise.reject(thrown),
    });
    const s = record(server.observe(endpoint, { id: 1 }));
    await settled(() => expect(s.last().error).toBe(thrown));
    s.unsubscribe();
    const error = restored(server).getState().meta[endpoint.key({ id: 1 })]?.error;
    expect(error?.name).toBe('TypeError');
    expect(error?.message).toBe('the body is not a todo');
  });
});
