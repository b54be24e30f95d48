/**
 * An outside review of rx-rest/solid against API.md, docs/adapters.md and docs/reference.md: Suspense and
 * ErrorBoundary (its reset asks again), one query in two components, unmounting mid-request, accessor args,
 * useSuspense against useLive, createMutation's accessors, keepPreviousData, the provider's checks. HTTP through msw.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@solidjs/testing-library';
import { createRoot, createSignal, ErrorBoundary, For, Show, Suspense, type JSX } from 'solid-js';
import { delay } from 'msw';
import { Controller } from '../../../../core/index.js';
import {
  ControllerProvider,
  createMutation,
  createQuery,
  createQueryState,
  useLive,
  useSuspense,
} from '../../../../adapters/solid/index.js';
import { createTodoServer } from '../../../fixtures/todoServer.js';
import { TodoResource } from '../../../fixtures/todoResource.js';
import { PollingTodoResource } from '../../../adapters/resources.js';

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
  fake.clearFailures();
  controller = new Controller({ retry: false });
  fallbacks = 0;
});

function Fallback() {
  fallbacks++;
  return <p>Loading…</p>;
}

function Shell(props: { children: JSX.Element }) {
  return (
    <ControllerProvider controller={controller}>
      <ErrorBoundary
        fallback={(error: Error, reset) => (
          <p role="alert">
            {error.message} <button onClick={reset}>Retry</button>
          </p>
        )}
      >
        <Suspense fallback={<Fallback />}>{props.children}</Suspense>
      </ErrorBoundary>
    </ControllerProvider>
  );
}

function Titles(props: { name: string; userId?: number | null }) {
  const todos = createQuery(TodoResource.getList, () => (props.userId === null ? null : { userId: props.userId ?? 1 }));
  return <p data-testid={props.name}>{(todos() ?? []).map((t) => t.title).join(', ') || '-'}</p>;
}

const text = (id: string) => screen.getByTestId(id).textContent;

describe('Suspense and ErrorBoundary', () => {
  it('two components with the same query suspend once together and share one request', async () => {
    render(() => (
      <Shell>
        <Titles name="a" />
        <Titles name="b" />
      </Shell>
    ));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await vi.waitFor(() => expect(text('a')).toBe('todo 1, todo 3'));
    expect(text('b')).toBe('todo 1, todo 3');
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('a failed first load reaches the ErrorBoundary; its reset asks again and renders the data', async () => {
    fake.fail('GET', 404);
    render(() => (
      <Shell>
        <Titles name="a" />
      </Shell>
    ));
    expect((await screen.findByRole('alert')).textContent).toContain('404');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(text('a')).toBe('todo 1, todo 3'));
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=1']);
  });

  it('args that change without keepPreviousData suspend again; () => null renders idle without suspending', async () => {
    const [userId, setUserId] = createSignal<number | null>(1);
    render(() => (
      <Shell>
        <Titles name="a" userId={userId()} />
      </Shell>
    ));
    await vi.waitFor(() => expect(text('a')).toBe('todo 1, todo 3'));
    setUserId(2);
    await vi.waitFor(() => expect(text('a')).toBe('todo 2, todo 4'));
    const before = fallbacks;
    setUserId(null);
    await Promise.resolve();
    expect(text('a')).toBe('-');
    expect(fallbacks).toBe(before);
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=2']);
  });
});

describe('unmounting', () => {
  it('a component unmounted while its request is on the wire: no error, nothing written; mounted again, it fetches and renders', async () => {
    fake.setLatency(100);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const [shown, setShown] = createSignal(true);
    render(() => (
      <Shell>
        <Show when={shown()}>
          <Titles name="a" />
        </Show>
      </Shell>
    ));
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1), { interval: 2 });
    setShown(false);
    await delay(150);
    expect(controller.getResponse(TodoResource.getList, { userId: 1 }).data).toBeUndefined();
    fake.setLatency(0);
    setShown(true);
    await vi.waitFor(() => expect(text('a')).toBe('todo 1, todo 3'));
    expect(fake.requests).toHaveLength(2);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});

describe('useSuspense against useLive', () => {
  it('useSuspense never polls; useLive polls while its component lives', async () => {
    const [live, setLive] = createSignal(false);
    function Both() {
      const quiet = useSuspense(PollingTodoResource.get, () => ({ id: 1 }));
      return (
        <>
          <p data-testid="quiet">{quiet()?.title}</p>
          <Show when={live()}>
            <Live />
          </Show>
        </>
      );
    }
    function Live() {
      const polled = useLive(PollingTodoResource.get, () => ({ id: 1 }));
      return <p data-testid="live">{polled()?.title}</p>;
    }
    render(() => (
      <Shell>
        <Both />
      </Shell>
    ));
    await vi.waitFor(() => expect(text('quiet')).toBe('todo 1'));
    await delay(70);
    expect(fake.requests).toEqual(['GET /todos/1']);
    setLive(true);
    await delay(70);
    setLive(false);
    const polled = fake.requests.length;
    expect(polled).toBeGreaterThan(2);
    await delay(70);
    expect(fake.requests.length).toBe(polled);
  });
});

describe('createMutation', () => {
  it('pending(), data() and error() follow the latest call; reset() goes idle; the list shows the change', async () => {
    function Rename() {
      const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }));
      const rename = createMutation(TodoResource.partialUpdate);
      return (
        <>
          <ul>
            <For each={todos()}>{(todo) => <li>{todo.title}</li>}</For>
          </ul>
          <button onClick={() => void rename.mutate({ id: 1 }, { title: 'renamed' }).catch(() => {})}>Save</button>
          <button onClick={() => void rename.mutate({ id: 99 }, { title: 'x' }).catch(() => {})}>Break</button>
          <button onClick={() => rename.reset()}>Reset</button>
          <p data-testid="state">
            {rename.pending()
              ? 'pending'
              : rename.error()
                ? `error ${(rename.error() as { status?: number }).status}`
                : rename.data()
                  ? `saved ${rename.data()!.title}`
                  : 'idle'}
          </p>
        </>
      );
    }
    render(() => (
      <Shell>
        <Rename />
      </Shell>
    ));
    await vi.waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
    fake.setLatency(20);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await Promise.resolve();
    expect(text('state')).toBe('pending');
    expect(screen.getAllByRole('listitem')[0]!.textContent).toBe('renamed');
    await vi.waitFor(() => expect(text('state')).toBe('saved renamed'));
    fireEvent.click(screen.getByRole('button', { name: 'Break' }));
    await vi.waitFor(() => expect(text('state')).toBe('error 404'));
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await Promise.resolve();
    expect(text('state')).toBe('idle');
  });
});

describe('keepPreviousData', () => {
  it('a switch never suspends: the old data with placeholder true, then the new data', async () => {
    const [userId, setUserId] = createSignal(1);
    let todos!: ReturnType<typeof createQuery<typeof TodoResource.getList>>;
    function List() {
      todos = createQuery(TodoResource.getList, () => ({ userId: userId() }), { keepPreviousData: true });
      return <p data-testid="list">{(todos() ?? []).map((t) => t.title).join(', ')}</p>;
    }
    render(() => (
      <Shell>
        <List />
      </Shell>
    ));
    await vi.waitFor(() => expect(text('list')).toBe('todo 1, todo 3'));
    const before = fallbacks;
    fake.setLatency(30);
    setUserId(2);
    await Promise.resolve();
    expect(text('list')).toBe('todo 1, todo 3');
    expect(todos.placeholder).toBe(true);
    await vi.waitFor(() => expect(text('list')).toBe('todo 2, todo 4'));
    expect(todos.placeholder).toBe(false);
    expect(fallbacks).toBe(before);
  });

  it('createQueryState: while the new args load, placeholder true, loading false, fetching true', async () => {
    const [userId, setUserId] = createSignal(1);
    const { state, stop } = createRoot((stop) => ({
      state: createQueryState(TodoResource.getList, () => ({ userId: userId() }), {
        controller,
        keepPreviousData: true,
      }),
      stop,
    }));
    await vi.waitFor(() => expect(state().data).toHaveLength(2));
    fake.setLatency(30);
    setUserId(2);
    expect(state()).toMatchObject({ placeholder: true, loading: false, fetching: true });
    await vi.waitFor(() => expect(state().data?.map((t) => t.title)).toEqual(['todo 2', 'todo 4']));
    expect(state().placeholder).toBe(false);
    stop();
  });
});

describe('ControllerProvider', () => {
  it('refuses what is not a Controller with a TypeError that names it', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() =>
      createRoot(() => <ControllerProvider controller={{} as Controller}>{null}</ControllerProvider>),
    ).toThrow(/ControllerProvider controller=\{\.\.\.\}> expects a Controller/);
    errors.mockRestore();
  });
});

describe('keepPreviousData, more switches', () => {
  it('back to the first args while the second load: the first data at once, no placeholder', async () => {
    const [userId, setUserId] = createSignal(1);
    const { state, stop } = createRoot((stop) => ({
      state: createQueryState(TodoResource.getList, () => ({ userId: userId() }), {
        controller,
        keepPreviousData: true,
      }),
      stop,
    }));
    await vi.waitFor(() => expect(state().data).toHaveLength(2));
    fake.setLatency(30);
    setUserId(2);
    expect(state().placeholder).toBe(true);
    setUserId(1);
    expect(state()).toMatchObject({ placeholder: false, loading: false });
    expect(state().data?.map((t) => t.title)).toEqual(['todo 1', 'todo 3']);
    await delay(50);
    expect(state().data?.map((t) => t.title)).toEqual(['todo 1', 'todo 3']);
    stop();
  });

  it('new args that fail reach the ErrorBoundary, without the old data', async () => {
    const [id, setId] = createSignal(1);
    function One() {
      const todo = createQuery(TodoResource.get, () => ({ id: id() }), { keepPreviousData: true });
      return <p data-testid="one">{todo()?.title}</p>;
    }
    render(() => (
      <Shell>
        <One />
      </Shell>
    ));
    await vi.waitFor(() => expect(text('one')).toBe('todo 1'));
    setId(99);
    expect((await screen.findByRole('alert')).textContent).toContain('404');
  });
});

describe('a query whose args come from another query', () => {
  it('stays idle until the first has data, then loads with it (one request each)', async () => {
    function Dependent() {
      const todos = createQuery(TodoResource.getList, () => ({ userId: 2 }));
      const first = createQuery(TodoResource.get, () => {
        const list = todos();
        return list?.[0] ? { id: list[0].id } : null;
      });
      return <p data-testid="first">{first()?.title ?? '-'}</p>;
    }
    render(() => (
      <Shell>
        <Dependent />
      </Shell>
    ));
    await vi.waitFor(() => expect(text('first')).toBe('todo 2'));
    expect(fake.requests).toEqual(['GET /todos?userId=2', 'GET /todos/2']);
  });
});
