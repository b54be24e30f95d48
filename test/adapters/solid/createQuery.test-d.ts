import { describe, expectTypeOf, test } from 'vitest';
import type { Accessor, Resource } from 'solid-js';
import { Controller, RestEndpoint, type InfiniteState, type QueryState } from '../../../core/index.js';
import {
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  controllerPerRequest,
  preloadQuery,
  useLive,
  useSuspense,
  type InfiniteAccessor,
  type QueryResource,
  type QueryResult,
  type SolidQueryOptions,
  type SolidStateOptions,
} from '../../../adapters/solid/index.js';
import { Post, PostFeed, PostResource } from '../../fixtures/feedServer.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';

describe('rx-rest/solid types', () => {
  test('reconcile: an option of createQuery and createQueryState that keeps the data type', () => {
    expectTypeOf<SolidStateOptions['reconcile']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<SolidQueryOptions>().toMatchTypeOf<SolidStateOptions>();
    expectTypeOf(createQuery(TodoResource.getList, () => ({ userId: 1 }), { reconcile: true })).toEqualTypeOf<
      QueryResource<Todo[]>
    >();
    expectTypeOf(createQueryState(TodoResource.get, { id: 1 }, { reconcile: true })).toEqualTypeOf<
      Accessor<QueryResult<Todo>>
    >();
    // @ts-expect-error reconcile is a boolean
    createQuery(TodoResource.get, { id: 1 }, { reconcile: 'id' });
  });

  test('createQuery is typed from the endpoint', () => {
    expectTypeOf(createQuery(TodoResource.get, { id: 1 })).toEqualTypeOf<QueryResource<Todo>>();
    expectTypeOf(createQuery(TodoResource.get, () => ({ id: 1 }))).toEqualTypeOf<QueryResource<Todo>>();
    expectTypeOf(createQuery(TodoResource.getList, () => ({ userId: 1 }))).toEqualTypeOf<QueryResource<Todo[]>>();
    expectTypeOf(createQuery(TodoResource.get, { id: 1 })()).toEqualTypeOf<Todo | undefined>();
    expectTypeOf(useLive(TodoResource.get, { id: 1 })).toEqualTypeOf<QueryResource<Todo>>();
    expectTypeOf(useSuspense(TodoResource.get, { id: 1 })).toEqualTypeOf<QueryResource<Todo>>();
    expectTypeOf(createQueryState(TodoResource.get, { id: 1 })).toEqualTypeOf<Accessor<QueryResult<Todo>>>();
  });

  test("args may be left out where the endpoint's may (Data Client's useSuspense(endpoint)), as in createQuery", () => {
    const NoArgs = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/todos', schema: [Todo] });
    expectTypeOf(useSuspense(TodoResource.getList)).toEqualTypeOf<QueryResource<Todo[]>>();
    expectTypeOf(useSuspense(NoArgs)).toEqualTypeOf<QueryResource<Todo[]>>();
    expectTypeOf(useSuspense(PostFeed)).toEqualTypeOf<QueryResource<{ results: Post[]; next: string | null }>>();
    expectTypeOf(createQuery(TodoResource.getList)).toEqualTypeOf<QueryResource<Todo[]>>();
    expectTypeOf(useLive(NoArgs)).toEqualTypeOf<QueryResource<Todo[]>>();
    useSuspense(TodoResource.getList, undefined, new Controller());
    useSuspense(TodoResource.getList, () => ({ userId: 1 }), { deferStream: true });
    // @ts-expect-error get requires its id
    useSuspense(TodoResource.get);
    // @ts-expect-error get requires its id
    createQuery(TodoResource.get);
    // @ts-expect-error get requires its id
    useLive(TodoResource.get);
    // @ts-expect-error not an argument of the list
    useSuspense(TodoResource.getList, () => ({ id: 1 }));
  });

  test("createQueryState and createInfiniteQuery take no args where the endpoint's may be left out, as createQuery", () => {
    const NoArgs = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/todos', schema: [Todo] });
    const UserPosts = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/users/:userId/posts', schema: [Post] });
    expectTypeOf(createQueryState(TodoResource.getList)).toEqualTypeOf<Accessor<QueryResult<Todo[]>>>();
    expectTypeOf(createQueryState(NoArgs)).toEqualTypeOf<Accessor<QueryResult<Todo[]>>>();
    createQueryState(TodoResource.getList, undefined, { reconcile: true });
    expectTypeOf(createInfiniteQuery(PostResource.getList)).toEqualTypeOf<InfiniteAccessor<Post[]>>();
    expectTypeOf(createInfiniteQuery(PostFeed)).toEqualTypeOf<
      InfiniteAccessor<{ results: Post[]; next: string | null }>
    >();
    createInfiniteQuery(PostResource.getList, undefined, { pageSize: 3 });
    createInfiniteQuery(UserPosts, () => ({ userId: 1 }), { paginationField: 'page' });
    // @ts-expect-error get requires its id
    createQueryState(TodoResource.get);
    // @ts-expect-error the path's userId is required
    createInfiniteQuery(UserPosts);
    // @ts-expect-error the path's userId is required
    createInfiniteQuery(UserPosts, () => ({}));
    // @ts-expect-error not an option of an infinite list
    createInfiniteQuery(PostResource.getList, undefined, { deferStream: true });
  });

  test('args: a value, null, or an accessor, checked against the endpoint', () => {
    createQuery(TodoResource.get, () => null);
    createQuery(TodoResource.get, null);
    createQuery(TodoResource.getList, () => undefined);
    // @ts-expect-error id is missing
    createQuery(TodoResource.get, {});
    // @ts-expect-error not an argument of get
    createQuery(TodoResource.get, { id: 1, userId: 1 });
    // @ts-expect-error an accessor of the wrong args
    createQuery(TodoResource.get, () => ({ name: 'x' }));
  });

  test('createQuery is a Resource with placeholder; options or a controller as third argument', () => {
    expectTypeOf(createQuery(TodoResource.get, { id: 1 })).toExtend<Resource<Todo>>();
    expectTypeOf(createQuery(TodoResource.get, { id: 1 }).placeholder).toEqualTypeOf<boolean>();
    expectTypeOf<QueryResult<Todo>>().toExtend<QueryState<Todo>>();
    createQuery(TodoResource.get, { id: 1 }, new Controller());
    createQuery(TodoResource.get, () => ({ id: 1 }), { keepPreviousData: true, controller: new Controller() });
    // @ts-expect-error not an option
    createQuery(TodoResource.get, { id: 1 }, { keepPrevious: true });
  });

  test('server rendering: deferStream is an option of the suspending reads; controllerPerRequest gives a controller getter', () => {
    createQuery(TodoResource.get, { id: 1 }, { deferStream: true });
    useSuspense(TodoResource.get, () => ({ id: 1 }), { deferStream: false, controller: new Controller() });
    // @ts-expect-error createQueryState never suspends, so it never holds the stream back
    createQueryState(TodoResource.get, { id: 1 }, { deferStream: true });
    const appController = controllerPerRequest(() => new Controller({ retry: 0 }));
    expectTypeOf(appController).toEqualTypeOf<() => Controller>();
    // @ts-expect-error the factory makes a Controller
    controllerPerRequest(() => ({}));
    expectTypeOf(preloadQuery(appController(), TodoResource.get, { id: 1 })).toEqualTypeOf<void>();
    // @ts-expect-error the endpoint's arguments are checked
    preloadQuery(appController(), TodoResource.get, { userId: 1 });
  });

  test('createMutation is typed from the endpoint', () => {
    const rename = createMutation(TodoResource.partialUpdate);
    expectTypeOf(rename.mutate({ id: 1 }, { title: 'x' })).toEqualTypeOf<Promise<Todo>>();
    expectTypeOf(rename.pending).toEqualTypeOf<Accessor<boolean>>();
    expectTypeOf(rename.error).toEqualTypeOf<Accessor<Error | undefined>>();
    expectTypeOf(rename.data).toEqualTypeOf<Accessor<Todo | undefined>>();
    expectTypeOf(createMutation(TodoResource.delete, new Controller()).mutate).parameters.toEqualTypeOf<
      [{ id: string | number }]
    >();
    // @ts-expect-error id is missing
    rename.mutate({}, { title: 'x' });
    // @ts-expect-error not a Todo field
    rename.mutate({ id: 1 }, { name: 'x' });
  });

  test('createInfiniteQuery is typed from the list endpoint', () => {
    const posts = createInfiniteQuery(PostResource.getList, () => ({ userId: 1 }), { pageSize: 3 });
    expectTypeOf(posts).toExtend<Accessor<InfiniteState<Post[]>>>();
    expectTypeOf(posts.loadNext).toEqualTypeOf<() => Promise<void>>();
    expectTypeOf(createInfiniteQuery(PostFeed, undefined)().data).toEqualTypeOf<
      { results: Post[]; next: string | null } | undefined
    >();
    // @ts-expect-error not an argument of the list
    createInfiniteQuery(PostResource.getList, { id: 1 });
    // @ts-expect-error a mutation endpoint is no list to read
    createInfiniteQuery(PostResource.getList.push, {});
  });
});
