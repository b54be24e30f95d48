// Server rendering: node environment, Solid's server build (no JSX here: components return strings).
// Resources read the controller's snapshot and start no request and no timer.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createComponent } from 'solid-js';
import { renderToString } from 'solid-js/web';
import { Controller } from '../../../core/index.js';
import {
  ControllerProvider,
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  useLive,
} from '../../../adapters/solid/index.js';
import { PostResource } from '../../fixtures/feedServer.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { PollingTodoResource, TodoResource } from '../resources.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(() => vi.useRealTimers());

function renderList(controller: Controller, userId: number): string {
  const List = () => {
    const todos = createQuery(TodoResource.getList, () => ({ userId }));
    const state = createQueryState(TodoResource.getList, () => ({ userId }));
    return `${
      todos()
        ?.map((t) => t.title)
        .join(', ') ?? ''
    } | loading: ${state().loading}`;
  };
  return renderToString(() =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(List, {});
      },
    }),
  );
}

describe('rx-rest/solid on the server', () => {
  it('renders what a per-request controller preloaded', async () => {
    const controller = new Controller();
    await controller.fetch(TodoResource.getList, { userId: 1 });
    fake.requests.length = 0;
    expect(renderList(controller, 1)).toContain('todo 1, todo 3 | loading: false');
    expect(fake.requests).toEqual([]);
  });

  it('renders no data for a request it does not have, without fetching or starting a timer', () => {
    vi.useFakeTimers();
    const controller = new Controller();
    expect(renderList(controller, 2)).toContain(' | loading: true');
    const timersOf = (render: () => void) => {
      vi.clearAllTimers();
      render();
      return vi.getTimerCount();
    };
    const solidOwn = timersOf(() => renderToString(() => '')); // renderToString schedules its own
    const withQuery = timersOf(() =>
      renderToString(() => {
        useLive(PollingTodoResource.getList, () => undefined, controller);
        return '';
      }),
    );
    expect(withQuery).toBe(solidOwn);
    expect(fake.requests).toEqual([]);
  });

  it('createInfiniteQuery reads the snapshot and createMutation stays idle, without a request', async () => {
    const controller = new Controller();
    const fetch = vi.spyOn(globalThis, 'fetch');
    const html = renderToString(() => {
      const posts = createInfiniteQuery(PostResource.getList, () => undefined, { controller, pageSize: 3 });
      const save = createMutation(TodoResource.partialUpdate, controller);
      return `hasNext: ${posts().hasNext}, pending: ${save.pending()}, loading: ${posts().loading}`;
    });
    expect(html).toContain('hasNext: false, pending: false, loading: true');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetch).not.toHaveBeenCalled();
    fetch.mockRestore();
  });
});
