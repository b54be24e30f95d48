import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createResource } from '../../core/endpoint/createResource.js';
import { RestEndpoint } from '../../core/endpoint/RestEndpoint.js';
import { Collection, CollectionAdder, Invalidate, normalize } from '../../core/schema/index.js';
import { Post } from '../fixtures/entities.js';

const API = 'http://api.test';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  method: string;
  url: string;
  body: string;
  credentials: RequestCredentials;
}

function answer(
  reply: (request: Request) => Response | Promise<Response> = () => HttpResponse.json({ id: 1 }),
): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      seen.push({
        method: request.method,
        url: request.url,
        body: await request.clone().text(),
        credentials: request.credentials,
      });
      return reply(request);
    }),
  );
  return seen;
}

const PostResource = createResource({
  urlPrefix: API,
  path: '/:group/posts/:id',
  schema: Post,
  searchParams: {} as { author?: string } | undefined,
  paginationField: 'page',
  pollFrequency: 30_000,
  dataExpiryLength: 10_000,
});

describe('members (SPEC 4.1)', () => {
  test('methods, paths, query strings and bodies', async () => {
    const seen = answer(() => HttpResponse.json({ id: 1 }));
    await PostResource.get({ group: 'news', id: 1 });
    await PostResource.getList({ group: 'news', author: 'ann' });
    await PostResource.getList.push({ group: 'news', author: 'ann' }, { title: 'pushed' });
    await PostResource.getList.unshift({ group: 'news' }, { title: 'unshifted' });
    await PostResource.getList.getPage({ group: 'news', author: 'ann', page: 2 });
    await PostResource.update({ group: 'news', id: 1 }, { title: 'all' });
    await PostResource.partialUpdate({ group: 'news', id: 1 }, { title: 'some' });
    await PostResource.delete({ group: 'news', id: 1 });
    expect(seen.map((request) => `${request.method} ${request.url.slice(API.length)} ${request.body}`.trim())).toEqual([
      'GET /news/posts/1',
      'GET /news/posts?author=ann',
      'POST /news/posts?author=ann {"title":"pushed"}',
      'POST /news/posts {"title":"unshifted"}',
      'GET /news/posts?author=ann&page=2',
      'PUT /news/posts/1 {"title":"all"}',
      'PATCH /news/posts/1 {"title":"some"}',
      'DELETE /news/posts/1',
    ]);
  });

  test('schemas', () => {
    expect(PostResource.get.schema).toBe(Post);
    expect(PostResource.update.schema).toBe(Post);
    expect(PostResource.partialUpdate.schema).toBe(Post);
    const list = PostResource.getList.schema;
    expect(list).toBeInstanceOf(Collection);
    expect(PostResource.getList.push.schema).toBe(list.push);
    expect(PostResource.getList.unshift.schema).toBe(list.unshift);
    expect(PostResource.getList.getPage.schema).toBeInstanceOf(CollectionAdder);
    expect(PostResource.getList.getPage.schema.collection).toBe(list);
    expect(PostResource.delete.schema).toBeInstanceOf(Invalidate);
    expect(PostResource.delete.schema.entity).toBe(Post);
  });

  test('paths, pagination field, names and extra options', () => {
    expect(PostResource.get.path).toBe('/:group/posts/:id');
    expect(PostResource.getList.path).toBe('/:group/posts');
    expect(PostResource.getList.paginationField).toBe('page');
    expect(PostResource.getList.getPage.paginationField).toBe('page');
    expect(PostResource.getList.push.name).toBe('Post.getList.push');
    expect(PostResource.delete.name).toBe('Post.delete');
    for (const endpoint of [PostResource.get, PostResource.getList, PostResource.getList.push, PostResource.delete]) {
      expect(endpoint.pollFrequency).toBe(30_000);
      expect(endpoint.dataExpiryLength).toBe(10_000);
      expect(endpoint.urlPrefix).toBe(API);
    }
    expect(PostResource.getList.push.optimistic).toBeUndefined();
  });

  test('getPage is usable only with a paginationField', () => {
    const Plain = createResource({ path: '/posts/:id', schema: Post });
    expect(() => Plain.getList.getPage).toThrow(/Post\.getList\.getPage: the endpoint has no paginationField/);
    expect(Plain.getList.path).toBe('/posts');
  });

  test('optimistic: true makes the mutations optimistic, not the reads', () => {
    const Optimistic = createResource({ path: '/posts/:id', schema: Post, optimistic: true });
    for (const endpoint of [
      Optimistic.update,
      Optimistic.partialUpdate,
      Optimistic.delete,
      Optimistic.getList.push,
      Optimistic.getList.unshift,
    ]) {
      expect(endpoint.optimistic).toBe(true);
    }
    expect(Optimistic.get.optimistic).toBeUndefined();
    expect(Optimistic.getList.optimistic).toBeUndefined();
  });
});

describe('getPage appends to the list of the same arguments (without the pagination field)', () => {
  test('through normalize', () => {
    const args = { group: 'news', author: 'ann' };
    let tables = normalize(PostResource.getList.schema, [{ id: 1 }, { id: 2 }], [args]);
    tables = normalize(PostResource.getList.schema, [{ id: 9 }], [{ group: 'news' }], tables);
    tables = normalize(PostResource.getList.getPage.schema, [{ id: 2 }, { id: 3 }], [{ ...args, page: 2 }], tables);
    const lists = tables.entities[PostResource.getList.schema.key]!;
    expect(lists['{"author":"ann","group":"news"}']).toEqual(['1', '2', '3']);
    expect(lists['{"group":"news"}']).toEqual(['9']);
  });
});

describe('delete (SPEC 4.3)', () => {
  test('uses the response when it has keys', async () => {
    answer(() => HttpResponse.json({ id: 5, group: 'news' }));
    await expect(PostResource.delete({ group: 'news', id: 1 })).resolves.toEqual({ id: 5, group: 'news' });
  });

  test('uses a pk string response', async () => {
    answer(() => HttpResponse.json('5'));
    await expect(PostResource.delete({ group: 'news', id: 1 })).resolves.toBe('5');
  });

  test.each([
    ['an empty body', () => new HttpResponse(null, { status: 204 })],
    ['an empty object', () => HttpResponse.json({})],
  ])('falls back to the URL params for %s', async (_, reply) => {
    answer(reply);
    await expect(PostResource.delete({ group: 'news', id: 1 })).resolves.toEqual({ group: 'news', id: 1 });
  });
});

describe('Endpoint and Collection options', () => {
  test('every member is built with the Endpoint class', async () => {
    const seen = answer();
    class CredentialsEndpoint extends RestEndpoint {
      override async getRequestInit(body: undefined): Promise<RequestInit> {
        return { ...(await super.getRequestInit(body)), credentials: 'same-origin' };
      }
    }
    const Resource = createResource({
      urlPrefix: API,
      path: '/posts/:id',
      schema: Post,
      Endpoint: CredentialsEndpoint,
    });
    for (const endpoint of [
      Resource.get,
      Resource.getList,
      Resource.getList.push,
      Resource.update,
      Resource.partialUpdate,
      Resource.delete,
    ]) {
      expect(endpoint).toBeInstanceOf(CredentialsEndpoint);
    }
    await Resource.update({ id: 1 }, { title: 'x' });
    expect(seen[0]!.credentials).toBe('same-origin');
  });

  test('getList uses the Collection class', () => {
    class OrderedCollection extends Collection {
      override nonFilterArgumentKeys(key: string) {
        return key === 'sortBy';
      }
    }
    const Resource = createResource({ path: '/posts/:id', schema: Post, Collection: OrderedCollection });
    expect(Resource.getList.schema).toBeInstanceOf(OrderedCollection);
    expect(Resource.getList.schema.nonFilterArgumentKeys('sortBy')).toBe(true);
  });
});

describe('extend (SPEC 4.5)', () => {
  test('batch: overrides options of those members; the old resource is unchanged', async () => {
    const seen = answer(() => HttpResponse.json({ results: [], total: 0 }));
    const Extended = PostResource.extend({
      getList: { path: '/:group/articles', dataExpiryLength: 1 },
      update: { method: 'PATCH' },
    });
    expect(Extended.getList.path).toBe('/:group/articles');
    expect(Extended.getList.dataExpiryLength).toBe(1);
    expect(Extended.getList.push.path).toBe('/:group/articles');
    expect(Extended.getList.getPage.path).toBe('/:group/articles');
    expect(Extended.update.method).toBe('PATCH');
    expect(Extended.get).toBe(PostResource.get);
    expect(PostResource.getList.path).toBe('/:group/posts');
    expect(PostResource.update.method).toBe('PUT');
    await Extended.getList({ group: 'g' });
    expect(seen[0]!.url).toBe(`${API}/g/articles`);
  });

  test('batch: replacing getList.schema with an object holding the collection', () => {
    const Extended = PostResource.extend({
      getList: { schema: { results: new Collection([Post]), total: 0, limit: 0, skip: 0 } },
    });
    expect(Extended.getList.schema.total).toBe(0);
    expect(Extended.getList.push).toBeDefined();
  });

  test('batch: an unknown member is an error naming it', () => {
    // @ts-expect-error no such member
    expect(() => PostResource.extend({ getAll: { path: '/x' } })).toThrow(/no member "getAll"/);
  });

  test('named: adds a member built from get', async () => {
    const seen = answer(() => HttpResponse.json([]));
    const Extended = PostResource.extend('byAuthor', { path: '/authors/:author/posts', schema: [Post] });
    expect(Extended.byAuthor).toBeInstanceOf(RestEndpoint);
    expect(Extended.byAuthor.urlPrefix).toBe(API);
    expect(Extended.byAuthor.name).toBe('Post.byAuthor');
    expect(Extended.get).toBe(PostResource.get);
    expect('byAuthor' in PostResource).toBe(false);
    await Extended.byAuthor({ author: 'ann' });
    expect(seen[0]!.url).toBe(`${API}/authors/ann/posts`);
  });

  test('function: derives members from the base ones', async () => {
    const seen = answer(() => HttpResponse.json({ results: [], next: null }));
    const Extended = PostResource.extend((base) => ({
      search: base.getList.extend({
        path: '/:group/posts/search/:q?/:page?',
        schema: { results: [Post], next: '' },
      }),
    }));
    await Extended.search({ group: 'news', q: 'rx' });
    await Extended.search({ group: 'news' });
    expect(seen.map((request) => request.url)).toEqual([`${API}/news/posts/search/rx`, `${API}/news/posts/search`]);
    expect(Extended.getList).toBe(PostResource.getList);
    // extend chains
    const Again = Extended.extend({ search: { dataExpiryLength: 5 } });
    expect(Again.search.dataExpiryLength).toBe(5);
  });
});
