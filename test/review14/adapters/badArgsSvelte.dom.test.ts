/**
 * rx-rest/svelte: args the endpoint makes no URL of (a required path parameter missing or `undefined`, as while a
 * route parameter loads) are an error state, as `controller.observe` gives them, not an exception thrown from the
 * store's `subscribe` or `get(store)`; nothing is requested, and args that make a URL switch the query back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, writable } from 'svelte/store';
import { firstValueFrom } from 'rxjs';
import { Controller } from '../../../core/index.js';
import { createQuery } from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { settled } from '../../reliability/faultHarness.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

const badArgs = { id: undefined } as unknown as { id: number };

describe('args that make no URL', () => {
  it('createQuery: the error state controller.observe gives, from subscribe and from get(store); no request', async () => {
    const controller = new Controller({ retry: 0 });
    const observed = await firstValueFrom(controller.observe(TodoResource.get, badArgs));
    expect(observed.error).toBeInstanceOf(Error);
    const todo = createQuery(TodoResource.get, badArgs, controller);
    const states: { error?: Error; data?: unknown }[] = [];
    const stop = todo.subscribe((state) => states.push(state));
    expect(states.at(-1)?.error?.message).toBe(observed.error!.message);
    expect(states.at(-1)?.data).toBeUndefined();
    expect(get(todo).error?.message).toBe(observed.error!.message);
    stop();
    expect(get(todo).error?.message).toBe(observed.error!.message); // no subscriber: peeked
    expect(fake.requests).toEqual([]);
  });

  it('args from a store: undefined, then an id, then undefined again', async () => {
    const controller = new Controller({ retry: 0 });
    const args = writable(badArgs);
    const todo = createQuery(TodoResource.get, args, controller);
    const stop = todo.subscribe(() => {});
    expect(get(todo).error).toBeInstanceOf(Error);
    args.set({ id: 2 });
    await settled(() => expect(get(todo).data?.title).toBe('todo 2'));
    expect(get(todo).error).toBeUndefined();
    args.set(badArgs);
    await settled(() => expect(get(todo).error).toBeInstanceOf(Error));
    stop();
  });
});
