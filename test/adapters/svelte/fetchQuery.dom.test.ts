// fetchQuery in components (jsdom, Svelte's browser build): a {#await} block and an `await` in the
// markup read the data from the store when it is fresh (no request), else after one request; a failure
// reaches {:catch}. HTTP through the msw todo server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { Controller } from '../../../core/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../resources.js';
import AsyncTodo from './AsyncTodo.svelte';
import AwaitTodo from './AwaitTodo.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let controller: Controller;
beforeEach(() => {
  fake.requests.length = 0;
  fake.clearFailures();
  controller = new Controller({ retry: 0 });
});

describe('fetchQuery with {#await}', () => {
  it('shows the pending branch, then the data after one request', async () => {
    render(AwaitTodo, { props: { controller, id: 2 } });
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect((await screen.findByRole('heading')).textContent).toBe('todo 2');
    expect(fake.requests).toEqual(['GET /todos/2']);
  });

  it('resolves from the store without a request when the data is fresh', async () => {
    await controller.fetch(TodoResource.get, { id: 3 });
    fake.requests.length = 0;
    render(AwaitTodo, { props: { controller, id: 3 } });
    expect((await screen.findByRole('heading')).textContent).toBe('todo 3');
    expect(fake.requests).toEqual([]);
  });

  it('shows a failure in {:catch}', async () => {
    fake.fail('GET', 500);
    render(AwaitTodo, { props: { controller, id: 1 } });
    expect((await screen.findByRole('alert')).textContent).toContain('answered 500');
  });
});

describe('fetchQuery with await in the markup (experimental.async)', () => {
  it('renders the data once it arrives, with one request', async () => {
    render(AsyncTodo, { props: { controller, id: 4 } });
    expect((await screen.findByRole('heading')).textContent).toBe('todo 4');
    expect(fake.requests).toEqual(['GET /todos/4']);
  });
});
