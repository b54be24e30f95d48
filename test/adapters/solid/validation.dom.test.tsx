/**
 * A refetch whose response a validator refuses, through the Solid adapter: the query state keeps the
 * data it had and shows the `ValidationError` (as for a 5xx); the next good response clears it.
 */
import { createRoot } from 'solid-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Controller, ValidationError } from '../../../core/index.js';
import { createQueryState } from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { VALIDATORS, badAnswers, todosCheckedBy } from '../../fixtures/validatedTodos.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

describe('a refetch that fails validation, through the Solid adapter', () => {
  it.each(VALIDATORS)(
    'a validator that %s: createQueryState keeps its data beside the ValidationError',
    async (_name, validator) => {
      const Todos = todosCheckedBy(validator);
      const controller = new Controller({ retry: 2, retryDelay: 0 });
      const { state, dispose } = createRoot((dispose) => ({
        state: createQueryState(Todos.getList, () => ({}), controller),
        dispose,
      }));
      await vi.waitFor(() => expect(state().data).toHaveLength(4));
      const titles = state().data?.map((todo) => todo.title);
      const bad = badAnswers(fake);
      await expect(controller.fetch(Todos.getList)).rejects.toThrow(ValidationError);
      await vi.waitFor(() => expect(state().error).toBeInstanceOf(ValidationError));
      expect(state().data?.map((todo) => todo.title)).toEqual(titles);
      expect(state()).toMatchObject({ loading: false, fetching: false });
      expect(bad.requests).toBe(1); // not retried
      fake.server.resetHandlers();
      await controller.fetch(Todos.getList);
      await vi.waitFor(() => expect(state().error).toBeUndefined());
      expect(state().data).toHaveLength(4);
      dispose();
    },
  );
});
