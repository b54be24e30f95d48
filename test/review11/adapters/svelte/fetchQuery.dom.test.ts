/**
 * An outside review of rx-rest/svelte's fetchQuery against docs/ssr.md ("Awaiting a query in a component"): a
 * disposed controller, two components asking for the same todo. HTTP through the msw todo server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { Controller } from '../../../../core/index.js';
import { createTodoServer } from '../../../fixtures/todoServer.js';
import Awaiting from './Awaiting.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let controller: Controller;
beforeEach(() => {
  fake.requests.length = 0;
  fake.setLatency(0);
  controller = new Controller({ retry: false });
});

describe('fetchQuery', () => {
  it('on a disposed controller rejects with an error naming fetchQuery', async () => {
    controller.dispose();
    render(Awaiting, { controller, id: 1 });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^fetchQuery\(\) was called after controller\.dispose\(\)/,
    );
  });

  it('two components asking for the same todo share one request', async () => {
    fake.setLatency(10);
    render(Awaiting, { controller, id: 2 });
    render(Awaiting, { controller, id: 2 });
    await vi.waitFor(() =>
      expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['todo 2', 'todo 2']),
    );
    expect(fake.requests).toEqual(['GET /todos/2']);
  });
});
