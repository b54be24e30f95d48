/**
 * A page whose list is not a list: `getList.getPage` answered with a number or a string, a cursor page whose
 * `results` is one. A list endpoint refuses such an answer (a Collection expects an array); a page took it as one
 * pk and appended it to the list, where any later record of that pk would show as a row the server never listed.
 * Now it is a NormalizeError naming the endpoint (in development), and the list stays as it was.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Controller,
  Entity,
  NormalizeError,
  RestEndpoint,
  createResource,
  observeInfinite,
  schema,
  type InfiniteState,
} from '../../../core/index.js';

const API = 'http://page-shape.test';

class Row extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Row';
}

const Rows = createResource({ urlPrefix: API, path: '/rows/:id', schema: Row, paginationField: 'page' });
const Feed = new RestEndpoint({
  urlPrefix: API,
  path: '/feed',
  searchParams: {} as { cursor?: string } | undefined,
  schema: { results: new schema.Collection([Row]), next: null as string | null },
});

let page: unknown = null;
const server = setupServer(
  http.get(`${API}/rows`, ({ request }) =>
    HttpResponse.json(new URL(request.url).searchParams.has('page') ? (page as never) : [{ id: 1, title: 'one' }]),
  ),
  http.get(`${API}/feed`, ({ request }) =>
    HttpResponse.json(
      new URL(request.url).searchParams.has('cursor')
        ? (page as never)
        : { results: [{ id: 1, title: 'one' }], next: 'c2' },
    ),
  ),
  http.post(`${API}/rows`, () => HttpResponse.json(7, { status: 201 })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('a page that is no list', () => {
  it.each([42, 'str'])(
    'getPage answered %j: a NormalizeError naming the endpoint; the list unchanged',
    async (answer) => {
      page = answer;
      const controller = new Controller({ retry: 0 });
      await controller.fetch(Rows.getList);
      const lists = controller.getState().entities['[Row]'];
      const error = await controller.fetch(Rows.getList.getPage, { page: 2 }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(NormalizeError);
      expect((error as Error).message).toContain('Row.getList.getPage');
      expect((error as Error).message).toMatch(/list/);
      expect(controller.getState().entities['[Row]']).toBe(lists);
      // a record of that pk arriving later does not join the list
      controller.set(Row, { id: 42, title: 'elsewhere' });
      expect((controller.getResponse(Rows.getList).data as Row[]).map((row) => row.id)).toEqual([1]);
    },
  );

  it('a cursor page whose results is a number: the error in the state, the list and hasNext kept', async () => {
    page = { results: 5, next: null };
    const controller = new Controller({ retry: 0 });
    const feed = observeInfinite(controller, Feed, undefined);
    let last: InfiniteState<unknown> | undefined;
    feed.state$.subscribe((state) => (last = state));
    await expect.poll(() => last?.data).toBeDefined();
    const lists = controller.getState().entities['[Row]'];
    await feed.loadNext();
    expect(last?.error).toBeInstanceOf(NormalizeError);
    expect(last?.hasNext).toBe(true);
    expect(controller.getState().entities['[Row]']).toBe(lists);
    expect((last?.data as { results: Row[] }).results.map((row) => row.id)).toEqual([1]);
  });

  it('an empty page and a page of null still end the list without an error', async () => {
    for (const answer of [[], null]) {
      page = answer;
      const controller = new Controller({ retry: 0 });
      await controller.fetch(Rows.getList);
      await expect(controller.fetch(Rows.getList.getPage, { page: 2 })).resolves.toEqual(answer);
      expect((controller.getResponse(Rows.getList).data as Row[]).map((row) => row.id)).toEqual([1]);
    }
  });

  it('push answered with the bare pk of the created row still adds it (a pk stands for its record)', async () => {
    const controller = new Controller({ retry: 0 });
    await controller.fetch(Rows.getList);
    await controller.fetch(Rows.getList.push, {}, { title: 'seven' });
    controller.set(Row, { id: 7, title: 'seven' });
    expect((controller.getResponse(Rows.getList).data as Row[]).map((row) => row.id)).toEqual([1, 7]);
  });
});
