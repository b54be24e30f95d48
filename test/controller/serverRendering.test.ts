/**
 * What server rendering needs of the core: a controller whose requests go through a given `fetch`
 * (SvelteKit's `event.fetch`), no retries outside a browser unless asked for, and JSON read without a
 * `content-type` header the framework keeps hidden. HTTP goes through msw (test/fixtures).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { API, TodoResource, useTodoServer } from '../reliability/faultHarness.js';

const fake = useTodoServer();

afterEach(() => vi.unstubAllGlobals());

/** A fetch that counts its calls and hands them to the global one (msw answers). */
function countingFetch() {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init });
    return globalThis.fetch(input, init);
  };
  return { calls, fetch };
}

/**
 * A fetch like SvelteKit's `event.fetch` during server rendering: reading a response header that
 * `filterSerializedResponseHeaders` does not list throws.
 */
function sveltekitLikeFetch() {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await globalThis.fetch(input, init);
    const headers = new Proxy(response.headers, {
      get(target, property) {
        if (property === 'get' || property === 'has') {
          return (name: string) => {
            throw new Error(
              `Failed to get response header "${name}" — it must be included by the \`filterSerializedResponseHeaders\` option: https://svelte.dev/docs/kit/hooks#Server-hooks-handle (at ${String(input)})`,
            );
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as Function).bind(target) : value;
      },
    });
    return new Proxy(response, {
      get(target, property) {
        if (property === 'headers') return headers;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as Function).bind(target) : value;
      },
    });
  };
}

describe('new Controller({ fetch })', () => {
  it('sends every request of the controller through the given fetch, GETs and mutations', async () => {
    const { calls, fetch } = countingFetch();
    const controller = new Controller({ fetch, environment: {} });
    const todo = await controller.fetch(TodoResource.get, { id: 1 });
    expect(todo).toBeInstanceOf(Todo);
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true });
    const subscription = controller.observe(TodoResource.getList, { userId: 2 }).subscribe();
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    subscription.unsubscribe();
    expect(calls.map((call) => `${call.init?.method} ${call.url}`)).toEqual([
      `GET ${API}/todos/1`,
      `PATCH ${API}/todos/1`,
      `GET ${API}/todos?userId=2`,
    ]);
    expect(fake.requests).toHaveLength(3);
  });

  it('hands the fetch a plain RequestInit (nothing of its own in it) and keeps the abort signal', async () => {
    const { calls, fetch } = countingFetch();
    const controller = new Controller({ fetch, environment: {} });
    await controller.fetch(TodoResource.get, { id: 2 });
    const init = calls[0]?.init;
    expect(Object.getOwnPropertySymbols(init)).toEqual([]);
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it("lets an endpoint that overrides fetchResponse win; super.fetchResponse goes through the controller's fetch", async () => {
    const { calls, fetch } = countingFetch();
    const controller = new Controller({ fetch, environment: {} });
    const own = TodoResource.get.extend({
      fetchResponse: () => Promise.resolve(Response.json({ id: 9, userId: 1, title: 'own', completed: false })),
    });
    expect((await controller.fetch(own, { id: 9 })).title).toBe('own');
    expect(calls).toEqual([]);
    class Logged extends RestEndpoint<'/todos/:id', typeof Todo> {
      override async fetchResponse(input: string, init: RequestInit) {
        return super.fetchResponse(input, { ...init, headers: { ...init.headers, 'x-logged': '1' } });
      }
    }
    const logged = new Logged({ urlPrefix: API, path: '/todos/:id', schema: Todo });
    expect((await controller.fetch(logged, { id: 3 })).id).toBe(3);
    expect(calls.map((call) => call.url)).toEqual([`${API}/todos/3`]);
  });

  it('leaves a direct call of the endpoint (no controller) on the global fetch', async () => {
    const { calls, fetch } = countingFetch();
    new Controller({ fetch, environment: {} });
    await TodoResource.get({ id: 1 });
    expect(calls).toEqual([]);
    expect(fake.requests).toEqual(['GET /todos/1']);
  });

  it('rejects a fetch option that is not a function with a TypeError naming it', () => {
    expect(() => new Controller({ fetch: 'fetch' as never })).toThrow(
      /new Controller\(\{ fetch \}\) expects a function \(such as SvelteKit's event\.fetch\), got string/,
    );
  });
});

describe('JSON without a readable content-type', () => {
  it("reads a JSON response whose headers throw when read (SvelteKit's fetch on the server)", async () => {
    const controller = new Controller({ fetch: sveltekitLikeFetch(), environment: {} });
    const todos = await controller.fetch(TodoResource.getList, { userId: 1 });
    expect(todos.map((todo) => todo.id)).toEqual([1, 3]);
    expect(todos[0]).toBeInstanceOf(Todo);
  });

  it('still rejects a body that is not JSON for an endpoint with a schema, with a ParseError', async () => {
    const notJson = TodoResource.get.extend({ fetchResponse: () => Promise.resolve(new Response('<html>')) });
    const controller = new Controller({ environment: {}, fetch: sveltekitLikeFetch() });
    await expect(controller.fetch(notJson, { id: 1 })).rejects.toMatchObject({ name: 'ParseError' });
  });

  it('reads an error response of such a fetch as a NetworkError with its status', async () => {
    fake.fail('GET', 404);
    const controller = new Controller({ fetch: sveltekitLikeFetch(), environment: {} });
    await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({
      name: 'NetworkError',
      status: 404,
    });
  });
});

describe('retries outside a browser', () => {
  it('does not retry a failed request where there is no document (a server render fails at once)', async () => {
    fake.fail('GET', 503, 3);
    const controller = new Controller({ environment: {} });
    await expect(controller.fetch(TodoResource.get, { id: 1 })).rejects.toMatchObject({ status: 503 });
    expect(fake.requests).toEqual(['GET /todos/1']);
  });

  it('retries there when the controller or the endpoint sets retry', async () => {
    fake.fail('GET', 503, 1);
    const controller = new Controller({ environment: {}, retry: 2, retryDelay: 0 });
    expect((await controller.fetch(TodoResource.get, { id: 1 })).id).toBe(1);
    expect(fake.requests).toEqual(['GET /todos/1', 'GET /todos/1']);
    fake.requests.length = 0;
    fake.fail('GET', 503, 1);
    const patient = TodoResource.get.extend({ retry: 1, retryDelay: 0 });
    expect((await new Controller({ environment: {} }).fetch(patient, { id: 2 })).id).toBe(2);
    expect(fake.requests).toEqual(['GET /todos/2', 'GET /todos/2']);
  });

  it('retries three times by default in a browser (a document exists)', async () => {
    vi.stubGlobal('document', {});
    fake.fail('GET', 503, 3);
    const controller = new Controller({ environment: {}, retryDelay: 0 });
    expect((await controller.fetch(TodoResource.get, { id: 1 })).id).toBe(1);
    expect(fake.requests).toHaveLength(4);
  });
});
