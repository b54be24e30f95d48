import { describe, expectTypeOf, test } from 'vitest';
import type { Readable } from 'svelte/store';
import { readable } from 'svelte/store';
import { Controller, RestEndpoint, type InfiniteState, type QueryState } from '../../../core/index.js';
import {
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  useLive,
  useSuspense,
  type InfiniteQueryStore,
  type QueryResult,
  type SvelteQueryOptions,
} from '../../../adapters/svelte/index.js';
import { Post, PostFeed, PostResource } from '../../fixtures/feedServer.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';

describe('rx-rest/svelte types', () => {
  test('createQuery is typed from the endpoint', () => {
    expectTypeOf(createQuery(TodoResource.get, { id: 1 })).toEqualTypeOf<Readable<QueryResult<Todo>>>();
    expectTypeOf(createQuery(TodoResource.getList, { userId: 1 })).toEqualTypeOf<Readable<QueryResult<Todo[]>>>();
    expectTypeOf(useLive(TodoResource.get, { id: 1 })).toEqualTypeOf<Readable<QueryResult<Todo>>>();
    expectTypeOf(useSuspense(TodoResource.get, { id: 1 })).toEqualTypeOf<Readable<QueryResult<Todo>>>();
    expectTypeOf(createQueryState(TodoResource.get, { id: 1 }).data).toEqualTypeOf<Todo | undefined>();
  });

  test('args: a value, null, a store, or a getter, checked against the endpoint', () => {
    createQuery(TodoResource.get, null);
    createQuery(TodoResource.get, readable({ id: 2 }));
    createQuery(TodoResource.get, () => ({ id: 3 }));
    createQuery(TodoResource.getList, undefined);
    // @ts-expect-error id is missing
    createQuery(TodoResource.get, {});
    // @ts-expect-error not an argument of get
    createQuery(TodoResource.get, { id: 1, userId: 1 });
    // @ts-expect-error a store of the wrong args
    createQuery(TodoResource.get, readable({ userId: 1 }));
    // @ts-expect-error a getter of the wrong args
    createQuery(TodoResource.get, () => ({ name: 'x' }));
  });

  test("args may be left out where the endpoint's may (Data Client's useSuspense(endpoint)), as in createQuery", () => {
    const NoArgs = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/todos', schema: [Todo] });
    expectTypeOf(useSuspense(TodoResource.getList)).toEqualTypeOf<Readable<QueryResult<Todo[]>>>();
    expectTypeOf(useSuspense(NoArgs)).toEqualTypeOf<Readable<QueryResult<Todo[]>>>();
    expectTypeOf(useSuspense(PostFeed)).toEqualTypeOf<
      Readable<QueryResult<{ results: Post[]; next: string | null }>>
    >();
    expectTypeOf(createQuery(TodoResource.getList)).toEqualTypeOf<Readable<QueryResult<Todo[]>>>();
    expectTypeOf(useLive(NoArgs)).toEqualTypeOf<Readable<QueryResult<Todo[]>>>();
    useSuspense(TodoResource.getList, undefined, new Controller());
    useSuspense(TodoResource.getList, () => ({ userId: 1 }), { keepPreviousData: true });
    // @ts-expect-error get requires its id
    useSuspense(TodoResource.get);
    // @ts-expect-error get requires its id
    createQuery(TodoResource.get);
    // @ts-expect-error get requires its id
    useLive(TodoResource.get);
    // @ts-expect-error not an argument of the list
    useSuspense(TodoResource.getList, { id: 1 });
  });

  test("createQueryState and createInfiniteQuery take no args where the endpoint's may be left out, as createQuery", () => {
    const NoArgs = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/todos', schema: [Todo] });
    const UserPosts = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/users/:userId/posts', schema: [Post] });
    expectTypeOf(createQueryState(TodoResource.getList)).toEqualTypeOf<QueryResult<Todo[]>>();
    expectTypeOf(createQueryState(NoArgs).data).toEqualTypeOf<Todo[] | undefined>();
    createQueryState(TodoResource.getList, undefined, { reconcile: true });
    expectTypeOf(createInfiniteQuery(PostResource.getList)).toEqualTypeOf<InfiniteQueryStore<Post[]>>();
    expectTypeOf(createInfiniteQuery(PostFeed)).toEqualTypeOf<
      InfiniteQueryStore<{ results: Post[]; next: string | null }>
    >();
    createInfiniteQuery(PostResource.getList, undefined, { pageSize: 3 });
    createInfiniteQuery(UserPosts, { userId: 1 }, { paginationField: 'page' });
    // @ts-expect-error get requires its id
    createQueryState(TodoResource.get);
    // @ts-expect-error the path's userId is required
    createInfiniteQuery(UserPosts);
    // @ts-expect-error the path's userId is required
    createInfiniteQuery(UserPosts, {});
    // @ts-expect-error not an option of an infinite list
    createInfiniteQuery(PostResource.getList, undefined, { reconcile: true });
  });

  test('QueryResult is the QueryState plus placeholder; options or a controller as third argument', () => {
    expectTypeOf<QueryResult<Todo>>().toExtend<QueryState<Todo>>();
    expectTypeOf(createQueryState(TodoResource.get, { id: 1 }).placeholder).toEqualTypeOf<boolean>();
    createQuery(TodoResource.get, { id: 1 }, new Controller());
    createQuery(TodoResource.get, { id: 1 }, { keepPreviousData: true, controller: new Controller() });
    // @ts-expect-error not an option
    createQuery(TodoResource.get, { id: 1 }, { keepPrevious: true });
  });

  test('createMutation is typed from the endpoint', () => {
    const rename = createMutation(TodoResource.partialUpdate);
    expectTypeOf(rename.mutate({ id: 1 }, { title: 'x' })).toEqualTypeOf<Promise<Todo>>();
    expectTypeOf(rename.pending).toEqualTypeOf<boolean>();
    expectTypeOf(rename.error).toEqualTypeOf<Error | undefined>();
    expectTypeOf(rename.data).toEqualTypeOf<Todo | undefined>();
    expectTypeOf(rename).toExtend<Readable<{ pending: boolean; data: Todo | undefined }>>();
    expectTypeOf(createMutation(TodoResource.getList.push).mutate).returns.toEqualTypeOf<Promise<Todo>>();
    // @ts-expect-error id is missing
    rename.mutate({}, { title: 'x' });
    // @ts-expect-error not a Todo field
    rename.mutate({ id: 1 }, { name: 'x' });
  });

  test('createInfiniteQuery is typed from the list endpoint', () => {
    const posts = createInfiniteQuery(PostResource.getList, { userId: 1 }, { pageSize: 3 });
    expectTypeOf(posts).toExtend<Readable<InfiniteState<Post[]>>>();
    expectTypeOf(posts.loadNext).toEqualTypeOf<() => Promise<void>>();
    const feed = createInfiniteQuery(PostFeed, () => undefined);
    expectTypeOf(feed).toExtend<Readable<InfiniteState<{ results: Post[]; next: string | null }>>>();
    // @ts-expect-error not an argument of the list
    createInfiniteQuery(PostResource.getList, { id: 1 });
    // @ts-expect-error a mutation endpoint is no list to read
    createInfiniteQuery(PostResource.getList.push, {});
  });
});

describe('reconcile', () => {
  test('is an option of createQuery, useSuspense and createQueryState, and keeps the data type', () => {
    const options: SvelteQueryOptions = { reconcile: true, keepPreviousData: true };
    expectTypeOf(createQuery(TodoResource.getList, {}, options)).toEqualTypeOf<Readable<QueryResult<Todo[]>>>();
    expectTypeOf(useSuspense(TodoResource.get, { id: 1 }, { reconcile: true })).toEqualTypeOf<
      Readable<QueryResult<Todo>>
    >();
    expectTypeOf(createQueryState(TodoResource.getList, {}, { reconcile: false }).data).toEqualTypeOf<
      Todo[] | undefined
    >();
    // @ts-expect-error reconcile is a boolean
    createQuery(TodoResource.getList, {}, { reconcile: 'yes' });
  });
});
