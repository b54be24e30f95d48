/**
 * An outside review of the Solid adapter against API.md: races between accessor changes and responses,
 * one query in several components, remounts, polling with mounts, mutation state, missing or disposed
 * controllers, and the synchronous first emission inside batches and transitions. HTTP through msw.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { batch, createRoot, createSignal, ErrorBoundary, For, Show, Suspense, type JSX } from 'solid-js';
import { http, HttpResponse, delay } from 'msw';
import { setupServer } from 'msw/node';
import { Controller } from '../../../core/index.js';
import {
  ControllerProvider,
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  useLive,
} from '../../../adapters/solid/index.js';
import { API } from '../../fixtures/todoServer.js';
import { recordRequests, userLists } from '../../fixtures/userLists.js';
import { TodoResource, todoRow } from '../../fixtures/todoResource.js';
import { Todo } from '../../fixtures/entities.js';
import { PostResource } from '../../fixtures/feedServer.js';
import { PollingTodoResource } from '../resources.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => (server.resetHandlers(), cleanup()));
afterAll(() => server.close());

let controller: Controller;
let requests: string[];
let fallbacks: number;
beforeEach(() => {
  controller = new Controller();
  requests = recordRequests(server);
  fallbacks = 0;
});

const lists = userLists;

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

function Fallback() {
  fallbacks++;
  return <p>Loading…</p>;
}

function Shell(props: { children: JSX.Element }) {
  return (
    <ControllerProvider controller={controller}>
      <ErrorBoundary fallback={(error: Error) => <p role="alert">{error.message}</p>}>
        <Suspense fallback={<Fallback />}>{props.children}</Suspense>
      </ErrorBoundary>
    </ControllerProvider>
  );
}

function List(props: { userId: number }) {
  const todos = createQuery(TodoResource.getList, () => ({ userId: props.userId }));
  return (
    <ul>
      <For each={todos()}>{(todo) => <li>{todo.title}</li>}</For>
    </ul>
  );
}

describe('races', () => {
  it("an older request's response, for args left since, never replaces the newer args' data", async () => {
    server.use(lists((userId) => (userId === 1 ? 60 : 5)));
    const [userId, setUserId] = createSignal(1);
    render(() => (
      <Shell>
        <List userId={userId()} />
      </Shell>
    ));
    setUserId(2);
    await vi.waitFor(() => expect(titles()).toEqual(['u2']));
    await delay(100); // user 1's answer has arrived meanwhile
    expect(titles()).toEqual(['u2']);
  });
});

describe('one query in several components', () => {
  it('two components share one request; when one unmounts the other still follows writes', async () => {
    server.use(lists(() => 10));
    const [both, setBoth] = createSignal(true);
    render(() => (
      <Shell>
        <List userId={1} />
        <Show when={both()}>
          <List userId={1} />
        </Show>
      </Shell>
    ));
    await vi.waitFor(() => expect(titles()).toEqual(['u1', 'u1']));
    expect(requests).toEqual(['GET /todos?userId=1']);
    setBoth(false);
    controller.set(Todo, { id: 10 }, { id: 10, title: 'renamed' });
    await vi.waitFor(() => expect(titles()).toEqual(['renamed']));
    expect(requests).toHaveLength(1);
  });

  it('a remount shows the cached data in its first render without suspending or a request', async () => {
    server.use(lists());
    const [shown, setShown] = createSignal(true);
    render(() => (
      <Shell>
        <Show when={shown()}>
          <List userId={1} />
        </Show>
      </Shell>
    ));
    await screen.findByText('u1');
    const seen = fallbacks;
    setShown(false);
    setShown(true);
    expect(titles()).toEqual(['u1']);
    expect(fallbacks).toBe(seen);
    expect(requests).toHaveLength(1);
  });

  it('unmounted during its fetch and mounted again, it joins the request in flight', async () => {
    server.use(lists(() => 30));
    const [shown, setShown] = createSignal(true);
    render(() => (
      <Shell>
        <Show when={shown()}>
          <List userId={1} />
        </Show>
      </Shell>
    ));
    setShown(false);
    setShown(true);
    await screen.findByText('u1');
    expect(requests).toEqual(['GET /todos?userId=1']);
  });
});

describe('errors', () => {
  it("an ErrorBoundary's reset mounts the query again, which retries at once and renders the data", async () => {
    let fail = true;
    server.use(
      http.get(`${API}/todos`, () =>
        fail ? HttpResponse.json({ message: 'down' }, { status: 503 }) : HttpResponse.json([todoRow(10, 'u1')]),
      ),
    );
    controller = new Controller({ retry: 0 });
    render(() => (
      <ControllerProvider controller={controller}>
        <ErrorBoundary fallback={(error: Error, reset) => <button onClick={reset}>{error.name}: retry</button>}>
          <Suspense fallback={<Fallback />}>
            <List userId={1} />
          </Suspense>
        </ErrorBoundary>
      </ControllerProvider>
    ));
    const retry = await screen.findByRole('button', { name: 'NetworkError: retry' });
    fail = false;
    retry.click();
    await screen.findByText('u1');
    expect(requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=1']);
  });
});

describe('the first emission is synchronous', () => {
  it('a query mounted inside batch() renders cached data in that pass, without the fallback', async () => {
    server.use(lists());
    await controller.fetch(TodoResource.getList, { userId: 1 });
    const [shown, setShown] = createSignal(false);
    render(() => (
      <Shell>
        <Show when={shown()}>
          <List userId={1} />
        </Show>
      </Shell>
    ));
    batch(() => setShown(true));
    expect(titles()).toEqual(['u1']);
    expect(fallbacks).toBe(0);
  });

  it('createQueryState read right after creation outside a component gives the cached state', async () => {
    server.use(lists());
    await controller.fetch(TodoResource.getList, { userId: 1 });
    createRoot((dispose) => {
      const state = createQueryState(TodoResource.getList, () => ({ userId: 1 }), controller);
      expect(state()).toMatchObject({ loading: false, fetching: false, placeholder: false });
      expect(state().data?.map((t) => t.title)).toEqual(['u1']);
      dispose();
    });
  });
});

describe('polling with mounts', () => {
  it('one timer while two components poll; it goes on while one stays and stops with the last', async () => {
    server.use(http.get(`${API}/todos`, () => HttpResponse.json([todoRow(1)])));
    function Poll() {
      const todos = useLive(PollingTodoResource.getList, undefined);
      return <p>{todos()?.length}</p>;
    }
    const [first, setFirst] = createSignal(true);
    const [second, setSecond] = createSignal(true);
    render(() => (
      <Shell>
        <Show when={first()}>
          <Poll />
        </Show>
        <Show when={second()}>
          <Poll />
        </Show>
      </Shell>
    ));
    await vi.waitFor(() => expect(requests.length).toBeGreaterThanOrEqual(3));
    setFirst(false);
    const before = requests.length;
    await delay(100);
    expect(requests.length).toBeGreaterThan(before); // the other still polls
    setSecond(false);
    await delay(30);
    const after = requests.length;
    await delay(100);
    expect(requests.length).toBe(after);
  });
});

describe('createMutation', () => {
  it('reset() while a call is in flight stays idle when the call settles', async () => {
    server.use(http.patch(`${API}/todos/:id`, async () => (await delay(20), HttpResponse.json(todoRow(1, 'x')))));
    await createRoot(async (dispose) => {
      const rename = createMutation(TodoResource.partialUpdate, controller);
      const call = rename.mutate({ id: 1 }, { title: 'x' });
      expect(rename.pending()).toBe(true);
      rename.reset();
      expect(await call).toMatchObject({ title: 'x' });
      expect([rename.pending(), rename.error(), rename.data()]).toEqual([false, undefined, undefined]);
      dispose();
    });
  });

  it('a failed call nobody awaits raises no unhandled rejection and shows its error', async () => {
    server.use(http.patch(`${API}/todos/:id`, () => HttpResponse.json({ message: 'no' }, { status: 422 })));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    await createRoot(async (dispose) => {
      const rename = createMutation(TodoResource.partialUpdate, controller);
      void rename.mutate({ id: 1 }, { title: 'x' });
      await vi.waitFor(() => expect(rename.error()).toMatchObject({ name: 'NetworkError', status: 422 }));
      dispose();
    });
    await delay(10);
    process.off('unhandledRejection', onRejection);
    expect(rejections).toEqual([]);
  });
});

describe('a missing or disposed controller', () => {
  const forms = {
    createQueryState: () => createQueryState(TodoResource.getList, undefined),
    createMutation: () => createMutation(TodoResource.partialUpdate),
    createInfiniteQuery: () => createInfiniteQuery(PostResource.getList, undefined),
  };
  for (const [name, make] of Object.entries(forms)) {
    it(`${name} without a provider throws a clear error`, () => {
      createRoot((dispose) => {
        expect(make).toThrow(/rx-rest\/solid: no Controller in context.*ControllerProvider/);
        dispose();
      });
    });
  }

  it('createQuery on a disposed controller throws an error that says so', () => {
    controller.dispose();
    createRoot((dispose) => {
      expect(() => createQuery(TodoResource.getList, () => ({ userId: 1 }), controller)).toThrow(/disposed/);
      dispose();
    });
  });
});
