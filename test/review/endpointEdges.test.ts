/**
 * An outside review of the endpoint layer from API.md and SPEC.md: odd URL values, bad answers through the
 * controller (each a named error, the store as it was), custom hooks.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Entity, RestEndpoint, createResource, schema } from '../../core/index.js';
import { useControllers } from '../fixtures/controllers.js';

const API = 'http://review.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

class Item extends Entity {
  id = 0;
  name = '';
  group = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'ReviewItem';
}

const ItemResource = createResource({
  urlPrefix: API,
  path: '/items/:id',
  schema: Item,
  searchParams: {} as { group?: string; tag?: string[] } | undefined,
  paginationField: 'page',
});

const { make } = useControllers({ retry: 0, environment: {} });

const seeded = () => {
  const c = make();
  c.setResponse(ItemResource.getList, {}, [
    { id: 1, name: 'one', group: 'a' },
    { id: 2, name: 'two', group: 'b' },
  ]);
  return c;
};

describe('URL values', () => {
  it('path values with /, ?, #, %, spaces and non-ASCII stay inside their segment', () => {
    for (const id of ['a/b', 'x?y=1', 'h#f', '100%', 'a b', 'žluť', '..a', '-1']) {
      const url = ItemResource.get.url({ id });
      expect(url).toBe(`${API}/items/${encodeURIComponent(id)}`);
      expect(new URL(url).pathname.split('/')).toHaveLength(3);
    }
    expect(ItemResource.get.url({ id: 0 })).toBe(`${API}/items/0`);
  });

  it('an empty string for a required parameter is an error naming it (it would address the list)', () => {
    expect(() => ItemResource.get.url({ id: '' })).toThrow(/id/);
  });

  it('search values: sorted, arrays repeated, undefined left out, encoded; the key follows the URL', () => {
    const url = ItemResource.getList.url({ tag: ['b&c', 'd=e'], group: 'a b' });
    const search = new URL(url).searchParams;
    expect([...search.keys()]).toEqual(['group', 'tag', 'tag']);
    expect(search.get('group')).toBe('a b');
    expect(search.getAll('tag')).toEqual(['b&c', 'd=e']);
    expect(ItemResource.getList.key({ group: undefined })).toBe(ItemResource.getList.key({}));
    expect(ItemResource.getList.key({ group: 'a', tag: ['x'] })).toBe(
      ItemResource.getList.key({ tag: ['x'], group: 'a' }),
    );
  });

  it('getPage sends the pagination field in the query, and its key differs from the list', () => {
    const url = ItemResource.getList.getPage.url({ group: 'a', page: 2 });
    expect(new URL(url).searchParams.get('page')).toBe('2');
    expect(ItemResource.getList.getPage.key({ group: 'a', page: 2 })).not.toBe(
      ItemResource.getList.key({ group: 'a' }),
    );
  });
});

describe('bad answers through the controller keep the store', () => {
  const cases: [string, () => Response, string, number | undefined][] = [
    [
      'an HTML page with 200',
      () => new HttpResponse('<html>oops</html>', { headers: { 'Content-Type': 'text/html' } }),
      'ParseError',
      undefined,
    ],
    [
      'an HTML error page with 500',
      () => new HttpResponse('<html>down</html>', { status: 500, headers: { 'Content-Type': 'text/html' } }),
      'NetworkError',
      500,
    ],
    [
      'broken JSON',
      () => new HttpResponse('{"id": 1,', { headers: { 'Content-Type': 'application/json' } }),
      'ParseError',
      undefined,
    ],
    ['JSON without a content type', () => new HttpResponse('{"id": 1,'), 'ParseError', undefined],
    ['a network failure', () => HttpResponse.error(), 'NetworkError', 0],
  ];
  for (const [label, answer, name, status] of cases) {
    it(`${label}: a ${name} from fetch; the list and its records stay`, async () => {
      const c = seeded();
      const before = c.getState();
      server.use(http.get(`${API}/items`, answer), http.put(`${API}/items/1`, answer));
      const error = await c.fetch(ItemResource.getList, {}).catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).name).toBe(name);
      if (status !== undefined) expect((error as { status?: number }).status).toBe(status);
      expect((error as Error).message).toMatch(/items/);
      expect(c.getState().entities).toEqual(before.entities);
      expect(c.getState().endpoints).toEqual(before.endpoints);
      const update = await c
        .fetch(ItemResource.update, { id: 1 }, { id: 1, name: 'changed', group: 'a' })
        .catch((e: unknown) => e as Error);
      expect((update as Error).name).toBe(name);
      expect(c.getState().entities).toEqual(before.entities);
      expect(c.get(Item, { id: 1 })?.name).toBe('one');
    });
  }

  it('a 500 refetch through observe keeps the data and reports the error', async () => {
    const c = seeded();
    c.expireAll(ItemResource.getList);
    server.use(http.get(`${API}/items`, () => new HttpResponse('<html>down</html>', { status: 500 })));
    const seen: { data?: Item[]; error?: Error; fetching: boolean }[] = [];
    const sub = c.observe(ItemResource.getList, {}).subscribe((s) => seen.push(s));
    await expect.poll(() => seen.at(-1)?.error).toBeDefined();
    expect(seen.at(-1)!.data?.map((i) => i.name)).toEqual(['one', 'two']);
    expect(seen.at(-1)!.error!.name).toBe('NetworkError');
    sub.unsubscribe();
  });

  it('a 404 on a get surfaces the error, its body readable', async () => {
    const c = make();
    server.use(http.get(`${API}/items/9`, () => HttpResponse.json({ detail: 'gone' }, { status: 404 })));
    const error = (await c.fetch(ItemResource.get, { id: 9 }).catch((e: unknown) => e)) as Error & {
      status: number;
      response: Response;
    };
    expect(error.name).toBe('NetworkError');
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/GET/);
    expect(error.message).toMatch(/404/);
    expect(await error.response.json()).toEqual({ detail: 'gone' });
  });

  it('a 204 to an update resolves without changing the record; a 204 list is not an error thrown from the read', async () => {
    const c = seeded();
    server.use(http.put(`${API}/items/1`, () => new HttpResponse(null, { status: 204 })));
    await expect(ItemResource.update({ id: 1 }, { name: 'x' })).resolves.toBeNull();
    await c.fetch(ItemResource.update, { id: 1 }, { name: 'x' }).catch(() => undefined);
    expect(c.get(Item, { id: 1 })?.name).toBe('one');
  });

  it('an empty 200 to delete still invalidates by the URL params', async () => {
    const c = seeded();
    server.use(http.delete(`${API}/items/1`, () => new HttpResponse('', { status: 200 })));
    await c.fetch(ItemResource.delete, { id: 1 });
    expect(c.get(Item, { id: 1 })).toBeUndefined();
    expect(c.getResponse(ItemResource.getList, {}).data?.map((i) => i.id)).toEqual([2]);
  });

  it('a delete answering the pk as a JSON string invalidates that pk', async () => {
    const c = seeded();
    server.use(http.delete(`${API}/items/2`, () => HttpResponse.json('2')));
    await c.fetch(ItemResource.delete, { id: 2 });
    expect(c.getResponse(ItemResource.getList, {}).data?.map((i) => i.id)).toEqual([1]);
  });
});

describe('hooks', () => {
  it('a custom fetchResponse gets the URL and init; a custom parseResponse that throws rejects with its error and writes nothing', async () => {
    const calls: [string, RequestInit][] = [];
    class Mine extends RestEndpoint<any> {
      override fetchResponse(input: string, init: RequestInit) {
        calls.push([input, init]);
        return Promise.resolve(Response.json({ id: 3, name: 'three', group: 'z' }));
      }
    }
    const R = createResource({ urlPrefix: API, path: '/items/:id', schema: Item, Endpoint: Mine });
    const c = make();
    const item = await c.fetch(R.update, { id: 3 }, { name: 'three' });
    expect(item.name).toBe('three');
    expect(calls[0]![0]).toBe(`${API}/items/3`);
    expect(calls[0]![1].method).toBe('PUT');
    expect(JSON.parse(calls[0]![1].body as string)).toEqual({ name: 'three' });
    expect(new Headers(calls[0]![1].headers).get('Content-Type')).toBe('application/json');

    const failing = R.get.extend({
      parseResponse: () => Promise.reject(new SyntaxError('bad payload')),
    });
    const before = c.getState().entities;
    await expect(c.fetch(failing, { id: 3 })).rejects.toThrow('bad payload');
    expect(c.getState().entities).toBe(before);
  });

  it('Controller({ fetch }) carries every request, an endpoint overriding fetchResponse still wins', async () => {
    const seen: string[] = [];
    const c = make({
      fetch: (input, init) => {
        seen.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return Promise.resolve(Response.json([{ id: 1, name: 'one', group: 'a' }]));
      },
    });
    const list = await c.fetch(ItemResource.getList, { group: 'a' });
    expect(list.map((i) => i.id)).toEqual([1]);
    expect(seen).toEqual([`GET ${API}/items?group=a`]);
  });

  it('an endpoint without a schema resolves its JSON as it is, and a schema.Object passes other members through', async () => {
    server.use(
      http.get(`${API}/stats`, () => HttpResponse.json({ results: [{ id: 7, name: 's', group: 'g' }], total: 41 })),
    );
    const stats = new RestEndpoint({ urlPrefix: API, path: '/stats', schema: { results: [Item], total: 0 } });
    const c = make();
    const value = await c.fetch(stats);
    expect(value.total).toBe(41);
    expect(value.results[0]).toBeInstanceOf(Item);
    expect(c.get(Item, { id: 7 })?.name).toBe('s');
  });

  it('an abort through the endpoint signal rejects as an abort and writes nothing', async () => {
    server.use(
      http.get(`${API}/items`, async () => {
        await new Promise((r) => setTimeout(r, 200));
        return HttpResponse.json([{ id: 5, name: 'late', group: 'a' }]);
      }),
    );
    const controller = new AbortController();
    const c = make();
    const aborted = ItemResource.getList.extend({ signal: controller.signal });
    const done = c.fetch(aborted, {});
    setTimeout(() => controller.abort(), 10);
    const error = (await done.catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('AbortError');
    expect(c.getState().entities.ReviewItem).toBeUndefined();
  });

  it('schema.Collection push only reaches lists whose arguments match', async () => {
    const c = make();
    c.setResponse(ItemResource.getList, { group: 'a' }, [{ id: 1, name: 'one', group: 'a' }]);
    c.setResponse(ItemResource.getList, { group: 'b' }, [{ id: 2, name: 'two', group: 'b' }]);
    c.setResponse(ItemResource.getList, {}, [
      { id: 1, name: 'one', group: 'a' },
      { id: 2, name: 'two', group: 'b' },
    ]);
    server.use(
      http.post(`${API}/items`, () => HttpResponse.json({ id: 3, name: 'three', group: 'a' }, { status: 201 })),
    );
    const created = await c.fetch(ItemResource.getList.push, { group: 'a' }, { name: 'three', group: 'a' });
    expect(created).toBeInstanceOf(Item);
    expect(c.getResponse(ItemResource.getList, { group: 'a' }).data?.map((i) => i.id)).toEqual([1, 3]);
    expect(c.getResponse(ItemResource.getList, { group: 'b' }).data?.map((i) => i.id)).toEqual([2]);
  });

  it('getPage appends without duplicates to the list of the same arguments', async () => {
    const c = make();
    c.setResponse(ItemResource.getList, { group: 'a' }, [
      { id: 1, name: 'one', group: 'a' },
      { id: 2, name: 'two', group: 'a' },
    ]);
    server.use(
      http.get(`${API}/items`, () =>
        HttpResponse.json([
          { id: 2, name: 'two again', group: 'a' },
          { id: 3, name: 'three', group: 'a' },
        ]),
      ),
    );
    await c.fetch(ItemResource.getList.getPage, { group: 'a', page: 2 });
    const list = c.getResponse(ItemResource.getList, { group: 'a' }).data!;
    expect(list.map((i) => i.id)).toEqual([1, 2, 3]);
    expect(list[1]!.name).toBe('two again');
  });

  it('an Invalidate list drops each item by a bare pk string', () => {
    const c = seeded();
    const bulk = new RestEndpoint({
      urlPrefix: API,
      path: '/items/bulk',
      method: 'DELETE',
      schema: [new schema.Invalidate(Item)],
    });
    c.setResponse(bulk, {}, ['1', '2']);
    expect(c.getResponse(ItemResource.getList, {}).data).toEqual([]);
  });
});
