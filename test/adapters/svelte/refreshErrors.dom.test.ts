/**
 * An outside review of failed background refreshes through the Svelte adapter: each failure is a named
 * error in the state, and the data on screen stays when the server answered with something unreadable
 * (a 5xx page, a 200 HTML page from a proxy, malformed JSON) or could not be reached.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { get } from 'svelte/store';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import { createQuery, createQueryState } from '../../../adapters/svelte/index.js';
import { API } from '../../fixtures/todoServer.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const html = (status: number) =>
  new HttpResponse('<!doctype html><p>Please sign in</p>', { status, headers: { 'Content-Type': 'text/html' } });

/** Each failure of a refresh: the error's name, its status, and a pattern of its message. */
const failures = [
  {
    what: 'a 502 HTML page',
    answer: () => html(502),
    name: 'NetworkError',
    status: 502,
    message: /GET .*\/todos\?userId=1.*502/,
  },
  { what: 'a 200 HTML page', answer: () => html(200), name: 'ParseError', status: 200, message: /not JSON/ },
  {
    what: 'malformed JSON',
    answer: () => new HttpResponse('[{"id": 1,', { headers: { 'Content-Type': 'application/json' } }),
    name: 'ParseError',
    status: 200,
    message: /not JSON/,
  },
  {
    what: 'a network failure',
    answer: () => HttpResponse.error(),
    name: 'NetworkError',
    status: 0,
    message: /status 0/,
  },
];

describe('a background refresh that fails', () => {
  for (const failure of failures) {
    it(`keeps the data and shows a named error: ${failure.what}`, async () => {
      let fail = false;
      server.use(http.get(`${API}/todos`, () => (fail ? failure.answer() : HttpResponse.json([todoRow(1)]))));
      const controller = new Controller({ retry: 0 });
      const store = createQuery(TodoResource.getList, { userId: 1 }, controller);
      const state = createQueryState(TodoResource.getList, { userId: 1 }, controller);
      const stop = store.subscribe(() => {});
      await vi.waitFor(() => expect(get(store).data?.map((todo) => todo.title)).toEqual(['todo 1']));
      fail = true;
      controller.expireAll(TodoResource.getList);
      await vi.waitFor(() => expect(get(store).error).toBeDefined());
      const { error, data, loading } = get(store);
      expect(error).toMatchObject({ name: failure.name, status: failure.status });
      expect(error!.message).toMatch(failure.message);
      expect(data?.map((todo) => todo.title)).toEqual(['todo 1']);
      expect(loading).toBe(false);
      expect([state.error, state.data]).toEqual([error, data]); // the runes form agrees
      stop();
    });
  }

  it('a 404 surfaces the error: no data shown, the store keeps what it had', async () => {
    let fail = false;
    server.use(
      http.get(`${API}/todos`, () => (fail ? HttpResponse.json({}, { status: 404 }) : HttpResponse.json([todoRow(1)]))),
    );
    const controller = new Controller({ retry: 0 });
    const store = createQuery(TodoResource.getList, { userId: 1 }, controller);
    const stop = store.subscribe(() => {});
    await vi.waitFor(() => expect(get(store).data).toBeDefined());
    fail = true;
    controller.expireAll(TodoResource.getList);
    await vi.waitFor(() => expect(get(store).error).toMatchObject({ name: 'NetworkError', status: 404 }));
    expect(get(store).data).toBeUndefined();
    expect(controller.getResponse(TodoResource.getList, { userId: 1 }).data).toHaveLength(1);
    stop();
  });
});
