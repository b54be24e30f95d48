/**
 * `/?userId=`: the todos of one user (all users without it), rendered on the server; a form that adds
 * a todo (createMutation) and a checkbox per todo. The list follows the live stream and every mutation.
 */
import { A, useSearchParams, type RouteDefinition } from '@solidjs/router';
import { createMutation, createQuery, preloadQuery } from 'rx-rest/solid';
import { createSignal, For, Show, type JSX } from 'solid-js';
import { TodoResource, listArgs, newTodo } from '../../../api';
import { shortError } from '../../../format';
import { appController } from '../controller';

/** The user the page is filtered to (`?userId=`), or undefined for all users. */
function userIdOf(value: string | string[] | undefined): number | undefined {
  const id = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

export const route = {
  // started before the page renders (server) or on a link's hover and navigation (browser): the
  // page's createQuery then joins that request instead of starting one
  preload: ({ location }) => {
    const userId = userIdOf(new URLSearchParams(location.search).get('userId') ?? undefined);
    preloadQuery(appController(), TodoResource.getList, listArgs(userId));
  },
} satisfies RouteDefinition;

export default function TodosPage(): JSX.Element {
  const [search] = useSearchParams();
  const userId = () => userIdOf(search.userId);
  const todos = createQuery(TodoResource.getList, () => listArgs(userId()));
  const create = createMutation(TodoResource.getList.push);
  const toggle = createMutation(TodoResource.partialUpdate);
  const [title, setTitle] = createSignal('');

  async function add(event: SubmitEvent) {
    event.preventDefault();
    if (!title().trim()) return;
    try {
      await create.mutate({}, newTodo(userId() ?? 1, title()));
      setTitle('');
    } catch {
      // shown below the form (create.error()); the title stays, to try again
    }
  }

  return (
    <section class="card" aria-label="Todo list">
      <h2>
        <span>{userId() === undefined ? 'Everyone’s todos' : `Todos of user ${userId()}`}</span>
      </h2>
      <form class="add-form" onSubmit={add}>
        <input
          type="text"
          placeholder="What needs doing?"
          aria-label="New todo"
          data-testid="new-title"
          value={title()}
          onInput={(e) => setTitle(e.currentTarget.value)}
        />
        <button class="primary" data-testid="add-todo" disabled={create.pending() || !title().trim()}>
          {create.pending() ? 'Adding…' : 'Add'}
        </button>
      </form>
      <Show when={create.error()}>
        {(error) => (
          <p class="error" role="alert" data-testid="add-error">
            Could not add the todo: {shortError(error())}
          </p>
        )}
      </Show>
      <ul class="todos" data-testid="todo-list">
        <For each={todos()} fallback={<li class="empty">Nothing to do.</li>}>
          {(todo) => (
            <li class="todo" classList={{ done: todo.completed }} data-testid="todo-item" data-id={todo.id}>
              <input
                type="checkbox"
                checked={todo.completed}
                aria-label={`Done: ${todo.title}`}
                data-testid="todo-toggle"
                onChange={() => void toggle.mutate({ id: todo.id }, { completed: !todo.completed }).catch(() => {})}
              />
              <A class="title" href={`/todos/${todo.id}`} data-testid="todo-title">
                {todo.title}
              </A>
              <span class="meta" data-testid="todo-owner">
                user {todo.userId}
              </span>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}
