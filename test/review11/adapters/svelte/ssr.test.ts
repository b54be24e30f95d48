/**
 * An outside review of rx-rest/svelte's server rendering against docs/ssr.md and docs/reference.md ("Server
 * rendering"): every read form renders what the request's controller holds and starts nothing; two requests'
 * controllers never mix; loadController on the server. Node environment, Svelte's server build, msw.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'svelte/server';
import { Controller, takeSnapshot } from '../../../../core/index.js';
import { loadController } from '../../../../adapters/svelte/index.js';
import { feedHandlers, PostResource } from '../../../fixtures/feedServer.js';
import { createTodoServer } from '../../../fixtures/todoServer.js';
import { TodoResource } from '../../../fixtures/todoResource.js';
import Page from './Page.svelte';

const fake = createTodoServer();
const feed = feedHandlers();
beforeAll(() => {
  fake.server.use(...feed.handlers);
  fake.server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => fake.server.close());
beforeEach(() => {
  fake.requests.length = 0;
  feed.requests.length = 0;
});

/** The controller of one server request, with what its page needs fetched (as a load would). */
async function requestFor(userId: number): Promise<Controller> {
  const controller = loadController({ fetch: (input, init) => fetch(input, init) });
  await Promise.all([
    controller.fetch(TodoResource.getList, { userId }),
    controller.fetch(TodoResource.get, { id: userId }),
    controller.fetch(PostResource.getList),
  ]);
  return controller;
}

describe('rx-rest/svelte on the server', () => {
  it('every read form renders what the controller holds, and makes no request and no timer', async () => {
    const controller = await requestFor(1);
    fake.requests.length = 0;
    feed.requests.length = 0;
    vi.useFakeTimers();
    try {
      const { body } = render(Page, { props: { controller, userId: 1 } });
      expect(body).toContain('todo 1, todo 3');
      expect(body).toMatch(/<li>todo 1<\/li>\s*<li>todo 3<\/li>/);
      expect(body).toContain('<h1>todo 1</h1>');
      expect(body).toContain('posts 3, next true');
      expect(body).toContain('idle');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(fake.requests).toEqual([]);
    expect(feed.requests).toEqual([]);
  });

  it("two requests rendered side by side each show their own user's data only", async () => {
    const [one, two] = await Promise.all([requestFor(1), requestFor(2)]);
    const first = render(Page, { props: { controller: one, userId: 1 } }).body;
    const second = render(Page, { props: { controller: two, userId: 2 } }).body;
    expect(first).toContain('todo 1, todo 3');
    expect(first).not.toContain('todo 2');
    expect(second).toContain('todo 2, todo 4');
    expect(second).not.toContain('todo 3');
    expect(one).not.toBe(two);
  });

  it('data it does not have renders the loading state, which is what the browser renders first', () => {
    const controller = new Controller();
    const { body } = render(Page, { props: { controller, userId: 2 } });
    expect(body).toContain('loading');
    expect(body).toContain('<h1>-</h1>');
    expect(fake.requests).toEqual([]);
  });

  it('loadController sends every request of the controller through the event fetch', async () => {
    const seen: string[] = [];
    const controller = loadController({
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    await controller.fetch(TodoResource.get, { id: 3 });
    expect(seen).toEqual(['http://api.test/todos/3']);
    expect(takeSnapshot(controller).entities.Todo?.['3']).toMatchObject({ title: 'todo 3' });
  });
});
