/**
 * Behaviours of Reactive Data Client's RestEndpoint and resource that rx-rest follows, written from
 * its documentation: derived list members, extension, `sideEffect`, names, `content`, `testKey`,
 * `searchToString`, `NetworkError.toJSON`, and `move`/`remove` between collections.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Controller } from '../../core/controller/index.js';
import { createResource } from '../../core/endpoint/createResource.js';
import { RestEndpoint, type AnyRestEndpoint } from '../../core/endpoint/RestEndpoint.js';
import { EndpointDefinitionError, NetworkError, NormalizeError, ParseError } from '../../core/errors.js';
import { Collection, Entity, prependUnique, schema } from '../../core/schema/index.js';
import { Todo } from '../fixtures/entities.js';

const API = 'http://api.test';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  method: string;
  url: string;
  body: string;
  headers: Headers;
}

/** Answers every request to the API with `reply` and records what arrived. */
function answer(reply: (request: Request, body: string) => Response | Promise<Response>): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const body = await request.clone().text();
      seen.push({ method: request.method, url: request.url, body, headers: request.headers });
      return reply(request, body);
    }),
  );
  return seen;
}

/** A server of todos: lists filtered by `userId`, PATCH merges the body, POST creates. */
function todoServer(todos: { id: number; userId: number; title: string }[]): Seen[] {
  let nextId = 100;
  return answer((request, body) => {
    const url = new URL(request.url);
    const id = Number(url.pathname.split('/')[2]);
    if (request.method === 'GET') {
      const userId = url.searchParams.get('userId');
      return HttpResponse.json(todos.filter((todo) => userId === null || `${todo.userId}` === userId));
    }
    const changes = JSON.parse(body) as Partial<{ id: number; userId: number; title: string }>;
    if (request.method === 'POST') {
      const created = { id: nextId++, userId: 0, title: '', ...changes };
      todos.push(created);
      return HttpResponse.json(created, { status: 201 });
    }
    const todo = todos.find((item) => item.id === (Number.isNaN(id) ? changes.id : id))!;
    Object.assign(todo, changes);
    return HttpResponse.json(todo);
  });
}

const ids = (todos: readonly Todo[] | undefined) => todos?.map((todo) => todo.id);

describe('Entity.key', () => {
  test('defaults to the class name, and every derived name uses it', async () => {
    class Draft extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
    }
    expect(Draft.key).toBe('Draft');
    const DraftResource = createResource({ urlPrefix: API, path: '/drafts/:id', schema: Draft });
    expect(DraftResource.get.name).toBe('Draft.get');
    expect(DraftResource.getList.name).toBe('Draft.getList');
    expect(DraftResource.getList.push.name).toBe('Draft.getList.push');
    answer(() => HttpResponse.json({ title: 'no id' }));
    const controller = new Controller();
    await expect(controller.fetch(DraftResource.get, { id: 1 })).rejects.toThrow(/^Draft: .*Draft\.get/);
    answer(() => HttpResponse.json([{ id: 1 }]));
    await controller.fetch(DraftResource.getList);
    expect(Object.keys(controller.getState().entities)).toContain('Draft');
  });

  test('static key overrides it, for that class and its subclasses; assigning it names that class only', () => {
    class Named extends Entity {
      pk() {
        return '1';
      }
      static override key = 'Custom';
    }
    class Child extends Named {}
    class Other extends Entity {
      pk() {
        return '1';
      }
    }
    expect(Named.key).toBe('Custom');
    expect(Child.key).toBe('Custom');
    Other.key = 'Renamed';
    expect(Other.key).toBe('Renamed');
    expect(Entity.key).toBe('Entity');
  });
});

describe('resources', () => {
  test('a resource path without a parameter is a named error', () => {
    expect(() => createResource({ path: '/todos/', schema: Todo })).toThrow(EndpointDefinitionError);
    expect(() => createResource({ path: '/todos', schema: Todo })).toThrow(
      /createResource\(\{ path: '\/todos' \}\): .* needs a parameter \(e\.g\. '\/todos\/:id'\)/,
    );
  });

  test("extend('getList', options) extends the existing getList, which keeps its members", async () => {
    const TodoResource = createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo });
    const Searchable = TodoResource.extend('getList', { searchParams: {} as { userId?: number } });
    expect(Searchable.getList.path).toBe('/todos');
    expect(Searchable.getList.schema).toBe(TodoResource.getList.schema);
    expect(Searchable.getList.name).toBe('Todo.getList');
    expect(Searchable.getList.push.method).toBe('POST');
    expect(Searchable.get).toBe(TodoResource.get);
    const seen = todoServer([{ id: 1, userId: 1, title: 'a' }]);
    await Searchable.getList({ userId: 1 });
    expect(seen[0]!.url).toBe(`${API}/todos?userId=1`);
    // a new name still builds on get
    const WithSearch = TodoResource.extend('byTitle', { path: '/todos/by-title/:title' });
    expect(WithSearch.byTitle.name).toBe('Todo.byTitle');
    expect(WithSearch.byTitle.schema).toBe(Todo);
  });

  test('getList.extend(...) keeps push/unshift/getPage, derived from the extended list with its hooks', async () => {
    const TodoResource = createResource({
      urlPrefix: API,
      path: '/todos/:id',
      schema: Todo,
      paginationField: 'page',
    });
    const polling = TodoResource.getList.extend({ pollFrequency: 2000 });
    expect(polling.push.pollFrequency).toBe(2000);
    expect(polling.unshift.method).toBe('POST');
    // after endpoint.extend, getPage keeps working (typed only on the resource's own getList)
    expect((polling.getPage as AnyRestEndpoint).name).toBe('Todo.getList.getPage');
    expect(polling.push).toBe(polling.push);

    const Authed = TodoResource.extend({
      getList: {
        async getRequestInit(body: unknown): Promise<RequestInit> {
          const init = await RestEndpoint.prototype.getRequestInit.call(this as never, body as never);
          return { ...init, headers: { ...(init.headers as Record<string, string>), 'X-Token': 'secret' } };
        },
      },
    });
    const Functional = TodoResource.extend((base) => ({ feed: base.getList.extend({ path: '/feed' }) }));
    const seen = todoServer([]);
    await Authed.getList.push({ title: 'a' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: `${API}/todos` });
    expect(seen[0]!.headers.get('X-Token')).toBe('secret');
    await Functional.feed.push({}, { title: 'b' });
    expect(seen[1]).toMatchObject({ method: 'POST', url: `${API}/feed`, body: '{"title":"b"}' });
    await (Functional.feed.getPage as AnyRestEndpoint)({ page: 2 });
    expect(seen[2]).toMatchObject({ method: 'GET', url: `${API}/feed?page=2` });
  });

  test('the list members of an optimistic resource are optimistic, with the resource body', () => {
    const TodoResource = createResource({ path: '/todos/:id', schema: Todo, optimistic: true });
    expect(TodoResource.getList.optimistic).toBeUndefined();
    expect(TodoResource.getList.push.optimistic).toBe(true);
    expect(TodoResource.getList.move.optimistic).toBe(true);
    expect(TodoResource.getList.extend({ dataExpiryLength: 5 }).remove.optimistic).toBe(true);
  });
});

describe('sideEffect and names', () => {
  test('sideEffect: undefined for GET, true for other methods, kept when given (undefined included)', () => {
    expect(new RestEndpoint({ path: '/a' }).sideEffect).toBeUndefined();
    expect(new RestEndpoint({ path: '/a', method: 'GET' }).sideEffect).toBeUndefined();
    expect(new RestEndpoint({ path: '/a', method: 'POST' }).sideEffect).toBe(true);
    expect(new RestEndpoint({ path: '/a', method: 'DELETE' }).sideEffect).toBe(true);
    expect(new RestEndpoint({ path: '/a', method: 'POST', sideEffect: undefined }).sideEffect).toBeUndefined();
    expect(new RestEndpoint({ path: '/a', method: 'POST', sideEffect: false }).sideEffect).toBe(false);
    const post = new RestEndpoint({ path: '/a', method: 'POST', sideEffect: false });
    expect(post.extend({ name: 'x' }).sideEffect).toBe(false);
    expect(post.extend({ method: 'PUT' }).sideEffect).toBe(true);
    expect(new RestEndpoint({ path: '/a', method: 'POST' }).extend({ method: 'GET' }).sideEffect).toBeUndefined();
  });

  test('the default name is urlPrefix + path', () => {
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id' });
    expect(get.name).toBe(`${API}/todos/:id`);
    expect(get.extend({ path: '/users/:id' }).name).toBe(`${API}/users/:id`);
    expect(new RestEndpoint({ path: '/todos' }).name).toBe('/todos');
  });
});

describe('content', () => {
  test('content fixes how the body is read', async () => {
    answer(() => new HttpResponse('hello', { headers: { 'Content-Type': 'application/json' } }));
    const endpoint = new RestEndpoint({ urlPrefix: API, path: '/file' });
    await expect(endpoint.extend({ content: 'text' })()).resolves.toBe('hello');
    const blob = await endpoint.extend({ content: 'blob' })();
    expect(blob).toBeInstanceOf(Blob);
    expect(await (blob as Blob).text()).toBe('hello');
    const buffer = await endpoint.extend({ content: 'arrayBuffer' })();
    expect(new TextDecoder().decode(buffer as ArrayBuffer)).toBe('hello');
    const stream = (await endpoint.extend({ content: 'stream' })()) as ReadableStream<Uint8Array>;
    expect(await new Response(stream).text()).toBe('hello');
    await expect(endpoint.extend({ content: 'json' })()).rejects.toThrow(ParseError);
  });

  test('a resource member for a download: schema undefined and content blob', async () => {
    answer(() => new HttpResponse(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'application/zip' } }));
    const Files = createResource({ urlPrefix: API, path: '/files/:id', schema: Todo }).extend('download', {
      path: '/files/:id/download',
      schema: undefined,
      content: 'blob',
      dataExpiryLength: 0,
    });
    const blob = await Files.download({ id: 1 });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.size).toBe(3);
    expect(() => Files.download.extend({ schema: Todo })).toThrow(EndpointDefinitionError);
  });

  test('content other than json with a schema is a named error at definition', () => {
    expect(() => new RestEndpoint({ path: '/file/:id', schema: Todo, content: 'blob' })).toThrow(
      EndpointDefinitionError,
    );
    expect(() => new RestEndpoint({ path: '/file/:id', schema: Todo, content: 'text' })).toThrow(
      /content 'text' cannot be normalized.*schema: undefined/,
    );
  });

  test('without content, the Content-Type decides: binary types a Blob, text types a string, JSON parsed', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    answer((request) => {
      const type = new URL(request.url).pathname.slice(1);
      if (type === 'png') return new HttpResponse(bytes, { headers: { 'Content-Type': 'image/png' } });
      if (type === 'pdf') return new HttpResponse(bytes, { headers: { 'Content-Type': 'application/pdf' } });
      if (type === 'csv') return new HttpResponse('a,b', { headers: { 'Content-Type': 'text/csv' } });
      if (type === 'xml') return new HttpResponse('<a/>', { headers: { 'Content-Type': 'application/xml' } });
      return HttpResponse.json({ id: 1 }, { headers: { 'Content-Type': 'application/vnd.api+json' } });
    });
    const get = new RestEndpoint({ urlPrefix: API, path: '/:type' });
    const png = await get({ type: 'png' });
    expect(png).toBeInstanceOf(Blob);
    expect(new Uint8Array(await (png as Blob).arrayBuffer())).toEqual(bytes);
    expect(await get({ type: 'pdf' })).toBeInstanceOf(Blob);
    await expect(get({ type: 'csv' })).resolves.toBe('a,b');
    await expect(get({ type: 'xml' })).resolves.toBe('<a/>');
    await expect(get({ type: 'json' })).resolves.toEqual({ id: 1 });
  });

  test('a binary or HTML response for an endpoint with a schema is a ParseError naming the request', async () => {
    answer((request) =>
      request.url.endsWith('/1')
        ? new HttpResponse(new Uint8Array([1, 2]), { headers: { 'Content-Type': 'application/octet-stream' } })
        : new HttpResponse('<!doctype html><html></html>', { headers: { 'Content-Type': 'text/html' } }),
    );
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, name: 'Todo.get' });
    const binary = await get({ id: 1 }).catch((error: unknown) => error);
    expect(binary).toBeInstanceOf(ParseError);
    expect((binary as ParseError).message).toMatch(
      /GET http:\/\/api\.test\/todos\/1 \(endpoint Todo\.get\).*binary content cannot be normalized/,
    );
    await expect(get({ id: 2 })).rejects.toThrow(/content-type "text\/html" and a body that is not JSON/);
  });
});

describe('testKey, searchToString, NetworkError.toJSON', () => {
  test('testKey accepts the keys of this endpoint only', () => {
    const get = new RestEndpoint({ urlPrefix: API, path: '/:group/todos/:id' });
    expect(get.testKey(get.key({ group: 'a', id: 5 }))).toBe(true);
    expect(get.testKey(`GET ${API}/a/todos/5?expand=user`)).toBe(true);
    expect(get.testKey(`GET ${API}/a/todos`)).toBe(false);
    expect(get.testKey(`GET ${API}/a/todos/5/comments`)).toBe(false);
    expect(get.testKey(`POST ${API}/a/todos/5`)).toBe(false);
    expect(get.testKey(`GET http://other.test/a/todos/5`)).toBe(false);
    const optional = new RestEndpoint({ path: '/search/:q?' });
    expect(optional.testKey('GET /search')).toBe(true);
    expect(optional.testKey('GET /search/milk')).toBe(true);
    expect(optional.testKey('GET /searching')).toBe(false);
    const list = new RestEndpoint({ urlPrefix: `${API}/`, path: '/todos' });
    expect(list.testKey(list.key())).toBe(true);
  });

  test('searchToString builds the query string, and an override changes URLs and keys', () => {
    const list = new RestEndpoint({ urlPrefix: API, path: '/todos', searchParams: {} as { b?: number; a?: string[] } });
    expect(list.searchToString({ b: 1, a: ['x', 'y'] })).toBe('a=x&a=y&b=1');
    class BracketEndpoint extends RestEndpoint<'/todos', undefined, 'GET', { a?: string[] }> {
      override searchToString(searchParams: Readonly<Record<string, unknown>>): string {
        return Object.entries(searchParams)
          .flatMap(([key, value]) => (value as string[]).map((item) => `${key}[]=${item}`))
          .join('&');
      }
    }
    const brackets = new BracketEndpoint({ urlPrefix: API, path: '/todos' });
    expect(brackets.url({ a: ['x', 'y'] })).toBe(`${API}/todos?a[]=x&a[]=y`);
    expect(brackets.key({ a: ['x'] })).toBe(`GET ${API}/todos?a[]=x`);
    expect(brackets.url()).toBe(`${API}/todos`);
  });

  test('NetworkError.toJSON gives name, status, message and url', async () => {
    answer(() => HttpResponse.json({ detail: 'gone' }, { status: 410 }));
    const error = (await new RestEndpoint({ urlPrefix: API, path: '/todos/:id' })({ id: 1 }).catch(
      (caught: unknown) => caught,
    )) as NetworkError;
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'NetworkError',
      status: 410,
      message: error.message,
      url: `${API}/todos/1`,
    });
  });
});

describe('list members on a plain RestEndpoint', () => {
  test('push, unshift and paginated work on an endpoint whose schema is a Collection', async () => {
    const getTodos = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      searchParams: {} as { userId?: number; cursor?: number },
      schema: new Collection([Todo]),
    });
    todoServer([{ id: 1, userId: 1, title: 'a' }]);
    const controller = new Controller();
    await controller.fetch(getTodos, { userId: 1 });
    const created = await controller.fetch(getTodos.push, { userId: 1 }, { userId: 1, title: 'b' });
    expect(created).toBeInstanceOf(Todo);
    await controller.fetch(getTodos.unshift, { userId: 1 }, { userId: 1, title: 'c' });
    expect(ids(controller.getResponse(getTodos, { userId: 1 }).data)).toEqual([101, 1, 100]);
    expect(getTodos.push.name).toBe(`${API}/todos.push`);

    server.resetHandlers();
    answer(() => HttpResponse.json([{ id: 7, userId: 1, title: 'page 2' }]));
    const nextPage = getTodos.paginated('cursor');
    expect(nextPage).toBe(getTodos.paginated('cursor'));
    await controller.fetch(nextPage, { userId: 1, cursor: 2 });
    expect(ids(controller.getResponse(getTodos, { userId: 1 }).data)).toEqual([101, 1, 100, 7]);
  });

  test('getPage is paginated(paginationField): it sends the field and appends to the list without it', async () => {
    const getTodos = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      searchParams: {} as { userId?: number; page?: number },
      schema: new Collection([Todo]),
      paginationField: 'page',
    });
    expect(getTodos.getPage).toBe(getTodos.paginated('page'));
    const seen = todoServer([{ id: 1, userId: 1, title: 'a' }]);
    const controller = new Controller();
    await controller.fetch(getTodos, { userId: 1 });
    server.resetHandlers();
    const pages = answer(() =>
      HttpResponse.json([
        { id: 1, userId: 1, title: 'a' },
        { id: 2, userId: 1, title: 'b' },
      ]),
    );
    await controller.fetch(getTodos.getPage as AnyRestEndpoint, { userId: 1, page: 2 });
    expect(seen.map(({ url }) => url)).toEqual([`${API}/todos?userId=1`]);
    expect(pages.map(({ method, url }) => `${method} ${url}`)).toEqual([`GET ${API}/todos?page=2&userId=1`]);
    expect(ids(controller.getResponse(getTodos, { userId: 1 }).data)).toEqual([1, 2]);
    // without a paginationField, getPage is a named error
    const unpaged = new RestEndpoint({ urlPrefix: API, path: '/todos', schema: new Collection([Todo]) });
    expect(() => unpaged.getPage).toThrow(EndpointDefinitionError);
  });

  test('they find a Collection held in an object schema; the function form of paginated maps the arguments', async () => {
    const getPage = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      searchParams: {} as { cursor?: string },
      schema: { results: new Collection([Todo]), next: '' },
    });
    answer((request) =>
      request.method === 'POST'
        ? HttpResponse.json({ id: 9, userId: 0, title: 'new' })
        : HttpResponse.json({ results: [{ id: new URL(request.url).searchParams.has('cursor') ? 2 : 1 }], next: 'b' }),
    );
    const controller = new Controller();
    await controller.fetch(getPage);
    await controller.fetch(getPage.push, { title: 'new' });
    const more = getPage.paginated(({ cursor: _cursor, ...rest }: { cursor: string }) => [rest]);
    await controller.fetch(more, { cursor: 'b' });
    expect(ids(controller.getResponse(getPage).data?.results)).toEqual([1, 9, 2]);
  });

  test('the Collection they change is the first found, depth first in the order of the members, schema.Object too', () => {
    const pinned = new Collection([Todo], { key: 'pinned' });
    const all = new Collection([Todo]);
    const page = new RestEndpoint({
      path: '/todos',
      schema: { total: 0, meta: new schema.Object({ label: '', pinned }), results: all },
    });
    expect(page.push.schema).toBe(pinned.push);
    expect(page.remove.schema).toBe(pinned.remove);
    const flat = new RestEndpoint({ path: '/todos', schema: new schema.Object({ results: all, pinned }) });
    expect(flat.unshift.schema).toBe(all.unshift);
  });

  test('without a Collection in the schema, the list members are named errors', () => {
    const get = new RestEndpoint({ path: '/todos/:id', schema: Todo, name: 'Todo.get' });
    expect(() => get.push).toThrow(EndpointDefinitionError);
    expect(() => get.move).toThrow(/Todo\.get\.move: the endpoint's schema holds no Collection/);
    expect(() => get.paginated('page')).toThrow(/Todo\.get\.getPage: the endpoint's schema holds no Collection/);
  });
});

describe('move and remove between collections', () => {
  const TodoResource = createResource({
    urlPrefix: API,
    path: '/todos/:id',
    schema: Todo,
    searchParams: {} as { userId?: number } | undefined,
  });

  async function loaded() {
    const seen = todoServer([
      { id: 1, userId: 1, title: 'a' },
      { id: 2, userId: 1, title: 'b' },
      { id: 3, userId: 2, title: 'c' },
    ]);
    const controller = new Controller();
    await controller.fetch(TodoResource.getList, { userId: 1 });
    await controller.fetch(TodoResource.getList, { userId: 2 });
    await controller.fetch(TodoResource.getList);
    return { controller, seen };
  }

  test('getList.move: PATCH the item; it leaves the lists of its old values and joins those of its new ones', async () => {
    const { controller, seen } = await loaded();
    const moved = await controller.fetch(TodoResource.getList.move, { id: 1 }, { userId: 2 });
    expect(seen.at(-1)).toMatchObject({ method: 'PATCH', url: `${API}/todos/1`, body: '{"userId":2}' });
    expect(moved).toBeInstanceOf(Todo);
    expect(moved.userId).toBe(2);
    expect(ids(controller.getResponse(TodoResource.getList, { userId: 1 }).data)).toEqual([2]);
    expect(ids(controller.getResponse(TodoResource.getList, { userId: 2 }).data)).toEqual([3, 1]);
    // the unfiltered list holds it before and after: unchanged
    expect(ids(controller.getResponse(TodoResource.getList).data)).toEqual([1, 2, 3]);
  });

  test('an optimistic move shows at once, before the server answers', async () => {
    const Optimistic = TodoResource.extend({});
    const OptimisticResource = createResource({
      urlPrefix: API,
      path: '/todos/:id',
      schema: Todo,
      searchParams: {} as { userId?: number } | undefined,
      optimistic: true,
    });
    expect(Optimistic.getList.move.optimistic).toBeUndefined();
    todoServer([
      { id: 1, userId: 1, title: 'a' },
      { id: 2, userId: 2, title: 'b' },
    ]);
    const controller = new Controller();
    await controller.fetch(OptimisticResource.getList, { userId: 1 });
    await controller.fetch(OptimisticResource.getList, { userId: 2 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.patch(`${API}/todos/:id`, async () => {
        await released;
        return HttpResponse.json({ id: 1, userId: 2, title: 'a' });
      }),
    );
    const moving = controller.fetch(OptimisticResource.getList.move, { id: 1 }, { userId: 2 });
    expect(ids(controller.getResponse(OptimisticResource.getList, { userId: 1 }).data)).toEqual([]);
    expect(ids(controller.getResponse(OptimisticResource.getList, { userId: 2 }).data)).toEqual([2, 1]);
    release();
    await moving;
    expect(ids(controller.getResponse(OptimisticResource.getList, { userId: 2 }).data)).toEqual([2, 1]);
  });

  test('Collection.moveWith builds a move that places items with another merge', async () => {
    const { controller } = await loaded();
    const toFront = TodoResource.getList.move.extend({ schema: TodoResource.getList.schema.moveWith(prependUnique) });
    await controller.fetch(toFront, { id: 2 }, { userId: 2 });
    expect(ids(controller.getResponse(TodoResource.getList, { userId: 2 }).data)).toEqual([2, 3]);
    expect(ids(controller.getResponse(TodoResource.getList, { userId: 1 }).data)).toEqual([1]);
  });

  test('getList.remove: PATCH at the list URL; the item leaves the matching lists and is updated', async () => {
    const { controller, seen } = await loaded();
    await controller.fetch(TodoResource.getList.remove, { userId: 1 }, { id: 2, userId: 5 });
    expect(seen.at(-1)).toMatchObject({ method: 'PATCH', url: `${API}/todos?userId=1` });
    expect(ids(controller.getResponse(TodoResource.getList, { userId: 1 }).data)).toEqual([1]);
    expect(ids(controller.getResponse(TodoResource.getList, { userId: 2 }).data)).toEqual([3]);
    expect(controller.getState().entities.Todo!['2']).toMatchObject({ userId: 5 });
  });

  test('a move whose response has no usable pk is a NormalizeError and changes nothing', async () => {
    const { controller } = await loaded();
    server.use(http.patch(`${API}/todos/:id`, () => HttpResponse.json({ title: 'no id' })));
    const before = controller.getState();
    await expect(controller.fetch(TodoResource.getList.move, { id: 1 }, { userId: 2 })).rejects.toThrow(NormalizeError);
    expect(controller.getState().entities).toBe(before.entities);
  });
});

describe('move on a plain endpoint', () => {
  test('with movePath and a Collection nested in the response, the item moves between the groups', async () => {
    class Article extends Entity {
      id = 0;
      group = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Article';
    }
    const getArticles = new RestEndpoint({
      urlPrefix: API,
      path: '/articles',
      movePath: '/articles/:id',
      searchParams: {} as { group: string },
      schema: { next: '', data: { results: new Collection([Article]) } },
    });
    const controller = new Controller();
    const page = (...articles: { id: number; group: string }[]) => ({ next: '', data: { results: articles } });
    controller.setResponse(getArticles, { group: 'a' }, page({ id: 1, group: 'a' }, { id: 2, group: 'a' }));
    controller.setResponse(getArticles, { group: 'b' }, page({ id: 3, group: 'b' }));
    const seen = answer((_request, body) => HttpResponse.json({ id: 2, ...(JSON.parse(body) as object) }));
    const move = getArticles.move as RestEndpoint<
      '/articles/:id',
      Collection<[typeof Article]>['move'],
      'PATCH',
      undefined,
      object
    >;
    const moved = await controller.fetch(move, { id: 2 }, { group: 'b' });
    expect(moved).toBeInstanceOf(Article);
    expect(seen[0]).toMatchObject({ method: 'PATCH', url: `${API}/articles/2` });
    const results = (group: string) =>
      controller.getResponse(getArticles, { group }).data?.data.results.map((article) => article.id);
    expect(results('a')).toEqual([1]);
    expect(results('b')).toEqual([3, 2]);
  });
});

describe('the createCollectionFilter option', () => {
  test('decides which stored lists receive a pushed item', async () => {
    const TodoList = new Collection([Todo], {
      // only the list of the exact same user, never the unfiltered one
      createCollectionFilter:
        (urlArgs: { userId?: number } | undefined, body: { userId?: number } | undefined) => (collectionArgs) =>
          collectionArgs.userId !== undefined && collectionArgs.userId === `${body?.userId ?? urlArgs?.userId}`,
    });
    const getTodos = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      searchParams: {} as { userId?: number },
      schema: TodoList,
    });
    todoServer([{ id: 1, userId: 1, title: 'a' }]);
    const controller = new Controller();
    await controller.fetch(getTodos);
    await controller.fetch(getTodos, { userId: 1 });
    await controller.fetch(getTodos.push, {}, { userId: 1, title: 'b' });
    expect(ids(controller.getResponse(getTodos, { userId: 1 }).data)).toEqual([1, 100]);
    expect(ids(controller.getResponse(getTodos).data)).toEqual([1]);
  });
});
