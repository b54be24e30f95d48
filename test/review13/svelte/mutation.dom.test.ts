/**
 * An outside review of rx-rest/svelte's createMutation: pending, error and reset as the docs give them, the
 * state of the latest call, an optimistic update shown in a query and rolled back to the very objects.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { get } from 'svelte/store';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createMutation, createQuery } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** PATCH answers after `latency` ms: 400 for the title 'bad', else the todo with the new title. */
const patches = () =>
  server.use(
    http.get(`${API}/todos/:id`, ({ params }) => HttpResponse.json(todoRow(Number(params.id)))),
    http.patch(`${API}/todos/:id`, async ({ request, params }) => {
      const { title, latency = 0 } = (await request.json()) as { title: string; latency?: number };
      await delay(latency);
      if (title === 'bad') return HttpResponse.json({ message: 'bad title' }, { status: 400 });
      return HttpResponse.json({ ...todoRow(Number(params.id)), title });
    }),
  );

describe('createMutation', () => {
  it('a failed optimistic update shows at once, rolls back to the very object, and shows its error until reset', async () => {
    patches();
    const controller = new Controller({ retry: 0 });
    const todo = createQuery(TodoResource.get, { id: 1 }, controller);
    const stop = todo.subscribe(() => {});
    await vi.waitFor(() => expect(get(todo).data?.title).toBe('todo 1'));
    const before = get(todo).data;
    const rename = createMutation(TodoResource.partialUpdate, controller);
    expect(rename).toMatchObject({ pending: false, error: undefined, data: undefined });
    const call = rename.mutate({ id: 1 }, { title: 'bad', latency: 20 } as never);
    expect(rename.pending).toBe(true);
    expect(get(rename).pending).toBe(true);
    expect(get(todo).data?.title).toBe('bad');
    await expect(call).rejects.toMatchObject({ name: 'NetworkError', status: 400 });
    expect(get(todo).data).toBe(before);
    expect(rename.pending).toBe(false);
    expect(rename.error).toMatchObject({ name: 'NetworkError', status: 400 });
    rename.reset();
    expect(get(rename)).toMatchObject({ pending: false, error: undefined, data: undefined });
    stop();
  });

  it('the state follows the latest call: an older failure settling later changes nothing', async () => {
    patches();
    const controller = new Controller({ retry: 0 });
    const rename = createMutation(TodoResource.partialUpdate, controller);
    const older = rename.mutate({ id: 1 }, { title: 'bad', latency: 40 } as never);
    const newer = rename.mutate({ id: 2 }, { title: 'fine', latency: 5 } as never);
    expect((await newer).title).toBe('fine');
    expect(rename).toMatchObject({ pending: false, error: undefined });
    expect(rename.data?.title).toBe('fine');
    await expect(older).rejects.toMatchObject({ status: 400 });
    expect(rename).toMatchObject({ pending: false, error: undefined });
    expect(rename.data?.title).toBe('fine');
  });

  it('a call nobody awaits (onclick) raises no unhandled rejection, and its error shows', async () => {
    patches();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const controller = new Controller({ retry: 0 });
      const rename = createMutation(TodoResource.partialUpdate, controller);
      void rename.mutate({ id: 1 }, { title: 'bad' } as never);
      await vi.waitFor(() => expect(rename.error).toMatchObject({ status: 400 }));
      await delay(20);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
