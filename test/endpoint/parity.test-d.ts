import { describe, expectTypeOf, test } from 'vitest';
import { createResource } from '../../core/endpoint/createResource.js';
import { RestEndpoint } from '../../core/endpoint/RestEndpoint.js';
import { NetworkError } from '../../core/errors.js';
import {
  Collection,
  CollectionAdder,
  CollectionMover,
  prependUnique,
  type CollectionListSchema,
  type CollectionOptions,
  type CreateCollectionFilter,
} from '../../core/schema/index.js';
import { Todo } from '../fixtures/entities.js';

interface TodoJson {
  id: number;
  userId: number;
  title: string;
  completed: boolean;
  createdAt: string;
}

type V = string | number;

const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
  paginationField: 'page',
});

describe('resource list members', () => {
  test('move takes the item path and the body; remove the list arguments and the body', () => {
    expectTypeOf(TodoResource.getList.move({ id: 1 }, { userId: 2 })).toEqualTypeOf<Promise<TodoJson>>();
    expectTypeOf(TodoResource.getList.remove({ userId: 1 }, { id: 1 })).toEqualTypeOf<Promise<TodoJson>>();
    expectTypeOf(TodoResource.getList.move.schema).toEqualTypeOf<CollectionMover<typeof Todo>>();
    // @ts-expect-error wrong body field type
    TodoResource.getList.move({ id: 1 }, { userId: 'two' });
    // @ts-expect-error the item's id is required
    TodoResource.getList.move({}, { title: 'x' });
  });

  test("extend('getList', options) keeps getList's path and members", () => {
    const Extended = TodoResource.extend('getList', { dataExpiryLength: 5 });
    expectTypeOf(Extended.getList.path).toEqualTypeOf<'/todos'>();
    expectTypeOf(Extended.getList.push({}, { title: 'x' })).toEqualTypeOf<Promise<TodoJson>>();
    expectTypeOf(Extended.getList.getPage({ page: 2 })).toEqualTypeOf<Promise<TodoJson[]>>();
    // @ts-expect-error the page is required
    Extended.getList.getPage({ userId: 1 });
    const Added = TodoResource.extend('byTitle', { path: '/todos/title/:title' });
    expectTypeOf(Added.byTitle({ title: 'x' })).toEqualTypeOf<Promise<TodoJson>>();
  });

  test('getList.extend(...) keeps typed push/unshift/move/remove', () => {
    const polling = TodoResource.getList.extend({ pollFrequency: 2000 });
    expectTypeOf(polling.push({ userId: 1 }, { title: 'x' })).toEqualTypeOf<Promise<TodoJson>>();
    expectTypeOf(polling.unshift({}, { title: 'x' })).toEqualTypeOf<Promise<TodoJson>>();
    // @ts-expect-error wrong body field type
    polling.push({}, { title: 1 });
    expectTypeOf(polling.remove.method).toEqualTypeOf<'PATCH'>();
  });
});

describe('plain endpoints over a Collection', () => {
  const getTodos = new RestEndpoint({
    path: '/todos',
    searchParams: {} as { userId?: number },
    schema: new Collection([Todo]),
  });

  test('push and unshift are typed from the collection', () => {
    expectTypeOf(getTodos.push({ userId: 1 }, { title: 'x' })).toEqualTypeOf<Promise<TodoJson>>();
    expectTypeOf(getTodos.push.schema).toEqualTypeOf<CollectionAdder<typeof Todo>>();
    expectTypeOf(getTodos.unshift.method).toEqualTypeOf<'POST'>();
    // @ts-expect-error wrong body field type
    getTodos.push({}, { title: 1 });
  });

  test('paginated(field) requires the field', () => {
    const next = getTodos.paginated('cursor');
    expectTypeOf(next({ cursor: 'abc', userId: 1 })).toEqualTypeOf<Promise<TodoJson[]>>();
    // @ts-expect-error the cursor is required
    next({ userId: 1 });
    const mapped = getTodos.paginated((args: { cursor: string; userId?: number }) => [args]);
    expectTypeOf(mapped).parameter(0).toEqualTypeOf<{ cursor: string; userId?: number }>();
  });

  test('an endpoint without a Collection has no usable list members', () => {
    const get = new RestEndpoint({ path: '/todos/:id', schema: Todo });
    expectTypeOf(get.push).toBeNever();
    expectTypeOf(get.remove).toBeNever();
    expectTypeOf(get.paginated('page')).toBeNever();
  });

  test('a Collection held in an object schema counts', () => {
    const page = new RestEndpoint({ path: '/todos', schema: { results: new Collection([Todo]), next: '' } });
    expectTypeOf(page.push({ title: 'x' })).toEqualTypeOf<Promise<TodoJson>>();
  });
});

describe('endpoint members', () => {
  test('testKey, searchToString, content, movePath, sideEffect', () => {
    const get = new RestEndpoint({ path: '/todos/:id', content: 'blob', movePath: '/todos/:id' });
    expectTypeOf(get.testKey).toEqualTypeOf<(key: string) => boolean>();
    expectTypeOf(get.searchToString).toEqualTypeOf<(searchParams: Readonly<Record<string, unknown>>) => string>();
    expectTypeOf(get.content).toEqualTypeOf<'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream' | undefined>();
    // @ts-expect-error not a content kind
    new RestEndpoint({ path: '/x', content: 'xml' });
    new RestEndpoint({ path: '/x', method: 'POST', sideEffect: undefined });
  });

  test('extend({ content }) types the result', () => {
    const file = new RestEndpoint({ path: '/files/:id' });
    expectTypeOf(file.extend({ content: 'blob' })({ id: 1 })).toEqualTypeOf<Promise<Blob>>();
    expectTypeOf(file.extend({ content: 'text' })({ id: 1 })).toEqualTypeOf<Promise<string>>();
    expectTypeOf(file.extend({ content: 'arrayBuffer' })({ id: 1 })).toEqualTypeOf<Promise<ArrayBuffer>>();
    expectTypeOf(file.extend({ content: 'stream' })({ id: 1 })).toEqualTypeOf<
      Promise<ReadableStream<Uint8Array> | null>
    >();
    expectTypeOf(file.extend({ dataExpiryLength: 0 })({ id: 1 })).toEqualTypeOf<Promise<unknown>>();
    const Files = createResource({ path: '/files/:id', schema: Todo }).extend('download', {
      path: '/files/:id/download',
      schema: undefined,
      content: 'blob',
    });
    expectTypeOf(Files.download({ id: 1 })).toEqualTypeOf<Promise<Blob>>();
  });

  test('NetworkError.toJSON', () => {
    expectTypeOf<ReturnType<NetworkError['toJSON']>>().toEqualTypeOf<{
      name: 'NetworkError';
      status: number;
      message: string;
      url: string;
    }>();
  });
});

describe('Collection move, remove, moveWith and createCollectionFilter', () => {
  test('types', () => {
    const list = new Collection([Todo], {
      createCollectionFilter: (urlArgs: { userId?: V } | undefined) => (collectionArgs) =>
        collectionArgs.userId === `${urlArgs?.userId}`,
    });
    expectTypeOf(list.move).toEqualTypeOf<CollectionMover<typeof Todo>>();
    expectTypeOf(list.remove).toEqualTypeOf<CollectionAdder<typeof Todo>>();
    expectTypeOf(list.moveWith(prependUnique)).toEqualTypeOf<CollectionMover<typeof Todo>>();
    expectTypeOf(Todo.key).toEqualTypeOf<string>();
  });

  test('a filter’s arguments are unknown, and a filter that types its arguments still fits', () => {
    type Option = NonNullable<CollectionOptions['createCollectionFilter']>;
    expectTypeOf<Parameters<CreateCollectionFilter>[0]>().toEqualTypeOf<unknown>();
    expectTypeOf<Parameters<Option>[0]>().toEqualTypeOf<unknown>();
    expectTypeOf<ThisParameterType<Option>>().toEqualTypeOf<Collection<CollectionListSchema>>();

    const typed = (urlArgs: { userId?: number } | undefined, body?: { title: string }) =>
      function (collectionArgs: Readonly<Record<string, string>>) {
        return collectionArgs.userId === `${urlArgs?.userId}` && body?.title !== '';
      };
    expectTypeOf(typed).toExtend<CreateCollectionFilter>();
    expectTypeOf(typed).toExtend<Option>();
    const list = new Collection([Todo], { createCollectionFilter: typed });
    expectTypeOf(list.addWith(prependUnique, typed)).toEqualTypeOf<CollectionAdder<typeof Todo, Todo[]>>();

    new Collection([Todo], {
      createCollectionFilter(...args) {
        expectTypeOf(args).toEqualTypeOf<readonly unknown[]>();
        expectTypeOf(this).toEqualTypeOf<Collection<CollectionListSchema>>();
        return () => true;
      },
    });
  });
});
