import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@solidjs/testing-library';
import { createRoot, createSignal, For, from, Show, startTransition, Suspense, type JSX } from 'solid-js';
import { distinctUntilChanged, map } from 'rxjs';
import { Controller } from '../../../core/index.js';
import {
  ControllerProvider,
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  useLive,
  useSuspense,
} from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { FEED_PAGE, feedHandlers, PostFeed, PostResource } from '../../fixtures/feedServer.js';
import { TodoResource } from '../resources.js';

const fake = createTodoServer();
const feed = feedHandlers();
beforeAll(() => {
  fake.server.use(...feed.handlers);
  fake.server.listen({ onUnhandledRequest: 'error' });
});
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
  feed.requests.length = 0;
  feed.posts.length = 7;
  feed.setLatency(0);
  controller = new Controller({ retry: false });
  fallbacks = 0;
});

const items = (testId?: string) =>
  Array.from(testId ? screen.getByTestId(testId).querySelectorAll('li') : screen.queryAllByRole('listitem')).map(
    (li) => li.textContent,
  );
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The end of the task's microtasks, where the emissions of a task render (before the browser paints). */
const endOfTask = () => Promise.resolve();

function Fallback() {
  fallbacks++;
  return <p>Loading…</p>;
}

function Shell(props: { children: JSX.Element }) {
  return (
    <ControllerProvider controller={controller}>
      <Suspense fallback={<Fallback />}>{props.children}</Suspense>
    </ControllerProvider>
  );
}

describe('createMutation', () => {
  function Rename() {
    const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }));
    const rename = createMutation(TodoResource.partialUpdate);
    const remove = createMutation(TodoResource.delete, controller);
    return (
      <>
        <ul>
          <For each={todos()}>{(todo) => <li>{todo.title}</li>}</For>
        </ul>
        <button onClick={() => rename.mutate({ id: 1 }, { title: 'renamed' })} disabled={rename.pending()}>
          {rename.pending() ? 'Saving…' : 'Rename'}
        </button>
        <button onClick={() => remove.mutate({ id: 3 })}>Delete</button>
        <button onClick={() => rename.reset()}>Reset</button>
        <Show when={rename.error()}>{(error) => <p role="alert">{error().message}</p>}</Show>
        <Show when={rename.data()}>{(todo) => <p role="status">saved {todo().title}</p>}</Show>
        <Show when={remove.pending()}>
          <p>Deleting…</p>
        </Show>
      </>
    );
  }

  it('shows pending, then the data; optimistic updates show at once; reset goes idle', async () => {
    render(() => (
      <Shell>
        <Rename />
      </Shell>
    ));
    await screen.findByText('todo 1');
    fake.setLatency(30);
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(screen.getByRole('button', { name: 'Saving…' })).toHaveProperty('disabled', true);
    await endOfTask();
    expect(items()).toEqual(['renamed', 'todo 3']); // optimistic: before the server answers
    expect((await screen.findByRole('status')).textContent).toBe('saved renamed');
    expect(screen.getByRole('button', { name: 'Rename' })).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(fallbacks).toBe(1);
  });

  it('shows the error of a failed mutation and rolls the optimistic change back', async () => {
    render(() => (
      <Shell>
        <Rename />
      </Shell>
    ));
    await screen.findByText('todo 1');
    fake.fail('PATCH', 500);
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/PATCH .*\/todos\/1.*500/);
    expect(items()).toEqual(['todo 1', 'todo 3']);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('takes a controller directly', async () => {
    render(() => (
      <Shell>
        <Rename />
      </Shell>
    ));
    await screen.findByText('todo 3');
    fake.setLatency(20);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Deleting…')).toBeTruthy();
    await endOfTask();
    expect(items()).toEqual(['todo 1']); // optimistic delete
    await vi.waitFor(() => expect(screen.queryByText('Deleting…')).toBeNull());
    expect(fake.todos.has(3)).toBe(false);
  });

  it('concurrent calls each resolve their own result; the state follows the latest', async () => {
    await createRoot(async (dispose) => {
      const rename = createMutation(TodoResource.partialUpdate, controller);
      fake.setLatency(20);
      const first = rename.mutate({ id: 1 }, { title: 'first' });
      const second = rename.mutate({ id: 2 }, { title: 'second' });
      expect((await first).title).toBe('first');
      expect(rename.pending()).toBe(true); // the latest call is still in flight
      expect((await second).title).toBe('second');
      expect(rename.pending()).toBe(false);
      expect(rename.data()?.title).toBe('second');
      dispose();
    });
  });

  it('concurrent calls to the same request each resolve their own result', async () => {
    await createRoot(async (dispose) => {
      const rename = createMutation(TodoResource.partialUpdate, controller);
      fake.setLatency(20);
      const first = rename.mutate({ id: 1 }, { title: 'first' });
      const second = rename.mutate({ id: 1 }, { title: 'second' });
      expect((await first).title).toBe('first');
      expect((await second).title).toBe('second');
      expect(rename.data()?.title).toBe('second');
      dispose();
    });
  });
});

describe('switching args', () => {
  function TodoList(props: { userId: number; keep: boolean }) {
    const todos = createQuery(TodoResource.getList, () => ({ userId: props.userId }), {
      // eslint-disable-next-line solid/reactivity -- an option, read once when the query is created
      keepPreviousData: props.keep,
    });
    return (
      <ul data-testid="list" classList={{ dim: todos.placeholder }}>
        <For each={todos()}>
          {(todo) => (
            <li>
              {todo.title} of {props.userId}
            </li>
          )}
        </For>
      </ul>
    );
  }

  it.each([false, true])(
    'keepPreviousData: the old rows stay dimmed, no suspense, then the new rows (transition: %s)',
    async (transition) => {
      const [userId, setUserId] = createSignal(1);
      render(() => (
        <Shell>
          <TodoList userId={userId()} keep />
        </Shell>
      ));
      await screen.findByText('todo 1 of 1');
      fake.setLatency(30);
      const switched = transition ? startTransition(() => setUserId(2)) : setUserId(2);
      await wait(5);
      // the previous rows, rendered with the current props
      expect(items()).toEqual(['todo 1 of 2', 'todo 3 of 2']);
      expect(screen.getByTestId('list').classList.contains('dim')).toBe(true);
      await switched;
      await vi.waitFor(() => expect(items()).toEqual(['todo 2 of 2', 'todo 4 of 2']));
      expect(screen.getByTestId('list').classList.contains('dim')).toBe(false);
      expect(fallbacks).toBe(1); // the first load only
    },
  );

  it('in a transition without keepPreviousData: the old rows stay, then the new rows read current values', async () => {
    const [userId, setUserId] = createSignal(1);
    render(() => (
      <Shell>
        <TodoList userId={userId()} keep={false} />
      </Shell>
    ));
    await screen.findByText('todo 1 of 1');
    fake.setLatency(30);
    const switched = startTransition(() => setUserId(2));
    await wait(5);
    expect(items()).toEqual(['todo 1 of 1', 'todo 3 of 1']);
    await switched;
    expect(items()).toEqual(['todo 2 of 2', 'todo 4 of 2']); // rows made from the new data see userId 2
    setUserId(1); // cached: at once
    expect(items()).toEqual(['todo 1 of 1', 'todo 3 of 1']);
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' });
    expect(items()).toEqual(['renamed of 1', 'todo 3 of 1']);
    expect(fallbacks).toBe(1);
  });
});

describe('createInfiniteQuery', () => {
  function Feed(props: { userId?: number }) {
    const posts = createInfiniteQuery(PostResource.getList, () => ({ userId: props.userId }), {
      pageSize: FEED_PAGE,
    });
    const cursor = createInfiniteQuery(PostFeed, undefined);
    return (
      <>
        <ul data-testid="pages">
          <For each={posts().data}>{(post) => <li>{post.title}</li>}</For>
        </ul>
        <Show when={posts().error}>{(error) => <p role="alert">{error().message}</p>}</Show>
        <Show when={posts().hasNext} fallback={<p>{posts().data ? "That's all" : ''}</p>}>
          <button onClick={() => posts.loadNext()} disabled={posts().fetchingNext}>
            {posts().fetchingNext ? 'Loading more…' : 'Load more'}
          </button>
        </Show>
        <ol data-testid="cursor">
          <For each={cursor().data?.results}>{(post) => <li>{post.title}</li>}</For>
        </ol>
        <Show when={cursor().hasNext}>
          <button onClick={() => cursor.loadNext()}>More from the feed</button>
        </Show>
      </>
    );
  }

  it('loads pages by number into one list until the last page', async () => {
    render(() => (
      <ControllerProvider controller={controller}>
        <Feed />
      </ControllerProvider>
    ));
    await vi.waitFor(() => expect(items('pages')).toEqual(['post 1', 'post 2', 'post 3']));
    feed.setLatency(20);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await endOfTask();
    expect(screen.getByRole('button', { name: 'Loading more…' })).toHaveProperty('disabled', true);
    await vi.waitFor(() => expect(items('pages')).toHaveLength(6));
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByText("That's all");
    expect(items('pages')).toEqual(['post 1', 'post 2', 'post 3', 'post 4', 'post 5', 'post 6', 'post 7']);
  });

  it('follows the cursor of { results, next } responses', async () => {
    render(() => (
      <ControllerProvider controller={controller}>
        <Feed />
      </ControllerProvider>
    ));
    await vi.waitFor(() => expect(items('cursor')).toEqual(['post 1', 'post 2', 'post 3']));
    fireEvent.click(screen.getByRole('button', { name: 'More from the feed' }));
    await vi.waitFor(() => expect(items('cursor')).toHaveLength(6));
    fireEvent.click(screen.getByRole('button', { name: 'More from the feed' }));
    await vi.waitFor(() => expect(items('cursor')).toHaveLength(7));
    expect(screen.queryByRole('button', { name: 'More from the feed' })).toBeNull();
    expect(feed.requests.filter((r) => r.startsWith('GET /feed'))).toEqual([
      'GET /feed',
      'GET /feed?cursor=c3',
      'GET /feed?cursor=c6',
    ]);
  });

  it('a created post joins the paged list; a failed page shows its error; new args start a new list', async () => {
    const [userId, setUserId] = createSignal(1);
    render(() => (
      <ControllerProvider controller={controller}>
        <Feed userId={userId()} />
      </ControllerProvider>
    ));
    await vi.waitFor(() => expect(items('pages')).toEqual(['post 1', 'post 3', 'post 5']));
    await controller.fetch(PostResource.getList.push, { userId: 1 }, { title: 'fresh', userId: 1 });
    expect(items('pages')).toEqual(['post 1', 'post 3', 'post 5', 'fresh']);
    feed.failNext();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/GET .*\/posts\?page=2&userId=1.*500/);
    setUserId(2);
    await vi.waitFor(() => expect(items('pages')).toEqual(['post 2', 'post 4', 'post 6']));
  });
});

describe('createQueryState and createInfiniteQuery without args', () => {
  it("read an endpoint whose args are optional, as createQuery(endpoint) and Data Client's useSuspense(endpoint)", async () => {
    function Lists() {
      // no args: the endpoints' are optional
      const todos = createQueryState(TodoResource.getList);
      const cursor = createInfiniteQuery(PostFeed);
      return (
        <>
          <Show when={todos().loading}>
            <p>Loading…</p>
          </Show>
          <ul data-testid="todos">
            <For each={todos().data}>{(todo) => <li>{todo.title}</li>}</For>
          </ul>
          <ol data-testid="cursor">
            <For each={cursor().data?.results}>{(post) => <li>{post.title}</li>}</For>
          </ol>
          <Show when={cursor().hasNext}>
            <button onClick={() => cursor.loadNext()}>More from the feed</button>
          </Show>
        </>
      );
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <Lists />
      </ControllerProvider>
    ));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await vi.waitFor(() => expect(items('todos')).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']));
    await vi.waitFor(() => expect(items('cursor')).toEqual(['post 1', 'post 2', 'post 3']));
    fireEvent.click(screen.getByRole('button', { name: 'More from the feed' }));
    await vi.waitFor(() => expect(items('cursor')).toHaveLength(6));
    expect(fake.requests).toEqual(['GET /todos']); // the same requests as with undefined args
    expect(feed.requests).toEqual(['GET /feed', 'GET /feed?cursor=c3']);
  });
});

describe('createInfiniteQuery with keepPreviousData', () => {
  it('keeps the old list (placeholder) while the new first page loads', async () => {
    await createRoot(async (dispose) => {
      const [userId, setUserId] = createSignal(1);
      const options = { controller, pageSize: FEED_PAGE, keepPreviousData: true };
      const posts = createInfiniteQuery(PostResource.getList, () => ({ userId: userId() }), options);
      const view = () => ({ ids: posts().data?.map((p) => p.id), placeholder: posts().placeholder });
      await vi.waitFor(() => expect(view()).toEqual({ ids: [1, 3, 5], placeholder: false }));
      await posts.loadNext();
      feed.setLatency(20);
      setUserId(2);
      expect(view()).toEqual({ ids: [1, 3, 5, 7], placeholder: true });
      expect(posts().hasNext).toBe(false);
      await vi.waitFor(() => expect(view()).toEqual({ ids: [2, 4, 6], placeholder: false }));
      expect(posts().hasNext).toBe(true);
      dispose();
    });
  });
});

describe('a mutation endpoint given to a read', () => {
  // a compile error (see createQuery.test-d.ts); at runtime the call itself throws
  const push = PostResource.getList.push as unknown as typeof PostResource.getList;
  it.each([
    ['createInfiniteQuery', () => createInfiniteQuery(push, {}, { controller })],
    ['createQuery', () => createQuery(push, {}, controller)],
    ['useLive', () => useLive(push, {}, controller)],
    ['useSuspense', () => useSuspense(push, {}, controller)],
    ['createQueryState', () => createQueryState(push, {}, controller)],
  ])(
    '%s given a mutation endpoint throws a TypeError naming the function called, and requests nothing',
    async (name, call) => {
      // useLive is createQuery itself: its error names createQuery
      const called = name === 'useLive' ? 'createQuery' : name;
      const inRoot = () =>
        createRoot((dispose) => {
          try {
            call();
          } finally {
            dispose();
          }
        });
      expect(inRoot).toThrow(TypeError);
      expect(inRoot).toThrow(new RegExp(`^${called}\\(.*side effects \\(POST\\).*controller\\.fetch`));
      await endOfTask();
      expect(feed.requests).toEqual([]);
    },
  );
});

describe('derived data (select) as an RxJS pipe over observe', () => {
  it('renders the piped value through from() and follows changes', async () => {
    function Done() {
      const done$ = controller.observe(TodoResource.getList, { userId: 1 }).pipe(
        map((state) => state.data?.filter((todo) => todo.completed).length),
        distinctUntilChanged(),
      );
      const done = from(done$);
      return <p role="status">{done() ?? '…'} done</p>;
    }
    render(() => <Done />);
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('0 done'));
    await controller.fetch(TodoResource.partialUpdate, { id: 3 }, { completed: true });
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('1 done'));
  });
});

describe('a disposed controller', () => {
  const disposed = /^(\w+)\(\) was called after controller\.dispose\(\)/;
  const calledName = (call: () => unknown): string | undefined => {
    try {
      createRoot((dispose) => {
        try {
          call();
        } finally {
          dispose();
        }
      });
    } catch (error) {
      return disposed.exec((error as Error).message)?.[1];
    }
    return undefined;
  };

  it('makes each query function throw an error naming that function, not the read it makes inside', () => {
    const gone = new Controller();
    gone.dispose();
    const options = { controller: gone };
    expect(calledName(() => createQuery(TodoResource.get, () => ({ id: 1 }), options))).toBe('createQuery');
    expect(calledName(() => useSuspense(TodoResource.get, () => ({ id: 1 }), options))).toBe('useSuspense');
    expect(calledName(() => createQueryState(TodoResource.get, () => ({ id: 1 }), options))).toBe('createQueryState');
    expect(calledName(() => createInfiniteQuery(PostResource.getList, () => undefined, options))).toBe(
      'createInfiniteQuery',
    );
  });

  it("makes a mutation's mutate reject with an error naming createMutation's mutate, shown as the state's error too", async () => {
    const later = new Controller({ retry: false });
    const rename = createRoot(() => createMutation(TodoResource.partialUpdate, { controller: later }));
    later.dispose();
    const result = rename.mutate({ id: 1 }, { title: 'renamed' });
    await expect(result).rejects.toThrow(
      /^createMutation\(\.\.\.\)\.mutate\(\) was called after controller\.dispose\(\)/,
    );
    expect(rename.pending()).toBe(false);
    expect(rename.error()?.message).toMatch(/^createMutation\(\.\.\.\)\.mutate\(\) was called after/);
    expect(fake.requests).toEqual([]);
  });
});
