import { createInfiniteQuery, createMutation, useController } from 'rx-rest/solid';
import { createEffect, createMemo, createSignal, For, Match, onCleanup, Show, Switch, type JSX } from 'solid-js';
import type { Temporal } from 'temporal-polyfill';
import { PAGING, TodoResource, listArgs, newTodo, type Todo, type User } from '../../api';
import { shortError } from '../../format';
import { RETRY_MS, recovery } from '../../recovery';
import type { Report } from './App';
import { TodoItem } from './TodoItem';

/** The user filter, the form that creates todos, and the list with its following pages. */
export function TodoList(props: { users: User[]; now: Temporal.Instant; report: Report }): JSX.Element {
  const controller = useController();
  const [filter, setFilter] = createSignal(''); // '' = all users, else a user id
  const userId = () => (filter() === '' ? undefined : Number(filter()));
  const args = createMemo(() => listArgs(userId()), undefined, {
    equals: (a, b) => a.userId === b.userId,
  });

  // the list and its following pages (`_page`), one normalized list; `hasNext` says whether to offer more
  // while another user's list loads, the rows on screen stay (dimmed, `placeholder`) instead of "Loading…"
  const todos = createInfiniteQuery(TodoResource.getList, args, { ...PAGING, keepPreviousData: true });
  // a failed load shows its error (not "Loading…") and is retried until the server answers again
  const [failure, setFailure] = createSignal<Error>();
  createEffect(() => {
    const subscription = recovery(controller, TodoResource.getList, args()).subscribe((error) =>
      setFailure(() => error),
    );
    onCleanup(() => subscription.unsubscribe());
  });
  // rows keyed by id, like Svelte's keyed each: an updated todo is a new object, and its row (with the
  // pending and error state of its mutations) must stay the same component
  const ids = createMemo(() => (todos().data ?? []).map((todo) => todo.id), [], {
    equals: (a, b) => a.length === b.length && a.every((id, i) => id === b[i]),
  });
  const byId = createMemo(() => new Map((todos().data ?? []).map((todo) => [todo.id, todo])));
  const row = (id: number) => {
    let last: Todo | undefined;
    return () => (last = byId().get(id) ?? last)!; // the last value while a removed row is disposed
  };
  const retry = () => controller.fetch(TodoResource.getList, args()).catch(() => {});
  const userName = (id: number) => props.users.find((user) => user.id === id)?.name ?? `User ${id}`;

  const [title, setTitle] = createSignal('');
  const [owner, setOwner] = createSignal('1');
  const create = createMutation(TodoResource.getList.push);
  async function add(event: SubmitEvent) {
    event.preventDefault();
    if (!title().trim()) return;
    try {
      await create.mutate({}, newTodo(userId() ?? Number(owner()), title()));
      setTitle('');
    } catch {
      // shown below the form (create.error()); the title stays, to try again
    }
  }

  return (
    <section class="card" aria-label="Todo list">
      <h2>
        <span>Todo list</span>
        <Show when={todos().fetching && !todos().loading && !todos().placeholder}>
          <span class="hint" data-testid="list-refreshing">
            Refreshing…
          </span>
        </Show>
      </h2>
      <div class="toolbar">
        <label for="user-filter">Show</label>
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
        <button class="primary" data-testid="add-todo" disabled={create.pending() || !title().trim()}>
          {create.pending() ? 'Adding…' : 'Add'}
        </button>
      </form>
      <Show when={create.error()}>
        {(error) => (
          <p class="add-error error" role="alert" data-testid="add-error" title={error().message}>
            Could not add the todo: {shortError(error())}{' '}
            <button class="link" onClick={() => create.reset()} aria-label="Dismiss">
              ✕
            </button>
          </p>
        )}
      </Show>

      <Switch>
        <Match when={!todos().data && failure()}>
          {(error) => (
            <p class="error" role="alert" data-testid="list-error" title={error().message}>
              Could not load todos ({shortError(error())}); trying again every {RETRY_MS / 1000} s.{' '}
              <button onClick={retry}>Retry now</button>
            </p>
          )}
        </Match>
        <Match when={todos().loading}>
          <p class="muted" data-testid="list-loading">
            Loading todos…
          </p>
        </Match>
        <Match when={todos().data}>
          {(data) => (
            <>
              <Show when={todos().error}>
                {(error) => (
                  <p class="error" data-testid="list-error" title={error().message}>
                    Could not refresh ({shortError(error())}); showing the last data.
                  </p>
                )}
              </Show>
              <Show when={data().length > 0} fallback={<p class="empty">Nothing to do.</p>}>
                <ul
                  class="todos"
                  classList={{ placeholder: todos().placeholder }}
                  aria-busy={todos().placeholder}
                  data-testid="todo-list"
                >
                  <For each={ids()}>
                    {(id) => {
                      const todo = row(id);
                      return (
                        <TodoItem
                          todo={todo()}
                          owner={args().userId === undefined ? userName(todo().userId) : undefined}
                          users={props.users}
                          now={props.now}
                          report={props.report}
                        />
                      );
                    }}
                  </For>
                </ul>
              </Show>
              <div class="footer-row">
                <span class="muted" data-testid="list-count">
                  {data().length} shown
                </span>
                <Switch
                  fallback={
                    <span class="muted" data-testid="list-end">
                      That's all
                    </span>
                  }
                >
                  <Match when={todos().placeholder}>
                    <span class="muted" data-testid="list-switching">
                      Loading…
                    </span>
                  </Match>
                  <Match when={todos().hasNext}>
                    <button data-testid="load-more" onClick={() => todos.loadNext()} disabled={todos().fetchingNext}>
                      {todos().fetchingNext ? 'Loading…' : 'Load more'}
                    </button>
                  </Match>
                </Switch>
              </div>
            </>
          )}
        </Match>
      </Switch>
    </section>
  );
}
