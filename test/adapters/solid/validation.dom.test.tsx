/**
 * A refetch whose response a validator refuses, through the Solid adapter: the query state keeps the
 * data it had and shows the `ValidationError` (as for a 5xx); the next good response clears it.
 */
import { HttpResponse, http } from 'msw';
import { createRoot } from 'solid-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Controller, Entity, ValidationError, createResource, type StandardSchemaV1 } from '../../../core/index.js';
import { createQueryState } from '../../../adapters/solid/index.js';
import { API, createTodoServer } from '../../fixtures/todoServer.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

/** A todo resource whose entity is checked by `validator`. */
function todosCheckedBy(validator: StandardSchemaV1) {
  class CheckedTodo extends Entity {
    id = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'CheckedTodo';
    static override validator = validator;
  }
  return createResource({ urlPrefix: API, path: '/todos/:id', schema: CheckedTodo });
}

/** A validator that refuses a title that is no string, and one whose validate() throws on it. */
const VALIDATORS: [string, StandardSchemaV1][] = [
  ['refuses', z.looseObject({ id: z.number(), title: z.string() })],
  [
    'throws',
    {
      '~standard': {
        version: 1,
        vendor: 'hand-written',
        validate: (value) => ({ value: { ...(value as object), title: (value as { title: string }).title.trim() } }),
      },
    },
  ],
];

/** Answers GET /todos with a todo whose title is a number, counting the requests. */
function badAnswers() {
  const seen = { requests: 0 };
  fake.server.use(
    http.get(`${API}/todos`, () => {
      seen.requests++;
      return HttpResponse.json([{ id: 1, title: 1 }]);
    }),
  );
  return seen;
}

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
      const bad = badAnswers();
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
