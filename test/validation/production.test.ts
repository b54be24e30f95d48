/**
 * Validation in an app's production build (the core bundled with `process.env.NODE_ENV` defined as
 * "production", where the messages' prose is left out): a validator that answers neither `{ value }` nor
 * `{ issues }` is still refused, and one that throws still rejects with a `ValidationError` whose cause is
 * what it threw.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as source from '../../core/index.js';
import { API, useTodoServer } from '../reliability/faultHarness.js';
import { coreBuiltFor } from '../fixtures/productionBuild.js';

useTodoServer();

/** A hand-written Standard Schema whose `validate` is `validate`. */
const standard = (validate: (value: unknown) => unknown) =>
  ({ '~standard': { version: 1, vendor: 'hand-written', validate } }) as source.StandardSchemaV1;

describe('validation in a production build', () => {
  let core: typeof source;
  beforeAll(async () => {
    core = (await coreBuiltFor('production')).core;
  });

  /** A todo entity of the production core. */
  const todoEntity = (validator?: source.StandardSchemaV1) =>
    class Todo extends core.Entity {
      id = 0;
      title = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Todo';
      static override validator = validator;
    };

  it('a responseSchema answering neither { value } nor { issues } is a TypeError, not undefined data; nothing is written', async () => {
    const Todos = core.createResource({ urlPrefix: API, path: '/todos/:id', schema: todoEntity() });
    for (const answer of ['ok', undefined, null, true, {}]) {
      const controller = new core.Controller({ retry: 0 });
      const getList = Todos.getList.extend({ responseSchema: standard(() => answer) });
      const error = await controller.fetch(getList).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(controller.getState().entities).toEqual({});
      const async = Todos.getList.extend({ responseSchema: standard(async () => answer) });
      expect(await controller.fetch(async).catch((e: unknown) => e)).toBeInstanceOf(TypeError);
    }
  });

  it('a validate() that throws is a ValidationError with the thrown error as its cause; nothing is written', async () => {
    const boom = new TypeError('title.trim is not a function');
    const Todos = core.createResource({
      urlPrefix: API,
      path: '/todos/:id',
      schema: todoEntity(
        standard(() => {
          throw boom;
        }),
      ),
    });
    const controller = new core.Controller({ retry: 0 });
    const error = await controller.fetch(Todos.get, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(core.ValidationError);
    expect(error).toMatchObject({ entity: 'Todo', pk: '1', cause: boom, request: { endpoint: 'Todo.get' } });
    expect((error as Error).message).toBe('Todo: TypeError: title.trim is not a function');
    expect(controller.getState().entities).toEqual({});
  });
});
