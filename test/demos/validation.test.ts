/**
 * The demos' Todo validates what the server sends (demos/api.ts, valibot): the seed passes, a todo of the
 * wrong shape is refused without touching the lists, and a push carrying only what changed passes.
 */
import { describe, expect, it } from 'vitest';
import { Controller, ValidationError } from '../../core/index.js';
import { Todo, TodoResource, listArgs } from '../../demos/api.js';
import { seedData } from '../../demos/server/restServer.mjs';

const ALL = listArgs(undefined);

describe("the demos' Todo validator", () => {
  it('passes every seed todo', () => {
    const controller = new Controller();
    const todos = seedData().todos;
    controller.setResponse(TodoResource.getList, ALL, todos.slice(0, 5));
    expect(controller.getResponse(TodoResource.getList, ALL).data).toHaveLength(5);
  });

  it('refuses a todo of the wrong shape, naming it; the list keeps what it had', () => {
    const controller = new Controller();
    const todos = seedData().todos.slice(0, 5);
    controller.setResponse(TodoResource.getList, ALL, todos);
    const before = controller.getState().entities;
    const bad = todos.map((todo, index) => (index === 2 ? { ...todo, title: 42 } : { ...todo, title: 'changed' }));
    let error: unknown;
    try {
      controller.setResponse(TodoResource.getList, ALL, bad as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ entity: 'Todo', pk: String(todos[2]!.id) });
    expect((error as Error).message).toContain('at title');
    expect(controller.getState().entities).toBe(before);
    expect(controller.getResponse(TodoResource.getList, ALL).data!.map((todo) => todo.title)).toEqual(
      todos.map((todo) => todo.title),
    );
  });

  it('passes a push that carries only what changed (as the other tab sends)', () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.getList, ALL, seedData().todos.slice(0, 5));
    const id = seedData().todos[0]!.id;
    controller.set(Todo, { id, title: 'Renamed elsewhere' });
    expect(controller.get(Todo, { id })!.title).toBe('Renamed elsewhere');
    expect(controller.get(Todo, { id })!.userId).toBe(seedData().todos[0]!.userId);
  });
});
