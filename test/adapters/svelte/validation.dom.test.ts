/**
 * A refetch whose response a validator refuses, through the Svelte adapter: the query state keeps the
 * data it had and shows the `ValidationError` (as for a 5xx); the next good response clears it.
 */
import { get } from 'svelte/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Controller, ValidationError } from '../../../core/index.js';
import { createQuery, createQueryState } from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { VALIDATORS, badAnswers, todosCheckedBy } from '../../fixtures/validatedTodos.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

describe('a refetch that fails validation, through the Svelte adapter', () => {
  it.each(VALIDATORS)(
    'a validator that %s: createQuery and createQueryState keep their data beside the ValidationError',
    async (_name, validator) => {
      const Todos = todosCheckedBy(validator);
      const controller = new Controller({ retry: 2, retryDelay: 0 });
      const store = createQuery(Todos.getList, {}, controller);
      const state = createQueryState(Todos.getList, {}, controller);
      const stop = store.subscribe(() => {});
      await vi.waitFor(() => expect(get(store).data).toHaveLength(4));
      const data = get(store).data;
      const bad = badAnswers(fake);
      await expect(controller.fetch(Todos.getList)).rejects.toThrow(ValidationError);
      await vi.waitFor(() => expect(get(store).error).toBeInstanceOf(ValidationError));
      expect(get(store).data).toBe(data);
      expect(state.error).toBeInstanceOf(ValidationError);
      expect(state.data).toEqual(data);
      expect(bad.requests).toBe(1); // not retried
      fake.server.resetHandlers();
      await controller.fetch(Todos.getList);
      await vi.waitFor(() => expect(get(store).error).toBeUndefined());
      expect(get(store).data).toHaveLength(4);
      stop();
    },
  );
});
