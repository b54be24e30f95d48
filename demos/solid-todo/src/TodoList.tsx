import { createQuery, useController } from 'rx-rest/solid';
import { createSignal, ErrorBoundary, For, onCleanup, onMount, Show, Suspense, type JSX } from 'solid-js';
import type { Temporal } from 'temporal-polyfill';
import { PAGE_SIZE, TodoResource, listArgs, newTodo, nextPage, type User } from '../../api';
import { shortError } from '../../format';
import { RETRY_MS, recovery } from '../../recovery';
import type { Report } from './App';
import { TodoItem } from './TodoItem';

type ListArgs = ReturnType<typeof listArgs>;

/** The user filter, the form that creates todos, and the list (suspending while a list loads). */
export function TodoList(props: { users: User[]; now: Temporal.Instant; report: Report }): JSX.Element {
  const controller = useController();
  const [filter, setFilter] = createSignal(''); // '' = all users, else a user id
  const userId = () => (filter() === '' ? undefined : Number(filter()));
  const args = () => listArgs(userId());

  const [title, setTitle] = createSignal('');
  const [owner, setOwner] = createSignal('1');
  const [adding, setAdding] = createSignal(false);
  async function add(event: SubmitEvent) {
    event.preventDefault();
    if (!title().trim()) return;
    setAdding(true);
    try {
      await controller.fetch(TodoResource.getList.push, {}, newTodo(userId() ?? Number(owner()), title()));
      setTitle('');
    } catch (error) {
      props.report(`Could not add "${title().trim()}"`, error);
    } finally {
      setAdding(false);
    }
  }

  return (
    <section class="card" aria-label="Todo list">
      <h2>
        <span>Todo list</span>
      </h2>
      <div class="toolbar">
        <label for="user-filter">Show</label>
        {/* a list not loaded yet suspends (the fallback shows) until its first data */}
        <select
          id="user-filter"
          data-testid="user-filter"
          value={filter()}
          onChange={(e) => setFilter(e.currentTarget.value)}
        >
          <option value="">All users</option>
          <For each={props.users}>{(user) => <option value={`${user.id}`}>{user.name}</option>}</For>
        </select>
      </div>

      <form class="add-form" onSubmit={add}>
        <input
          type="text"
          placeholder="What needs doing?"
          aria-label="New todo"
          data-testid="new-title"
          value={title()}
          onInput={(e) => setTitle(e.currentTarget.value)}
        />
        <Show when={userId() === undefined && props.users.length > 0}>
          <select
            aria-label="For"
            data-testid="new-owner"
            value={owner()}
            onChange={(e) => setOwner(e.currentTarget.value)}
          >
            <For each={props.users}>{(user) => <option value={`${user.id}`}>{user.name}</option>}</For>
          </select>
        </Show>
        <button class="primary" data-testid="add-todo" disabled={adding() || !title().trim()}>
          {adding() ? 'Adding…' : 'Add'}
        </button>
      </form>

      <ErrorBoundary
        fallback={(error: Error, reset) => (
          <p class="error" role="alert" data-testid="list-error" title={error.message}>
            Could not load todos ({shortError(error)}); trying again every {RETRY_MS / 1000} s.{' '}
            <button onClick={reset}>Retry now</button>
            <ResetWhenLoaded args={args()} reset={reset} />
          </p>
        )}
      >
        <Suspense
          fallback={
            <p class="muted" data-testid="list-loading">
              Loading todos…
            </p>
          }
        >
          <Todos args={args()} users={props.users} now={props.now} report={props.report} />
        </Suspense>
      </ErrorBoundary>
    </section>
  );
}

/**
 * Inside the error fallback: retries the failed list (see recovery.ts) and, once the server answered,
 * resets the boundary so that the list shows again, without a click.
 */
function ResetWhenLoaded(props: { args: ListArgs; reset: () => void }): JSX.Element {
  const controller = useController();
  onMount(() => {
    let failed = false;
    const subscription = recovery(controller, TodoResource.getList, props.args).subscribe((failure) => {
      if (failure) failed = true;
      else if (failed) props.reset();
    });
    onCleanup(() => subscription.unsubscribe());
  });
  return null;
}

/** The list itself: suspends until its first data (createQuery), then updates in place. */
function Todos(props: { args: ListArgs; users: User[]; now: Temporal.Instant; report: Report }): JSX.Element {
  const controller = useController();
  const todos = createQuery(TodoResource.getList, () => props.args);
  const userName = (id: number) => props.users.find((user) => user.id === id)?.name ?? `User ${id}`;
  const count = () => todos()?.length ?? 0;

  const [loadingMore, setLoadingMore] = createSignal(false);
  const [endOfList, setEndOfList] = createSignal<{ key: string; length: number } | null>(null);
  const listKey = () => TodoResource.getList.key(props.args);
  const hasMore = () => count() >= PAGE_SIZE && !(endOfList()?.key === listKey() && endOfList()?.length === count());
  async function loadMore() {
    const key = listKey();
    setLoadingMore(true);
    try {
      // resolves the page's todos (an array), though its type says one Todo: hence `unknown` and the check
      const page: unknown = await controller.fetch(TodoResource.getList.getPage, {
        ...props.args,
        _page: nextPage(count()),
      });
      if (!Array.isArray(page) || page.length < PAGE_SIZE) setEndOfList({ key, length: count() });
    } catch (error) {
      props.report('Could not load more todos', error);
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <>
      <Show when={count() > 0} fallback={<p class="empty">Nothing to do.</p>}>
        <ul class="todos" data-testid="todo-list">
          <For each={todos()}>
            {(todo) => (
              <TodoItem
                todo={todo}
                owner={props.args.userId === undefined ? userName(todo.userId) : undefined}
                now={props.now}
                report={props.report}
              />
            )}
          </For>
        </ul>
      </Show>
      <div class="footer-row">
        <span class="muted" data-testid="list-count">
          {count()} shown
        </span>
        <Show
          when={hasMore()}
          fallback={
            <span class="muted" data-testid="list-end">
              That's all
            </span>
          }
        >
          <button data-testid="load-more" onClick={loadMore} disabled={loadingMore()}>
            {loadingMore() ? 'Loading…' : 'Load more'}
          </button>
        </Show>
      </div>
    </>
  );
}
