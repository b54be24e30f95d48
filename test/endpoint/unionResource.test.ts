/**
 * createResource with a schema.Union schema (data-client's `resource({ schema: union })`): every member
 * reads and writes the entity its attribute names, getList is a Collection of the union, delete
 * invalidates the member the response names; and the mis-capitalized class options fail at once.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Controller } from '../../core/controller/index.js';
import { createResource } from '../../core/endpoint/createResource.js';
import { RestEndpoint } from '../../core/endpoint/RestEndpoint.js';
import { EndpointDefinitionError, NormalizeError } from '../../core/errors.js';
import { Collection, normalize, schema } from '../../core/schema/index.js';
import { Todo } from '../fixtures/entities.js';
import { FeedItem, Link, Post } from '../fixtures/feedItems.js';

const API = 'http://union-resource.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const items = [
  { id: 1, type: 'link', url: 'https://a' },
  { id: 2, type: 'post', title: 'B' },
];

function feedServer() {
  server.use(
    http.get(`${API}/feed`, () => HttpResponse.json(items)),
    http.get(`${API}/feed/:id`, ({ params }) => HttpResponse.json(items.find((item) => `${item.id}` === params.id))),
    http.post(`${API}/feed`, async ({ request }) =>
      HttpResponse.json({ id: 3, ...((await request.json()) as object) }, { status: 201 }),
    ),
    http.delete(`${API}/feed/:id`, ({ params }) => HttpResponse.json(items.find((item) => `${item.id}` === params.id))),
  );
}

describe('createResource with a schema.Union', () => {
  test('get, getList, push and delete read and write the member each value names', async () => {
    feedServer();
    const FeedResource = createResource({ urlPrefix: API, path: '/feed/:id', schema: FeedItem });
    expect(FeedResource.getList.schema).toBeInstanceOf(Collection);
    expect(FeedResource.getList.schema.key).toBe('[Link;Post]');
    expect(FeedResource.get.name).toBe('Link;Post.get');
    const controller = new Controller();
    const list = await controller.fetch(FeedResource.getList);
    expect(list.map((item) => item.constructor)).toEqual([Link, Post]);
    const one = await controller.fetch(FeedResource.get, { id: 2 });
    expect(one).toBeInstanceOf(Post);
    const created = await controller.fetch(FeedResource.getList.push, {}, { type: 'post', title: 'C' });
    expect(created).toBeInstanceOf(Post);
    expect(controller.get(FeedResource.getList.schema, {})!.map((item) => item.id)).toEqual([1, 2, 3]);
    await controller.fetch(FeedResource.delete, { id: 1 });
    expect(controller.get(FeedResource.getList.schema, {})!.map((item) => item.id)).toEqual([2, 3]);
  });

  test('Invalidate of a union needs the attribute: a bare pk is a NormalizeError', () => {
    const invalidate = new schema.Invalidate(FeedItem);
    expect(invalidate.key).toBe('Link;Post');
    expect(normalize(invalidate, { id: 1, type: 'link' }).result).toEqual({ id: '1', schema: 'link' });
    expect(() => normalize(invalidate, '1')).toThrow(NormalizeError);
    expect(() => normalize(invalidate, { id: 1, type: 'video' })).toThrow(NormalizeError);
  });
});

describe('mis-capitalized class options', () => {
  test('endpoint or collection instead of Endpoint or Collection is an EndpointDefinitionError', () => {
    class MyEndpoint extends RestEndpoint<any, any, any, any, any, any> {}
    class MyCollection extends Collection<any> {}
    const path = '/todos/:id';
    expect(() => createResource({ path, schema: Todo, ...({ endpoint: MyEndpoint } as object) })).toThrow(
      EndpointDefinitionError,
    );
    expect(() => createResource({ path, schema: Todo, ...({ endpoint: MyEndpoint } as object) })).toThrow(
      /`Endpoint`, capitalized/,
    );
    expect(() => createResource({ path, schema: Todo, ...({ collection: MyCollection } as object) })).toThrow(
      /`Collection`, capitalized/,
    );
    expect(createResource({ path, schema: Todo, Endpoint: MyEndpoint }).get).toBeInstanceOf(MyEndpoint);
  });
});
