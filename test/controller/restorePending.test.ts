/**
 * A `getState()` taken while an optimistic push is in flight survives `JSON.stringify` and restores (API.md): a
 * layer's schema (a graph with cycles) is not enumerable, and the layers are not restored.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Controller } from '../../core/index.js';
import { createTodoServer } from '../fixtures/todoServer.js';
import { TodoResource } from '../fixtures/todoResource.js';

const fake = createTodoServer(3);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

it('is JSON, and restores the state under the optimistic layers of the mutations in flight', async () => {
  const controller = new Controller();
  await controller.fetch(TodoResource.getList, { userId: 1 });
  fake.setLatency(20);
  const push = controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
  expect(controller.getState().optimistic).toHaveLength(1);
  const fresh = new Controller({ initialState: controller.getState() });
  const json = JSON.parse(JSON.stringify(controller.getState())) as unknown;
  expect(new Controller({ initialState: json }).getState().optimistic).toEqual([]);
  expect(fresh.getState().optimistic).toEqual([]);
  expect(fresh.getResponse(TodoResource.getList, { userId: 1 }).data!.map((todo) => todo.title)).toEqual([
    'todo 1',
    'todo 3',
  ]);
  await push;
  fresh.dispose();
  controller.dispose();
});
