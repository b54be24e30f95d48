import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { createSignal, ErrorBoundary, For, Show, startTransition, Suspense, type JSX } from 'solid-js';
import { Controller } from '../../../core/index.js';
import {
  ControllerProvider,
  createQuery,
  createQueryState,
  useController,
  useLive,
  useSuspense,
} from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { PollingTodoResource, TodoResource } from '../resources.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(cleanup);

let controller: Controller;
let fallbacks = 0;
beforeEach(() => {
  const seed = createTodoServer();
  fake.todos.clear();
  for (const [id, todo] of seed.todos) fake.todos.set(id, todo);
  fake.requests.length = 0;
  fake.setLatency(0);
  controller = new Controller();
  fallbacks = 0;
});

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function Fallback() {
  fallbacks++;
  return <p>Loading…</p>;
}

function TodoList(props: { userId: number | null }) {
  const todos = createQuery(TodoResource.getList, () => (props.userId === null ? null : { userId: props.userId }));
  return (
    <Show when={todos()} fallback={<p>Idle</p>}>
      <ul>
        <For each={todos()}>{(todo) => <li>{todo.title}</li>}</For>
      </ul>
    </Show>
  );
}

/** The app shell every test renders: provider, error boundary, suspense. */
function Shell(props: { children: JSX.Element }) {
  return (
    <ControllerProvider controller={controller}>
      <ErrorBoundary fallback={(error: Error) => <p role="alert">{error.message}</p>}>
        <Suspense fallback={<Fallback />}>{props.children}</Suspense>
      </ErrorBoundary>
    </ControllerProvider>
  );
}

describe('createQuery (a suspending Resource)', () => {
  it('suspends until the first data, then renders it', async () => {
    render(() => (
      <Shell>
        <TodoList userId={1} />
      </Shell>
    ));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByText('todo 1');
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    expect(fallbacks).toBe(1);
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('updates in place on a mutation and on a background refresh, without suspending again', async () => {
    render(() => (
      <Shell>
        <TodoList userId={1} />
      </Shell>
    ));
    await screen.findByText('todo 1');
    const update = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' });
    await screen.findByText('renamed'); // optimistic: before the server answers
    await update;
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'created', userId: 1 });
    await vi.waitFor(() => expect(titles()).toEqual(['renamed', 'todo 3', 'created']));
    fake.setLatency(20);
    controller.expireAll(TodoResource.getList);
    await vi.waitFor(() => expect(fake.requests.filter((r) => r.startsWith('GET'))).toHaveLength(2));
    await wait(40);
    expect(titles()).toEqual(['renamed', 'todo 3', 'created']);
    expect(fallbacks).toBe(1); // the fallback showed on the first load only
  });

  it('switches requests when the accessor changes; () => null keeps it idle', async () => {
    const [userId, setUserId] = createSignal<number | null>(null);
    render(() => (
      <Shell>
        <TodoList userId={userId()} />
      </Shell>
    ));
    expect(screen.getByText('Idle')).toBeTruthy();
    expect(fallbacks).toBe(0);
    setUserId(1);
    await screen.findByText('todo 1');
    setUserId(2);
    await screen.findByText('todo 2');
    expect(titles()).toEqual(['todo 2', 'todo 4']);
    const shown = fallbacks;
    setUserId(1); // cached and fresh: shown at once, no fallback, no request
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    expect(fallbacks).toBe(shown);
    setUserId(null); // idle again: no data, no suspense
    expect(screen.getByText('Idle')).toBeTruthy();
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=2']);
  });

  it("renders from a server controller's state without suspending or fetching", async () => {
    const server = new Controller();
    await server.fetch(TodoResource.getList, { userId: 1 });
    fake.requests.length = 0;
    controller = new Controller({ initialState: JSON.parse(JSON.stringify(server.getState())) });
    render(() => (
      <Shell>
        <TodoList userId={1} />
      </Shell>
    ));
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    expect(fallbacks).toBe(0);
    expect(fake.requests).toEqual([]);
  });

  it('keeps the previous data on screen when the switch runs in a transition', async () => {
    const [userId, setUserId] = createSignal(1);
    render(() => (
      <Shell>
        <TodoList userId={userId()} />
      </Shell>
    ));
    await screen.findByText('todo 1');
    fake.setLatency(20);
    const switched = startTransition(() => setUserId(2));
    await wait(5);
    expect(titles()).toEqual(['todo 1', 'todo 3']); // still the old list, no fallback
    await switched;
    await screen.findByText('todo 2');
    expect(fallbacks).toBe(1);
  });

  it('throws a failed first load to <ErrorBoundary>', async () => {
    fake.fail('GET', 404);
    render(() => (
      <Shell>
        <TodoList userId={1} />
      </Shell>
    ));
    expect((await screen.findByRole('alert')).textContent).toMatch(/GET .*\/todos\?userId=1.*404/);
  });

  it('throws an error that surfaces after the data to <ErrorBoundary>', async () => {
    render(() => (
      <Shell>
        <TodoList userId={1} />
      </Shell>
    ));
    await screen.findByText('todo 1');
    controller.setError(TodoResource.getList, { userId: 1 }, new Error('lost access'));
    expect((await screen.findByRole('alert')).textContent).toBe('lost access');
  });

  it('useController throws a clear error without a provider; an explicit controller needs none', async () => {
    function Orphan() {
      useController();
      return null;
    }
    expect(() => render(() => <Orphan />)).toThrow(/no Controller in context.*ControllerProvider/);
    function Explicit() {
      const todo = createQuery(TodoResource.get, { id: 2 }, controller);
      return <h1>{todo()?.title}</h1>;
    }
    render(() => (
      <Suspense fallback="…">
        <Explicit />
      </Suspense>
    ));
    await screen.findByRole('heading', { name: 'todo 2' });
  });
});

describe('useSuspense(endpoint) without args', () => {
  it("reads an endpoint whose args are optional, as Data Client's useSuspense(endpoint) and createQuery(endpoint)", async () => {
    function All() {
      const todos = useSuspense(TodoResource.getList);
      const live = createQuery(TodoResource.getList);
      return (
        <>
          <ul>
            <For each={todos()}>{(todo) => <li>{todo.title}</li>}</For>
          </ul>
          <p>{live()?.length} live</p>
        </>
      );
    }
    render(() => (
      <Shell>
        <All />
      </Shell>
    ));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByText('todo 4');
    expect(titles()).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    expect(screen.getByText('4 live')).toBeTruthy();
    expect(fake.requests).toEqual(['GET /todos']); // the same request as useSuspense(endpoint, undefined)
  });
});

describe('createQueryState (the full state, no suspense)', () => {
  it('renders loading, then data, and follows its accessor', async () => {
    const [id, setId] = createSignal(1);
    function Todo() {
      const todo = createQueryState(TodoResource.get, () => ({ id: id() }));
      return (
        <Show when={!todo().loading} fallback={<p>Loading…</p>}>
          <h1>{todo().data?.title}</h1>
        </Show>
      );
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <Todo />
      </ControllerProvider>
    ));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByRole('heading', { name: 'todo 1' });
    setId(3);
    await screen.findByRole('heading', { name: 'todo 3' });
  });
});

describe('unmounting', () => {
  it.each([
    ['useLive', useLive],
    ['useSuspense', useSuspense],
  ] as const)('%s: suspends, then stops polling and leaves no subscription behind', async (name, hook) => {
    function Polling() {
      const todos = hook(PollingTodoResource.getList, () => undefined);
      return <p>{todos()?.length}</p>;
    }
    const { unmount } = render(() => (
      <Shell>
        <Polling />
      </Shell>
    ));
    expect(screen.getByText('Loading…')).toBeTruthy(); // a suspending Resource: Suspense shows its fallback
    expect(fallbacks).toBeGreaterThan(0);
    await screen.findByText('4');
    if (name === 'useLive') await vi.waitFor(() => expect(fake.requests.length).toBeGreaterThanOrEqual(3));
    await wait(60);
    const before = fake.requests.length;
    if (name === 'useSuspense') expect(before).toBe(1); // the same read, without polling
    unmount();
    await wait(80);
    controller.invalidateAll(PollingTodoResource.getList); // an observer would refetch now
    await wait(20);
    expect(fake.requests.length).toBe(before);
  });
});
