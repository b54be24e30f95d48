/**
 * Runtime validation with Standard Schema, run once per library (zod, valibot, arktype) and once with a
 * hand-written validator: an entity's `static validator` checks each record while it is normalized, an
 * endpoint's `responseSchema` the parsed body; a failure rejects with a `ValidationError`, writes nothing,
 * keeps an observer's data beside the error, rolls back exactly its optimistic layer and is not retried.
 */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  Controller,
  Entity,
  NormalizeError,
  ValidationError,
  createResource,
  type StandardSchemaV1,
} from '../../core/index.js';
import {
  API,
  answerNext,
  kept,
  onceHandler,
  record,
  settled,
  tick,
  until,
  useFakeClock,
  useTodoServer,
} from '../reliability/faultHarness.js';
import { delay } from 'msw';
import { VALIDATORS, asAsync } from './validators.js';

const fake = useTodoServer();

/** A todo entity checked by `validator`. */
function todoEntity(validator: StandardSchemaV1 | undefined) {
  return class VTodo extends Entity {
    id = 0;
    userId = 0;
    title = '';
    completed = false;
    createdAt = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'VTodo';
    static override validator = validator;
  };
}

/** The todo resource over `Todo` (optimistic mutations), with `options` for every member. */
function resourceOf(Todo: ReturnType<typeof todoEntity>, options: { responseSchema?: StandardSchemaV1 } = {}) {
  return createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo, optimistic: true, ...options });
}

/** Four todos, the third with a number for a title. */
const badThird = () =>
  HttpResponse.json([
    { id: 1, userId: 1, title: 'new 1', completed: true, createdAt: 'x' },
    { id: 2, userId: 2, title: 'new 2', completed: true, createdAt: 'x' },
    { id: 3, userId: 1, title: 42, completed: true, createdAt: 'x' },
    { id: 4, userId: 2, title: 'new 4', completed: true, createdAt: 'x' },
  ]);

const titles = (data: readonly { title: string }[] | undefined) => data?.map((todo) => todo.title);

/** A todo list endpoint as the tests below read it (a resource's `getList`, or one extended with a responseSchema). */
type TodoList = ReturnType<typeof _listOf>;
function _listOf(resource: ReturnType<typeof resourceOf>) {
  return resource.getList.extend({});
}

/**
 * `getList` read by a stream, then refetched with a bad third todo, on a clock past its expiry: what the refetch
 * threw, the stream, the data it showed, the store before and the requests made before the refetch.
 */
async function refetchWithBadThird(getList: TodoList) {
  let now = 1_000;
  const controller = new Controller({ retry: 3, retryDelay: 0, now: () => now });
  const stream = record(controller.observe(getList));
  await settled(() => expect(stream.last().data).toHaveLength(4));
  const data = stream.last().data;
  const before = kept(controller.getState());
  const requests = fake.requests.length;
  answerNext(fake, 'get', '/todos', badThird);
  now += 61_000;
  const error = await controller.fetch(getList).catch((e: unknown) => e);
  return { error, stream, data, before, controller, requests };
}

describe.each(VALIDATORS)('with $name', (validators) => {
  describe("an entity's static validator", () => {
    const Todo = todoEntity(validators.todo);
    const Todos = resourceOf(Todo);

    it('lets valid records through, stored as they came', async () => {
      const controller = new Controller();
      const todos = await controller.fetch(Todos.getList);
      expect(titles(todos)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
      expect(todos[0]).toBeInstanceOf(Todo);
      expect(controller.getState().entities.VTodo!['1']).toEqual({ ...fake.todos.get(1) });
    });

    it('a record that fails (the third of a list): a ValidationError naming endpoint, entity, pk and path; nothing written; no retry', async () => {
      const { error, stream, data, before, controller, requests } = await refetchWithBadThird(Todos.getList);
      expect(error).toBeInstanceOf(ValidationError);
      const failure = error as ValidationError;
      expect(failure.name).toBe('ValidationError');
      expect(failure).toMatchObject({
        entity: 'VTodo',
        pk: '3',
        request: { method: 'GET', url: `${API}/todos`, endpoint: 'VTodo.getList' },
      });
      expect(failure.issues.length).toBeGreaterThan(0);
      expect(typeof failure.issues[0]!.message).toBe('string');
      expect(failure.message).toMatch(
        new RegExp(
          `^VTodo "3" failed its validator in the response to GET ${API}/todos \\(endpoint VTodo.getList\\) at title: `,
        ),
      );
      // nothing of it was written: the first two records keep their values
      expect(kept(controller.getState())).toEqual(before);
      expect(controller.getState().entities).toBe(before.entities);
      expect(fake.requests.length - requests).toBe(1); // not retried
      // the observer keeps its data and shows the error, as for a 5xx
      expect(stream.last()).toMatchObject({ data, error: failure, loading: false, fetching: false });
      expect(stream.last().data).toBe(data);
      // the next good response clears it
      fake.todos.get(2)!.title = 'fixed';
      await controller.fetch(Todos.getList);
      expect(stream.last().error).toBeUndefined();
      expect(titles(stream.last().data)).toEqual(['todo 1', 'fixed', 'todo 3', 'todo 4']);
      stream.unsubscribe();
    });

    it('a validate() that throws: a ValidationError naming endpoint, entity and pk with the thrown error as its cause; nothing written; no retry; the observer keeps its data', async () => {
      const Throwing = resourceOf(todoEntity(validators.todoThatThrows));
      const { error, stream, data, before, controller, requests } = await refetchWithBadThird(Throwing.getList);
      if (validators.name === 'zod') {
        // zod's validate() answers a throw with a rejected Promise: refused as an async validator, naming the entity
        expect(error).toBeInstanceOf(NormalizeError);
        expect((error as Error).message).toMatch(
          /^VTodo: static validator answered with a Promise: .*zod answers with one also when a transform or a refinement throws/,
        );
        expect(kept(controller.getState())).toEqual(before);
        expect(fake.requests.length - requests).toBe(1);
        stream.unsubscribe();
        return;
      }
      expect(error).toBeInstanceOf(ValidationError);
      const failure = error as ValidationError;
      expect(failure).toMatchObject({
        entity: 'VTodo',
        pk: '3',
        request: { method: 'GET', url: `${API}/todos`, endpoint: 'VTodo.getList' },
      });
      expect(failure.cause).toBeInstanceOf(TypeError);
      expect(failure.issues).toEqual([{ message: String(failure.cause) }]);
      expect(failure.message).toMatch(
        new RegExp(
          `^VTodo "3" failed its validator in the response to GET ${API}/todos \\(endpoint VTodo.getList\\): its validate\\(\\) threw: TypeError: `,
        ),
      );
      expect(kept(controller.getState())).toEqual(before);
      expect(controller.getState().entities).toBe(before.entities);
      expect(fake.requests.length - requests).toBe(1); // not retried
      expect(stream.last()).toMatchObject({ error: failure, loading: false, fetching: false });
      expect(stream.last().data).toBe(data);
      // set and setResponse: the same error, and the store as it was
      expect(() => controller.set(Todo, { id: 1, title: 7 } as never)).toThrow(ValidationError);
      expect(kept(controller.getState())).toEqual(before);
      stream.unsubscribe();
    });

    it('a first load that fails shows the error and no data', async () => {
      const controller = new Controller({ retry: 3, retryDelay: 0 });
      answerNext(fake, 'get', '/todos', badThird);
      const stream = record(controller.observe(Todos.getList));
      await settled(() => expect(stream.last().error).toBeInstanceOf(ValidationError));
      expect(stream.last()).toMatchObject({ data: undefined, loading: false, fetching: false });
      expect(fake.requests).toHaveLength(1);
      expect(controller.getState().entities).toEqual({});
      stream.unsubscribe();
    });

    it('the validator output is what is stored (a default filled in)', async () => {
      const Defaulted = resourceOf(todoEntity(validators.todoWithDefault));
      answerNext(fake, 'get', '/todos/1', () => HttpResponse.json({ id: 1 }));
      const controller = new Controller();
      const todo = await controller.fetch(Defaulted.get, { id: 1 });
      expect(todo.title).toBe('untitled');
      expect(controller.getState().entities.VTodo!['1']).toMatchObject({ id: 1, title: 'untitled' });
    });

    it('a partial record the validator refuses (set with the pk in the arguments): the message names no pk it does not know', () => {
      const controller = new Controller();
      controller.set(Todo, { ...fake.todos.get(1) });
      const before = kept(controller.getState());
      const error = (() => {
        try {
          controller.set(Todo, { id: 1 }, { completed: true } as never);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toMatch(/^VTodo failed its validator at /);
      // no pk: pk() of the partial record makes 'undefined' of its missing id, which names no record
      expect((error as ValidationError).pk).toBeUndefined();
      expect(kept(controller.getState())).toEqual(before);
    });

    it('setResponse and set are validated too: a bad value throws and changes nothing', async () => {
      const controller = new Controller();
      await controller.fetch(Todos.getList);
      const before = kept(controller.getState());
      expect(() => controller.setResponse(Todos.get, { id: 1 }, { id: 1, title: 7 } as never)).toThrow(ValidationError);
      expect(() => controller.set(Todo, { id: 2, title: false } as never)).toThrow(ValidationError);
      expect(kept(controller.getState())).toEqual(before);
    });

    it('an optimistic mutation whose response fails rolls back exactly its layer', async () => {
      const controller = new Controller();
      const stream = record(controller.observe(Todos.getList));
      await settled(() => expect(stream.last().data).toHaveLength(4));
      const gate = { open: () => {} };
      const opened = new Promise<void>((resolve) => (gate.open = resolve));
      fake.server.use(
        onceHandler(fake, 'patch', '/todos/1', async () => {
          await opened;
          return HttpResponse.json({ ...fake.todos.get(1), title: 'server 1' });
        }),
        onceHandler(fake, 'patch', '/todos/2', async () => {
          await delay(5);
          return HttpResponse.json({ id: 2, title: ['not', 'a', 'string'] });
        }),
      );
      // the expected results show at once (a partial update is not validated: it is the app's own guess)
      const first = controller.fetch(Todos.partialUpdate, { id: 1 }, { title: 'mine 1' });
      const second = controller.fetch(Todos.partialUpdate, { id: 2 }, { title: 'mine 2' });
      expect(titles(stream.last().data)).toEqual(['mine 1', 'mine 2', 'todo 3', 'todo 4']);
      const error = await second.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).request).toMatchObject({ method: 'PATCH', endpoint: 'VTodo.partialUpdate' });
      // the second layer is gone, the first one still shows
      expect(titles(stream.last().data)).toEqual(['mine 1', 'todo 2', 'todo 3', 'todo 4']);
      expect(controller.getState().optimistic).toHaveLength(1);
      expect(stream.last().error).toBeUndefined(); // a mutation's error goes to its caller
      gate.open();
      await first;
      expect(titles(stream.last().data)).toEqual(['server 1', 'todo 2', 'todo 3', 'todo 4']);
      expect(controller.getState().optimistic).toEqual([]);
      stream.unsubscribe();
    });

    it('a delete (an Invalidate of the entity) is not validated: its response holds only the pk', async () => {
      const controller = new Controller();
      await controller.fetch(Todos.getList);
      await controller.fetch(Todos.delete, { id: 1 });
      expect(titles(controller.getResponse(Todos.getList).data)).toEqual(['todo 2', 'todo 3', 'todo 4']);
    });

    it('an async validator is a clear error naming the entity, and nothing is written', async () => {
      const Async = resourceOf(todoEntity(asAsync(validators.todo)));
      const controller = new Controller();
      const error = await controller.fetch(Async.getList).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NormalizeError);
      expect((error as Error).message).toMatch(/^VTodo: static validator answered with a Promise/);
      expect((error as Error).message).toContain(`In the response to GET ${API}/todos (endpoint VTodo.getList).`);
      expect(controller.getState().entities).toEqual({});
    });
  });

  describe("an endpoint's responseSchema", () => {
    const Plain = resourceOf(todoEntity(undefined));

    it('createResource passes it to every member, and extend keeps it', () => {
      const resource = resourceOf(todoEntity(undefined), { responseSchema: validators.todo });
      for (const member of [
        resource.get,
        resource.getList,
        resource.update,
        resource.partialUpdate,
        resource.delete,
        resource.getList.push,
        resource.getList.unshift,
        resource.getList.move,
        resource.getList.remove,
      ]) {
        expect(member.responseSchema).toBe(validators.todo);
      }
      expect(resource.get.extend({ dataExpiryLength: 1 }).responseSchema).toBe(validators.todo);
    });

    /**
     * A list read through `responseSchema`, then refetched with a bad third todo: the refetch's error (a
     * ValidationError naming the request), the stream, the data it showed and the store before.
     */
    async function refusedRefetch(responseSchema: StandardSchemaV1) {
      const refetch = await refetchWithBadThird(Plain.getList.extend({ responseSchema }));
      const { error, stream, data, before, controller, requests } = refetch;
      expect(error).toBeInstanceOf(ValidationError);
      const failure = error as ValidationError;
      expect(failure).toMatchObject({
        entity: undefined,
        pk: undefined,
        request: { method: 'GET', url: `${API}/todos`, endpoint: 'VTodo.getList' },
      });
      return { failure, stream, data, before, controller, requests };
    }

    it.each([
      ['synchronous', false],
      ['async', true],
    ])(
      '%s: a valid body passes, its output on to process; a bad one is a ValidationError naming the request and path, not retried, nothing written',
      async (_name, async) => {
        const { failure, stream, data, before, controller, requests } = await refusedRefetch(
          async ? asAsync(validators.todoList) : validators.todoList,
        );
        expect(failure.message).toMatch(
          new RegExp(
            `^The response failed its responseSchema in the response to GET ${API}/todos \\(endpoint VTodo.getList\\) at \\[2\\]\\.title: `,
          ),
        );
        expect(fake.requests.length - requests).toBe(1);
        expect(kept(controller.getState())).toEqual(before);
        expect(stream.last()).toMatchObject({ data, error: failure, fetching: false });
        stream.unsubscribe();
      },
    );

    it.each([
      ['synchronous', false],
      ['async', true],
    ])(
      '%s, a validate() that throws (or rejects): a ValidationError naming the request, its error the cause; not retried, nothing written',
      async (_name, async) => {
        const { failure, stream, data, before, controller, requests } = await refusedRefetch(
          async ? asAsync(validators.todoListThatThrows) : validators.todoListThatThrows,
        );
        expect(failure.cause).toBeInstanceOf(TypeError);
        expect(failure.message).toMatch(
          new RegExp(
            `^The response failed its responseSchema in the response to GET ${API}/todos \\(endpoint VTodo.getList\\): its validate\\(\\) threw: TypeError: `,
          ),
        );
        expect(fake.requests.length - requests).toBe(1);
        expect(kept(controller.getState())).toEqual(before);
        expect(stream.last()).toMatchObject({ error: failure, fetching: false });
        expect(stream.last().data).toBe(data);
        stream.unsubscribe();
      },
    );

    it('runs before process, which receives its output', async () => {
      const seen: unknown[] = [];
      const get = Plain.get.extend({
        responseSchema: validators.todoWithDefault,
        process(value: unknown) {
          seen.push(value);
          return value as never;
        },
      });
      answerNext(fake, 'get', '/todos/1', () => HttpResponse.json({ id: 1 }));
      await get({ id: 1 });
      expect(seen).toEqual([expect.objectContaining({ id: 1, title: 'untitled' })]);
      answerNext(fake, 'get', '/todos/1', () => HttpResponse.json({ id: 'one' }));
      await expect(get({ id: 1 })).rejects.toThrow(ValidationError);
      expect(seen).toHaveLength(1);
    });
  });

  it('polling: each poll that fails validation is one request (no retries), the data stays, a good answer clears the error', async () => {
    useFakeClock();
    const Todos = resourceOf(todoEntity(validators.todo));
    const polled = Todos.getList.extend({ pollFrequency: 1_000 });
    const controller = new Controller({ retry: 3, retryDelay: 0 });
    const stream = record(controller.observe(polled));
    await until(() => expect(stream.last().data).toHaveLength(4));
    const data = stream.last().data;
    answerNext(fake, 'get', '/todos', badThird, badThird);
    const requests = fake.requests.length;
    await tick(1_000);
    await until(() => expect(stream.last().error).toBeInstanceOf(ValidationError));
    expect(fake.requests.length - requests).toBe(1);
    expect(stream.last().data).toBe(data);
    await tick(1_000);
    expect(fake.requests.length - requests).toBe(2);
    expect(stream.last().data).toBe(data);
    await tick(1_000);
    await until(() => expect(stream.last().error).toBeUndefined());
    expect(fake.requests.length - requests).toBe(3);
    expect(stream.last().data).toBe(data); // the good answer equals what was stored
    stream.unsubscribe();
  });
});

describe('validators that answer oddly', () => {
  /** A hand-written Standard Schema whose `validate` is `validate`. */
  const standard = (validate: (value: unknown) => unknown): StandardSchemaV1 =>
    ({ '~standard': { version: 1, vendor: 'hand-written', validate } }) as StandardSchemaV1;
  /** A thenable that is not a native Promise (another realm's, a library's own). */
  const thenable = (result: unknown) => ({ then: (resolve: (value: unknown) => void) => resolve(result) });
  const Plain = resourceOf(todoEntity(undefined));

  it('a thenable that is not a native Promise: awaited as a responseSchema, refused as a static validator', async () => {
    const fine = Plain.getList.extend({ responseSchema: standard((value) => thenable({ value })) });
    const controller = new Controller();
    expect(titles(await controller.fetch(fine))).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    const refusing = Plain.getList.extend({
      responseSchema: standard(() => thenable({ issues: [{ message: 'no', path: [0] }] })),
    });
    const error = await controller.fetch(refusing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/responseSchema .* at \[0\]: no$/);
    expect(titles(controller.getResponse(fine).data)).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);

    const Async = resourceOf(todoEntity(standard((value) => thenable({ value }))));
    const before = kept(controller.getState());
    const asyncError = await controller.fetch(Async.getList).catch((e: unknown) => e);
    expect(asyncError).toBeInstanceOf(NormalizeError);
    expect((asyncError as Error).message).toMatch(/^VTodo: static validator answered with a Promise/);
    expect(kept(controller.getState())).toEqual(before);
  });

  it('in development, a result that is neither { value } nor { issues } is a TypeError naming the validator; nothing is written', async () => {
    const controller = new Controller();
    for (const answer of [undefined, null, 'ok', thenable(undefined)]) {
      const get = Plain.getList.extend({ responseSchema: standard(() => answer) });
      const error = await controller.fetch(get).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(
        /^The responseSchema of VTodo.getList returned .*: a Standard Schema's validate\(\) returns \{ value \} or \{ issues \}/,
      );
      const Odd = resourceOf(todoEntity(standard(() => answer)));
      const entityError = await controller.fetch(Odd.getList).catch((e: unknown) => e);
      expect(entityError).toBeInstanceOf(
        answer === undefined || answer === null || answer === 'ok' ? TypeError : NormalizeError,
      );
      expect((entityError as Error).message).toMatch(/VTodo/);
    }
    expect(controller.getState().entities).toEqual({});
  });

  it('in development, a static validator whose output is not an object (a transform to a string, to a list) is a NormalizeError naming the entity; the store keeps what it had', async () => {
    const controller = new Controller();
    const Todos = resourceOf(todoEntity(undefined));
    await controller.fetch(Todos.getList);
    const before = kept(controller.getState());
    for (const output of ['todo', 7, null, [1, 2]]) {
      const Odd = resourceOf(todoEntity(standard(() => ({ value: output }))));
      const error = await controller.fetch(Odd.get, { id: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NormalizeError);
      expect((error as Error).message).toMatch(/^VTodo: static validator gave .*, not an object/);
    }
    expect(kept(controller.getState())).toEqual(before);
  });

  it('a failure without issues (an empty list) still says that it failed', async () => {
    const get = Plain.getList.extend({ responseSchema: standard(() => ({ issues: [] })) });
    const error = await new Controller().fetch(get).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).not.toMatch(/undefined/);
    expect((error as Error).message).toMatch(/: the validator gave no issue$/);
  });
});

describe('what a validator sees and gives', () => {
  /** A hand-written Standard Schema whose `validate` is `validate`. */
  const standard = (validate: (value: unknown) => unknown): StandardSchemaV1 =>
    ({ '~standard': { version: 1, vendor: 'hand-written', validate } }) as StandardSchemaV1;

  it("the ValidationError's issues are the validator's own, as it gave them", async () => {
    const issues = [
      { message: 'title: expected a string', path: ['title'], code: 'custom' },
      { message: 'second', path: [{ key: 'userId' }] },
    ];
    const refusing = standard((value) => ((value as { id: number }).id === 3 ? { issues } : { value }));
    const Todos = resourceOf(todoEntity(refusing));
    const error = await new Controller({ retry: 0 }).fetch(Todos.getList).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual(issues);
    expect((error as ValidationError).issues[0]).toBe(issues[0]);
    expect((error as Error).message).toMatch(/ at title: title: expected a string \(\+1 more issues\)$/);

    const Plain = resourceOf(todoEntity(undefined));
    const body = await new Controller({ retry: 0 })
      .fetch(Plain.getList.extend({ responseSchema: standard(() => ({ issues })) }))
      .catch((e: unknown) => e);
    expect((body as ValidationError).issues).toEqual(issues);
  });

  it("an entity's validator checks each record after process, and what it gives is stored", async () => {
    const seen: unknown[] = [];
    const checking = standard((value) => {
      seen.push(value);
      return { value: { ...(value as object), checked: true } };
    });
    class Processed extends todoEntity(checking) {
      static override process(input: unknown, parent: unknown, key: string | undefined, args: readonly unknown[]) {
        return { ...super.process(input, parent, key, args), title: 'processed' };
      }
    }
    const Todos = resourceOf(Processed);
    const controller = new Controller();
    await controller.fetch(Todos.get, { id: 1 });
    expect(seen).toEqual([expect.objectContaining({ id: 1, title: 'processed' })]);
    expect(controller.getState().entities.VTodo!['1']).toMatchObject({ id: 1, title: 'processed', checked: true });
  });
});
