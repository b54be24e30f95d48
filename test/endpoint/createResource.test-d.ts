import { describe, expectTypeOf, test } from 'vitest';
import { createResource } from '../../core/endpoint/createResource.js';
import { RestEndpoint, type AnyRestEndpoint } from '../../core/endpoint/RestEndpoint.js';
import { Collection } from '../../core/schema/index.js';
import { Post } from '../fixtures/entities.js';

interface PostJson {
  id: number;
  group: string;
  title: string;
}

type V = string | number;

const PostResource = createResource({
  path: '/:group/posts/:id',
  schema: Post,
  searchParams: {} as { author?: string } | undefined,
  paginationField: 'page',
});

describe('members', () => {
  test('get', () => {
    expectTypeOf(PostResource.get({ group: 'g', id: 1 })).toEqualTypeOf<Promise<PostJson>>();
    // @ts-expect-error id is missing
    PostResource.get({ group: 'g' });
    // @ts-expect-error search params belong to the list
    PostResource.get({ group: 'g', id: 1, author: 'ann' });
  });

  test('getList and its members', () => {
    expectTypeOf(PostResource.getList.path).toEqualTypeOf<'/:group/posts'>();
    expectTypeOf(PostResource.getList({ group: 'g', author: 'ann' })).toEqualTypeOf<Promise<PostJson[]>>();
    PostResource.getList({ group: 'g' });
    // @ts-expect-error the list has no id
    PostResource.getList({ group: 'g', id: 1 });
    // @ts-expect-error group is required
    PostResource.getList();

    expectTypeOf(PostResource.getList.push({ group: 'g' }, { title: 'x' })).toEqualTypeOf<Promise<PostJson>>();
    expectTypeOf(PostResource.getList.unshift({ group: 'g', author: 'a' }, { title: 'x' })).toEqualTypeOf<
      Promise<PostJson>
    >();
    // @ts-expect-error wrong body field type
    PostResource.getList.push({ group: 'g' }, { title: 1 });

    expectTypeOf(PostResource.getList.getPage({ group: 'g', page: 2 })).toEqualTypeOf<Promise<PostJson[]>>();
    PostResource.getList.getPage({ group: 'g', author: 'a', page: '2' });
    // @ts-expect-error the page is required
    PostResource.getList.getPage({ group: 'g' });
  });

  test('mutations', () => {
    expectTypeOf(PostResource.update).parameters.toEqualTypeOf<[args: { group: V; id: V }, body: Partial<PostJson>]>();
    expectTypeOf(PostResource.partialUpdate({ group: 'g', id: 1 }, { title: 'x' })).toEqualTypeOf<Promise<PostJson>>();
    // @ts-expect-error the body is required
    PostResource.update({ group: 'g', id: 1 });
    expectTypeOf(PostResource.delete).parameters.toEqualTypeOf<[args: { group: V; id: V }]>();
    expectTypeOf(PostResource.delete({ group: 'g', id: 1 })).toEqualTypeOf<
      Promise<Partial<PostJson> | { group: V; id: V } | string>
    >();
  });

  test('a declared body replaces the default', () => {
    const Typed = createResource({ path: '/posts/:id', schema: Post, body: {} as { title: string } });
    Typed.update({ id: 1 }, { title: 'x' });
    // @ts-expect-error title is required in the declared body
    Typed.update({ id: 1 }, {});
    Typed.partialUpdate({ id: 1 }, {});
  });

  test('getPage only with a paginationField', () => {
    const Plain = createResource({ path: '/posts/:id', schema: Post });
    // @ts-expect-error no paginationField, no usable getPage (every endpoint has the member; untyped without a field)
    Plain.getList.getPage({ page: 2 });
    Plain.getList();
  });

  test('Endpoint and Collection options accept subclasses', () => {
    class MyEndpoint extends RestEndpoint {}
    class MyCollection extends Collection {}
    createResource({ path: '/posts/:id', schema: Post, Endpoint: MyEndpoint, Collection: MyCollection });
    // @ts-expect-error not an endpoint class
    createResource({ path: '/posts/:id', schema: Post, Endpoint: Date });
  });
});

describe('AnyRestEndpoint', () => {
  test('every member fits the type that accepts any endpoint', () => {
    const accept = (endpoint: AnyRestEndpoint) => endpoint;
    accept(PostResource.get);
    accept(PostResource.getList);
    accept(PostResource.getList.push);
    accept(PostResource.getList.getPage);
    accept(PostResource.update);
    accept(PostResource.delete);
  });
});

describe('extend', () => {
  test('batch: types follow the overrides', () => {
    const Extended = PostResource.extend({
      getList: { path: '/:group/articles', schema: { results: new Collection([Post]), total: 0 } },
      update: { method: 'PATCH' },
    });
    expectTypeOf(Extended.getList.path).toEqualTypeOf<'/:group/articles'>();
    expectTypeOf(Extended.getList({ group: 'g' })).toEqualTypeOf<Promise<{ results: PostJson[]; total: number }>>();
    // @ts-expect-error the new path has no id
    Extended.getList({ group: 'g', id: 1 });
    expectTypeOf(Extended.getList.push({ group: 'g' }, { title: 'x' })).toEqualTypeOf<Promise<PostJson>>();
    expectTypeOf(Extended.update.method).toEqualTypeOf<'PATCH'>();
    expectTypeOf(Extended.get).toEqualTypeOf(PostResource.get);
    // @ts-expect-error unknown member
    PostResource.extend({ nope: {} });
  });

  test('named: a member built from get', () => {
    const Extended = PostResource.extend('byAuthor', { path: '/authors/:author/posts', schema: [Post] });
    expectTypeOf(Extended.byAuthor.path).toEqualTypeOf<'/authors/:author/posts'>();
    expectTypeOf(Extended.byAuthor({ author: 'ann' })).toEqualTypeOf<Promise<PostJson[]>>();
    // @ts-expect-error author is required
    Extended.byAuthor({});
    expectTypeOf(Extended.get).toEqualTypeOf(PostResource.get);
  });

  test('function: members derived from the base', () => {
    const Extended = PostResource.extend((base) => ({
      search: base.getList.extend({ path: '/:group/posts/search/:q?', schema: { results: [Post], next: '' } }),
    }));
    expectTypeOf(Extended.search({ group: 'g' })).toEqualTypeOf<Promise<{ results: PostJson[]; next: string }>>();
    Extended.search({ group: 'g', q: 'rx' });
    // @ts-expect-error group is required
    Extended.search({ q: 'rx' });
    expectTypeOf(Extended.getList).toEqualTypeOf(PostResource.getList);
  });
});
