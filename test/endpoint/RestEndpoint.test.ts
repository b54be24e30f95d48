import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NetworkError, ParseError } from '../../core/errors.js';
import { RestEndpoint, type AnyRestEndpoint } from '../../core/endpoint/RestEndpoint.js';
import { Invalidate } from '../../core/schema/index.js';
import { Todo } from '../fixtures/entities.js';

const API = 'http://api.test';
const CLOSED_PORT = 'http://127.0.0.1:9';

const server = setupServer();
beforeAll(() =>
  server.listen({
    onUnhandledRequest(request, print) {
      if (request.url.startsWith(CLOSED_PORT)) return; // reaches the real network and fails
      print.error();
    },
  }),
);
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string;
  credentials: RequestCredentials;
}

/** Answers every request to the API with `reply` and records what arrived. */
function answer(reply: (request: Request) => Response | Promise<Response> = () => HttpResponse.json({})): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      seen.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: await request.clone().text(),
        credentials: request.credentials,
      });
      return reply(request);
    }),
  );
  return seen;
}

describe('URLs', () => {
  const list = new RestEndpoint({
    urlPrefix: API,
    path: '/:group/posts/:id?',
    searchParams: {} as { z?: number; a?: string; tag?: number[]; empty?: string },
  });

  test('sorted query keys, undefined omitted, optional segment dropped, arrays repeated', async () => {
    const seen = answer(() => HttpResponse.json([]));
    const args = { group: 'news', z: 1, a: 'x y', tag: [1, 3], empty: undefined };
    expect(list.url(args)).toBe(`${API}/news/posts?a=x%20y&tag=1&tag=3&z=1`);
    expect(list.key(args)).toBe(`GET ${API}/news/posts?a=x%20y&tag=1&tag=3&z=1`);
    await list(args);
    expect(seen[0]!.url).toBe(`${API}/news/posts?a=x%20y&tag=1&tag=3&z=1`);
    expect(list.url({ group: 'news', id: 5 })).toBe(`${API}/news/posts/5`);
  });

  test('injection attempts stay inside their segment', async () => {
    const seen = answer();
    await list({ group: '../admin', id: 'a?b=c#x' });
    expect(seen[0]!.url).toBe(`${API}/..%2Fadmin/posts/a%3Fb%3Dc%23x`);
    expect(list.url({ group: 'g', a: 'x&z=2' })).toBe(`${API}/g/posts?a=x%26z%3D2`);
  });

  test('a missing parameter throws before any request, naming it and the path', async () => {
    const seen = answer();
    // @ts-expect-error group is required
    await expect(list({ id: 1 })).rejects.toThrow('Missing path parameter "group" for path "/:group/posts/:id?"');
    expect(seen).toHaveLength(0);
  });

  test('without urlPrefix the URL is the path; a trailing slash on urlPrefix is not doubled', () => {
    expect(new RestEndpoint({ path: '/todos/:id' }).url({ id: 1 })).toBe('/todos/1');
    expect(new RestEndpoint({ urlPrefix: `${API}/v1/`, path: '/todos/:id' }).url({ id: 1 })).toBe(`${API}/v1/todos/1`);
  });
});

describe('requests', () => {
  test('GET sends Accept and no body or content-type', async () => {
    const seen = answer(() => HttpResponse.json({ id: 1, title: 'a' }));
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo });
    await expect(get({ id: 1 })).resolves.toEqual({ id: 1, title: 'a' });
    expect(seen[0]).toMatchObject({ method: 'GET', body: '' });
    expect(seen[0]!.headers.get('accept')).toBe('application/json');
    expect(seen[0]!.headers.get('content-type')).toBeNull();
  });

  test.each(['POST', 'PUT', 'PATCH'] as const)(
    '%s sends a JSON body with Content-Type: application/json',
    async (method) => {
      const seen = answer((request) => request.json().then((body) => HttpResponse.json(body, { status: 201 })));
      const endpoint = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', method, body: {} as Partial<Todo> });
      await expect(endpoint({ id: 1 }, { title: 'new' })).resolves.toEqual({ title: 'new' });
      expect(seen[0]!.method).toBe(method);
      expect(seen[0]!.url).toBe(`${API}/todos/1`);
      expect(seen[0]!.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(seen[0]!.body)).toEqual({ title: 'new' });
    },
  );

  test('DELETE sends no body', async () => {
    const seen = answer(() => new HttpResponse(null, { status: 204 }));
    const remove = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', method: 'DELETE' });
    await expect(remove({ id: 3 })).resolves.toBeNull();
    expect(seen[0]).toMatchObject({ method: 'DELETE', body: '' });
    expect(remove.sideEffect).toBe(true);
  });

  test('a path without parameters takes the body alone', async () => {
    const seen = answer((request) => request.json().then((body) => HttpResponse.json({ id: 9, ...body })));
    const create = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      method: 'POST',
      schema: Todo,
      body: {} as { title: string },
    });
    await expect(create({ title: 'alone' })).resolves.toEqual({ id: 9, title: 'alone' });
    await create({}, { title: 'with args' });
    expect(seen.map((request) => [request.url, JSON.parse(request.body)])).toEqual([
      [`${API}/todos`, { title: 'alone' }],
      [`${API}/todos`, { title: 'with args' }],
    ]);
  });

  test('search params and a body together', async () => {
    const seen = answer(() => HttpResponse.json({}, { status: 201 }));
    const push = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      method: 'POST',
      searchParams: {} as { userId?: number },
      body: {} as { title: string },
    });
    await push({ userId: 2 }, { title: 'x' });
    expect(seen[0]!.url).toBe(`${API}/todos?userId=2`);
    expect(seen[0]!.body).toBe('{"title":"x"}');
  });

  test('FormData goes as it is, typed by fetch', async () => {
    const seen = answer();
    const upload = new RestEndpoint({ urlPrefix: API, path: '/files', method: 'POST', body: {} as FormData });
    const form = new FormData();
    form.set('name', 'a.txt');
    await upload(form);
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });
});

describe('responses', () => {
  const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo });

  test('204 and an empty 200 resolve null', async () => {
    answer(() => new HttpResponse(null, { status: 204 }));
    await expect(get({ id: 1 })).resolves.toBeNull();
    server.resetHandlers();
    answer(() => new HttpResponse('', { status: 200, headers: { 'content-type': 'application/json' } }));
    await expect(get({ id: 1 })).resolves.toBeNull();
  });

  test.each([
    [404, 'Not Found'],
    [422, 'Unprocessable Entity'],
    [500, 'Internal Server Error'],
  ])('%i rejects with a NetworkError whose response stays readable', async (status, statusText) => {
    answer(() => HttpResponse.json({ message: 'no such todo' }, { status, statusText }));
    const error = await get({ id: 7 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const networkError = error as NetworkError;
    expect(networkError.name).toBe('NetworkError');
    expect(networkError.status).toBe(status);
    expect(networkError.method).toBe('GET');
    expect(networkError.url).toBe(`${API}/todos/7`);
    expect(networkError.message).toContain(`GET ${API}/todos/7`);
    expect(networkError.message).toContain(`answered ${status} ${statusText}`);
    expect(networkError.message).toContain('no such todo');
    expect(networkError.message).toMatch(/check|retrying/i);
    await expect(networkError.response!.json()).resolves.toEqual({ message: 'no such todo' });
  });

  test('a network failure (msw HttpResponse.error) is a NetworkError with status 0 and a cause', async () => {
    answer(() => HttpResponse.error());
    const error = (await get({ id: 1 }).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.status).toBe(0);
    expect(error.response).toBeUndefined();
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toContain(
      `GET ${API}/todos/1 (endpoint ${API}/todos/:id) failed before any response (status 0)`,
    );
    expect(error.message).toContain('check that the server runs');
  });

  test('a closed port is a NetworkError with status 0 and the original error as cause', async () => {
    const offline = new RestEndpoint({ urlPrefix: CLOSED_PORT, path: '/todos/:id' });
    const error = (await offline({ id: 1 }).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.status).toBe(0);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.message).toContain(`${CLOSED_PORT}/todos/1`);
  });

  test('an HTML page with 200 for an endpoint with a schema is a ParseError naming what arrived', async () => {
    answer(() => HttpResponse.html('<!doctype html><html><body>Welcome</body></html>'));
    const error = (await get({ id: 1 }).catch((e: unknown) => e)) as ParseError;
    expect(error).toBeInstanceOf(ParseError);
    expect(error.name).toBe('ParseError');
    expect(error.contentType).toMatch(/^text\/html/);
    expect(error.text).toContain('<!doctype html>');
    expect(error.message).toContain(`GET ${API}/todos/1`);
    expect(error.message).toContain('content-type "text/html');
    expect(error.message).toContain('<!doctype html><html>');
    expect(error.message).toContain('urlPrefix');
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  test('broken JSON declared as JSON is a ParseError even without a schema', async () => {
    answer(() => new HttpResponse('{"id": 1', { headers: { 'content-type': 'application/json' } }));
    const raw = new RestEndpoint({ urlPrefix: API, path: '/raw' });
    await expect(raw()).rejects.toBeInstanceOf(ParseError);
  });

  test('an abort is rethrown as it is, not as a NetworkError', async () => {
    answer(() => HttpResponse.json({}));
    const controller = new AbortController();
    controller.abort();
    const get = new RestEndpoint({
      urlPrefix: API,
      path: '/todos/:id',
      async getRequestInit(body) {
        return { ...(await RestEndpoint.prototype.getRequestInit.call(this, body)), signal: controller.signal };
      },
    });
    const error = await get({ id: 1 }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect((error as Error).name).toBe('AbortError');
  });

  test('text for an endpoint without a schema resolves as text', async () => {
    answer(() => HttpResponse.text('pong'));
    const ping = new RestEndpoint({ urlPrefix: API, path: '/ping' });
    await expect(ping()).resolves.toBe('pong');
  });
});

describe('hooks', () => {
  test('getRequestInit adds credentials and transforms the body (subclass, super)', async () => {
    const seen = answer((request) => request.json().then((body) => HttpResponse.json(body)));
    class CredentialsEndpoint<P extends string, B = undefined> extends RestEndpoint<
      P,
      undefined,
      'POST',
      undefined,
      B
    > {
      override async getRequestInit(body: B | undefined): Promise<RequestInit> {
        const snake =
          body && typeof body === 'object'
            ? Object.fromEntries(
                Object.entries(body).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
              )
            : body;
        const init = await super.getRequestInit(snake as B);
        return { ...init, credentials: 'same-origin' };
      }
    }
    const create = new CredentialsEndpoint({
      urlPrefix: API,
      path: '/todos',
      method: 'POST',
      body: {} as { userId: number },
    });
    expect(create).toBeInstanceOf(CredentialsEndpoint);
    expect(create).toBeInstanceOf(RestEndpoint);
    await expect(create({ userId: 1 })).resolves.toEqual({ user_id: 1 });
    expect(seen[0]!.credentials).toBe('same-origin');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
  });

  test('getRequestInit as an option, calling the default through the prototype', async () => {
    const seen = answer();
    const get = new RestEndpoint({
      urlPrefix: API,
      path: '/todos/:id',
      async getRequestInit(body) {
        const init = await RestEndpoint.prototype.getRequestInit.call(this, body);
        return { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: 'Bearer t' } };
      },
    });
    await get({ id: 1 });
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer t');
    expect(seen[0]!.headers.get('accept')).toBe('application/json');
  });

  test('parseResponse reads a link header for cursor pagination', async () => {
    answer(() => HttpResponse.json([{ id: 1 }], { headers: { link: `<${API}/todos?cursor=abc>; rel="next"` } }));
    class LinkEndpoint<P extends string> extends RestEndpoint<
      P,
      undefined,
      'GET',
      { cursor?: string },
      undefined,
      { results: unknown; next: string | undefined }
    > {
      override async parseResponse(response: Response) {
        const results = await super.parseResponse(response);
        const link = response.headers.get('link') ?? '';
        const next = /<[^>]*[?&]cursor=([^&>]+)[^>]*>;\s*rel="next"/.exec(link)?.[1];
        return { results, next };
      }
    }
    const list = new LinkEndpoint({ urlPrefix: API, path: '/todos', searchParams: {} as { cursor?: string } });
    await expect(list()).resolves.toEqual({ results: [{ id: 1 }], next: 'abc' });
  });

  test('fetchResponse gives the raw Response', async () => {
    answer(() => HttpResponse.json({ id: 1 }, { headers: { 'x-total': '42' } }));
    const seenHeaders: string[] = [];
    class RawEndpoint extends RestEndpoint<'/todos'> {
      override async fetchResponse(input: string, init: RequestInit) {
        const response = await super.fetchResponse(input, init);
        seenHeaders.push(response.headers.get('x-total') ?? '');
        return response;
      }
    }
    const list = new RawEndpoint({ urlPrefix: API, path: '/todos' });
    await expect(list()).resolves.toEqual({ id: 1 });
    expect(seenHeaders).toEqual(['42']);
  });

  test('process receives the value, the URL args and the body', async () => {
    answer(() => HttpResponse.json({ title: 'server' }));
    const calls: unknown[][] = [];
    const update = new RestEndpoint({
      urlPrefix: API,
      path: '/todos/:id',
      method: 'PUT',
      schema: Todo,
      body: {} as { title: string },
      process(value, params, body) {
        calls.push([value, params, body]);
        return { ...value, id: Number(params.id) };
      },
    });
    await expect(update({ id: 4 }, { title: 'mine' })).resolves.toEqual({ title: 'server', id: 4 });
    expect(calls).toEqual([[{ title: 'server' }, { id: 4 }, { title: 'mine' }]]);
  });
});

/** The data members of an endpoint, as a plain object (matchers do not look into functions). */
const MEMBERS = [
  'path',
  'urlPrefix',
  'method',
  'schema',
  'pollFrequency',
  'sideEffect',
  'dataExpiryLength',
  'errorExpiryLength',
  'paginationField',
  'name',
] as const;
function members(endpoint: AnyRestEndpoint) {
  return Object.fromEntries(MEMBERS.map((member) => [member, endpoint[member]]));
}

describe('arguments in one shape', () => {
  test('a body-only call gives process ({}, body); normalizeArguments says the same', async () => {
    answer(() => HttpResponse.json({ id: 1 }));
    const calls: unknown[][] = [];
    const create = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      method: 'POST',
      body: {} as { title: string },
      process(value, ...args) {
        calls.push(args);
        return value;
      },
    });
    await create({ title: 'a' });
    await create({}, { title: 'b' });
    expect(calls).toEqual([
      [{}, { title: 'a' }],
      [{}, { title: 'b' }],
    ]);
    expect(create.normalizeArguments({ title: 'a' })).toEqual([{}, { title: 'a' }]);
    const get = new RestEndpoint({ path: '/todos/:id' });
    expect(get.normalizeArguments({ id: 1 })).toEqual([{ id: 1 }]);
    expect(new RestEndpoint({ path: '/todos' }).normalizeArguments()).toEqual([{}]);
  });

  test('batch invalidation (SPEC 4.4): ids in the body, an empty answer, process maps ids to { id }', async () => {
    const seen = answer(() => new HttpResponse('', { status: 200 }));
    const deleteMany = new RestEndpoint({
      urlPrefix: API,
      path: '/todos',
      method: 'DELETE',
      body: [] as number[],
      schema: [new Invalidate(Todo)],
      process(_value, _args, ids) {
        return ids.map((id) => ({ id }));
      },
    });
    await expect(deleteMany([1, 3])).resolves.toEqual([{ id: 1 }, { id: 3 }]);
    expect(seen[0]).toMatchObject({ method: 'DELETE', body: '[1,3]' });
  });

  test('a named endpoint is named in error messages', async () => {
    answer(() => HttpResponse.json({}, { status: 404 }));
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', name: 'Todo.get' });
    await expect(get({ id: 1 })).rejects.toThrow(`GET ${API}/todos/1 (endpoint Todo.get) answered 404`);
  });
});

describe('members, extend and subclasses', () => {
  test('readable members and defaults', () => {
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, pollFrequency: 5000 });
    expect(members(get)).toEqual({
      path: '/todos/:id',
      urlPrefix: API,
      method: 'GET',
      schema: Todo,
      pollFrequency: 5000,
      sideEffect: undefined,
      dataExpiryLength: 60_000,
      errorExpiryLength: 1_000,
      paginationField: undefined,
      name: `${API}/todos/:id`,
    });
    expect(typeof get).toBe('function');
    expect(get).toBeInstanceOf(RestEndpoint);
    const named = new RestEndpoint({ path: '/x', name: 'Todo.get', method: 'POST', paginationField: 'page' });
    expect(named.name).toBe('Todo.get');
    expect(named.sideEffect).toBe(true);
    expect(named.paginationField).toBe('page');
  });

  test('call, apply and bind work: endpoints are functions', async () => {
    answer(() => HttpResponse.json({ ok: true }));
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id' });
    await expect(get.call(null, { id: 1 })).resolves.toEqual({ ok: true });
    await expect(get.apply(null, [{ id: 1 }])).resolves.toEqual({ ok: true });
  });

  test('extend replaces options and keeps the rest; the original is unchanged', async () => {
    const seen = answer(() => HttpResponse.json([]));
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, dataExpiryLength: 5 });
    const byUser = get.extend({ path: '/users/:userId/todos', schema: [Todo] });
    expect(byUser).toBeInstanceOf(RestEndpoint);
    expect(members(byUser)).toMatchObject({
      urlPrefix: API,
      path: '/users/:userId/todos',
      dataExpiryLength: 5,
      name: `${API}/users/:userId/todos`,
    });
    expect(get.path).toBe('/todos/:id');
    await byUser({ userId: 3 });
    expect(seen[0]!.url).toBe(`${API}/users/3/todos`);
  });

  test('extend keeps the subclass and its overrides', async () => {
    const seen = answer();
    class AuthEndpoint<P extends string = string> extends RestEndpoint<P> {
      override async getRequestInit(body: undefined) {
        return { ...(await super.getRequestInit(body)), credentials: 'same-origin' as const };
      }
    }
    const me = new AuthEndpoint({ urlPrefix: API, path: '/me' });
    const other = me.extend({ path: '/users/:id' });
    expect(other).toBeInstanceOf(AuthEndpoint);
    await other({ id: 1 });
    expect(seen[0]!.credentials).toBe('same-origin');
    expect(seen[0]!.url).toBe(`${API}/users/1`);
  });

  test('extra options are copied onto the endpoint', () => {
    const get = new RestEndpoint({ path: '/x', optimistic: true });
    expect(get.optimistic).toBe(true);
  });
});
