/**
 * Concurrency: requests started without waiting for each other, answered out of order. Every
 * `controller.fetch` resolves with its own response (not with what the store holds for its request key
 * when it settles); identical GETs in flight still share one request and one result.
 */
import { HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { Controller } from '../../core/index.js';
import {
  TodoResource,
  answerNext,
  record,
  serverTodos,
  settled,
  useTodoServer,
  type TodoJson,
} from './faultHarness.js';

const fake = useTodoServer();

/** A POST answer that stores the todo when the request arrives and confirms it `ms` later. */
const createThenWait = (ms: number) => async (request: Request) => {
  const body = (await request.json()) as Partial<TodoJson>;
  const id = Math.max(0, ...fake.todos.keys()) + 1;
  const todo: TodoJson = { id, userId: 1, title: '', completed: false, createdAt: '2024-02-01T00:00:00Z', ...body };
  fake.todos.set(id, todo);
  await delay(ms);
  return HttpResponse.json(todo, { status: 201 });
};

describe('each fetch resolves with its own response', () => {
  it('two creates in flight (they share a request key): each resolves the todo the server created for it', async () => {
    const controller = new Controller({ retry: 0 });
    answerNext(fake, 'post', '/todos', createThenWait(30), createThenWait(0));
    const [first, second] = await Promise.all([
      controller.fetch(TodoResource.getList.push, {}, { title: 'first' }),
      controller.fetch(TodoResource.getList.push, {}, { title: 'second' }),
    ]);
    expect({ id: first.id, title: first.title }).toEqual({ id: 5, title: 'first' });
    expect({ id: second.id, title: second.title }).toEqual({ id: 6, title: 'second' });
    expect(first).toBeInstanceOf(TodoResource.get.schema);
  });

  it('a create whose later sibling was deleted meanwhile still resolves its own todo', async () => {
    const controller = new Controller({ retry: 0 });
    answerNext(fake, 'post', '/todos', createThenWait(30), createThenWait(0));
    const first = controller.fetch(TodoResource.getList.push, {}, { title: 'first' });
    const second = await controller.fetch(TodoResource.getList.push, {}, { title: 'second' });
    await controller.fetch(TodoResource.delete, { id: second.id });
    expect((await first).title).toBe('first');
  });

  it('an update answered after a newer GET resolves what the server answered to it; the store keeps the newer read', async () => {
    const controller = new Controller({ retry: 0 });
    await controller.fetch(TodoResource.get, { id: 1 });
    answerNext(fake, 'patch', '/todos/1', async (request) => {
      const body = (await request.json()) as Partial<TodoJson>;
      await delay(20);
      const next = { ...fake.todos.get(1)!, ...body };
      fake.todos.set(1, next);
      return HttpResponse.json(next);
    });
    fake.todos.get(1)!.title = 'old';
    const patched = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'new' });
    await delay(1);
    const read = controller.fetch(TodoResource.get, { id: 1 });
    expect((await read).title).toBe('old');
    expect((await patched).title).toBe('new');
    // the GET started later, so the store shows its answer until the next refetch (the start-time rule)
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('old');
  });

  it('identical GETs in flight share one request and resolve the same object, which observers show', async () => {
    const controller = new Controller({ retry: 0 });
    const stream = record(controller.observe(TodoResource.get, { id: 2 }));
    const [a, b] = await Promise.all([
      controller.fetch(TodoResource.get, { id: 2 }),
      controller.fetch(TodoResource.get, { id: 2 }),
    ]);
    expect(a).toBe(b);
    expect(fake.requests.filter((r) => r === 'GET /todos/2')).toHaveLength(1);
    await settled(() => expect(stream.last().data).toBe(a));
    stream.unsubscribe();
    expect(serverTodos(fake)).toHaveLength(4);
  });
});
