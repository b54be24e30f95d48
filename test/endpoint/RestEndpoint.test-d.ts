import { describe, expectTypeOf, test } from 'vitest';
import { RestEndpoint } from '../../core/endpoint/RestEndpoint.js';
import type { JsonOf } from '../../core/endpoint/types.js';
import { Collection, Entity, type Schema } from '../../core/schema/index.js';

// a Todo with a `Date` field (not the fixture's): what JsonOf makes of a Date is tested below
class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  due = new Date(0);
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

interface TodoJson {
  id: number;
  title: string;
  completed: boolean;
  due: string;
}

const API = 'https://api.example.com';

describe('results', () => {
  test('JsonOf<Todo> is the plain JSON of a Todo: no methods, Date as string', () => {
    expectTypeOf<JsonOf<Todo>>().toEqualTypeOf<TodoJson>();
  });

  test('an Entity schema resolves its JSON; arrays and collections resolve arrays', () => {
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo });
    expectTypeOf(get({ id: 1 })).toEqualTypeOf<Promise<TodoJson>>();
    const list = new RestEndpoint({ path: '/todos', schema: [Todo] });
    expectTypeOf(list()).toEqualTypeOf<Promise<TodoJson[]>>();
    const collection = new RestEndpoint({ path: '/todos', schema: new Collection([Todo]) });
    expectTypeOf(collection()).toEqualTypeOf<Promise<TodoJson[]>>();
    const page = new RestEndpoint({ path: '/todos', schema: { results: [Todo], total: 0 } });
    expectTypeOf(page()).toEqualTypeOf<Promise<{ results: TodoJson[]; total: number }>>();
  });

  test('without a schema: unknown, or what process declares', () => {
    const raw = new RestEndpoint({ path: '/ping' });
    expectTypeOf(raw()).toEqualTypeOf<Promise<unknown>>();
    const counted = new RestEndpoint({ path: '/count', process: (value) => Number(value) });
    expectTypeOf(counted()).toEqualTypeOf<Promise<number>>();
  });

  test('process is typed with the schema JSON and the call arguments', () => {
    new RestEndpoint({
      path: '/:group/todos/:id',
      method: 'PUT',
      schema: Todo,
      body: {} as { title: string },
      process(value, params, body) {
        expectTypeOf(value).toEqualTypeOf<TodoJson>();
        expectTypeOf(params).toEqualTypeOf<{ group: string | number; id: string | number }>();
        expectTypeOf(body).toEqualTypeOf<{ title: string }>();
        return value;
      },
    });
  });
});

describe('arguments', () => {
  const get = new RestEndpoint({ urlPrefix: API, path: '/:group/posts/:id', schema: Todo });

  test('path parameters are required and checked', () => {
    get({ group: 'news', id: 5 });
    // @ts-expect-error id is missing
    get({ group: 'news' });
    // @ts-expect-error no arguments at all
    get();
    // @ts-expect-error misspelled parameter
    get({ group: 'news', idd: 5 });
    // @ts-expect-error values are strings or numbers
    get({ group: 'news', id: true });
    expectTypeOf(get.url).parameters.toEqualTypeOf<[args: { group: string | number; id: string | number }]>();
  });

  test('optional segments are optional', () => {
    const search = new RestEndpoint({ path: '/search/:q?/:page?' });
    search();
    search({ q: 'milk' });
    search({ q: 'milk', page: 2 });
    // @ts-expect-error unknown argument
    search({ query: 'milk' });
  });

  test('a path without parameters takes no arguments unless it has search params', () => {
    const list = new RestEndpoint({ path: '/todos', schema: [Todo] });
    list();
    list({});
    // @ts-expect-error no such argument
    list({ userId: 1 });
  });

  test('search params join the path parameters; optional ones make the argument optional', () => {
    const list = new RestEndpoint({
      path: '/:group/todos',
      searchParams: {} as { userId?: number; orderBy?: 'title' } | undefined,
    });
    list({ group: 'g' });
    list({ group: 'g', userId: 1, orderBy: 'title' });
    // @ts-expect-error wrong type
    list({ group: 'g', userId: 'one' });
    // @ts-expect-error the path parameter is still required
    list({ userId: 1 });

    const filtered = new RestEndpoint({ path: '/todos', searchParams: {} as { userId?: number } });
    filtered();
    filtered({ userId: 1 });

    const required = new RestEndpoint({ path: '/todos', searchParams: {} as { userId: number } });
    required({ userId: 1 });
    // @ts-expect-error userId is required
    required();
  });
});

describe('bodies', () => {
  test('a declared body is required and typed', () => {
    const update = new RestEndpoint({ path: '/todos/:id', method: 'PUT', schema: Todo, body: {} as Partial<TodoJson> });
    update({ id: 1 }, { title: 'x' });
    // @ts-expect-error the body is missing
    update({ id: 1 });
    // @ts-expect-error wrong body type
    update({ id: 1 }, { title: 1 });
    // @ts-expect-error the path has a parameter, so the body alone is not enough
    update({ title: 'x' });
  });

  test('a path without parameters takes the body alone, or args and body', () => {
    const create = new RestEndpoint({ path: '/todos', method: 'POST', schema: Todo, body: {} as { title: string } });
    expectTypeOf(create({ title: 'x' })).toEqualTypeOf<Promise<TodoJson>>();
    create({}, { title: 'x' });
    // @ts-expect-error wrong body
    create({ name: 'x' });
  });

  test('a POST without a declared body takes any body, optionally; a GET takes none', () => {
    const post = new RestEndpoint({ path: '/todos/:id/archive', method: 'POST' });
    post({ id: 1 });
    post({ id: 1 }, { anything: true });
    const get = new RestEndpoint({ path: '/todos/:id' });
    // @ts-expect-error a GET takes no body
    get({ id: 1 }, { title: 'x' });
  });
});

describe('members and extend', () => {
  test('members keep their literal types', () => {
    const create = new RestEndpoint({ path: '/todos', method: 'POST', schema: Todo });
    expectTypeOf(create.path).toEqualTypeOf<'/todos'>();
    expectTypeOf(create.method).toEqualTypeOf<'POST'>();
    expectTypeOf(create.schema).toEqualTypeOf<typeof Todo>();
    expectTypeOf(create.key).returns.toEqualTypeOf<string>();
  });

  test('extend: types follow the replaced options', () => {
    const get = new RestEndpoint({ path: '/todos/:id', schema: Todo });
    const byUser = get.extend({ path: '/users/:userId/todos', schema: [Todo] });
    expectTypeOf(byUser({ userId: 1 })).toEqualTypeOf<Promise<TodoJson[]>>();
    // @ts-expect-error the new path has no id
    byUser({ userId: 1, id: 2 });

    const polled = get.extend({ pollFrequency: 1000 });
    expectTypeOf(polled).toEqualTypeOf(get);

    const update = get.extend({ method: 'PATCH', body: {} as { completed: boolean } });
    update({ id: 1 }, { completed: true });
    // @ts-expect-error the body is required now
    update({ id: 1 });
  });

  test('endpoints are instances and functions', () => {
    const get = new RestEndpoint({ path: '/todos/:id', schema: Todo });
    expectTypeOf(get).toMatchTypeOf<RestEndpoint<'/todos/:id', typeof Todo>>();
    expectTypeOf(get.fetch).toEqualTypeOf<(args: { id: string | number }) => Promise<TodoJson>>();
  });

  test('a subclass that redeclares P and S keeps the inference', () => {
    class MyEndpoint<P extends string, S extends Schema | undefined = undefined> extends RestEndpoint<P, S> {}
    const get = new MyEndpoint({ path: '/todos/:id', schema: Todo });
    expectTypeOf(get({ id: 1 })).toEqualTypeOf<Promise<TodoJson>>();
    // @ts-expect-error missing id
    get({});
  });
});
