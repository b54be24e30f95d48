/**
 * `setError(endpoint, ...args, error)` given something that is not an error (a string, `undefined`, a forgotten
 * last argument): a TypeError that names the argument and the call, and nothing in the store changes.
 */
import { describe, expect, it } from 'vitest';
import { TodoResource, useTodoServer } from '../../reliability/faultHarness.js';
import { useControllers } from '../../review10/fixtures.js';

useTodoServer();
const { make } = useControllers();

describe('setError with a value that is not an error', () => {
  it.each([
    ['a string', 'it failed'],
    ['undefined', undefined],
    ['null', null],
    ['a number', 404],
  ])('%s: a TypeError naming the error argument; the store keeps what it held', async (_, value) => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const before = c.getState();
    let thrown: unknown;
    try {
      c.setError(TodoResource.get, { id: 1 }, value as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toContain('setError');
    expect((thrown as Error).message).toMatch(/\berror\b/);
    expect(c.getState()).toBe(before);
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('todo 1');
  });

  it('an error-like object (a message and a status) is stored and shown as the error', async () => {
    const c = make();
    c.setError(TodoResource.get, { id: 2 }, { name: 'HttpError', message: 'gone', status: 410 } as never);
    expect(c.getState().meta[TodoResource.get.key({ id: 2 })]?.error).toMatchObject({ message: 'gone', status: 410 });
  });
});
