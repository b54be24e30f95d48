/**
 * `/todos/:id`: one todo, rendered on the server; rename it (createMutation) and step to the previous
 * or next todo. Going from `/todos/1` to `/todos/2` keeps this page mounted and fetches todo 2 once
 * (the route's preload and the page's query share one request).
 */
import { A, useParams, type RouteDefinition } from '@solidjs/router';
import { createMutation, createQuery, preloadQuery } from 'rx-rest/solid';
import { createSignal, Show, type JSX } from 'solid-js';
import { TodoResource, renamed } from '../../../../api';
import { shortError } from '../../../../format';
import { appController } from '../../controller';

export const route = {
  preload: ({ params }) => preloadQuery(appController(), TodoResource.get, { id: Number(params.id) }),
} satisfies RouteDefinition;

export default function TodoPage(): JSX.Element {
  const params = useParams();
  const id = () => Number(params.id);
  const todo = createQuery(TodoResource.get, () => ({ id: id() }));
  const rename = createMutation(TodoResource.update);
  const [draft, setDraft] = createSignal('');

  function save(event: SubmitEvent) {
    event.preventDefault();
    const current = todo();
    if (!current || !draft().trim()) return;
    void rename.mutate({ id: current.id }, renamed(current, draft())).then(
      () => setDraft(''),
      () => {}, // shown below the form
    );
  }

  return (
    <section class="card" aria-label="Todo">
      <Show when={todo()}>
        {(shown) => (
          <>
            <h2 data-testid="todo-heading">
              <span data-testid="todo-title">{shown().title}</span>
            </h2>
            <p class="muted" data-testid="todo-details">
              #{shown().id} · user {shown().userId} · {shown().completed ? 'done' : 'open'}
            </p>
            <form class="rename-form" onSubmit={save}>
              <input
                type="text"
                aria-label="New title"
                data-testid="rename-input"
                value={draft()}
                onInput={(e) => setDraft(e.currentTarget.value)}
              />
              <button class="primary" data-testid="rename-save" disabled={rename.pending() || !draft().trim()}>
                {rename.pending() ? 'Saving…' : 'Rename'}
              </button>
            </form>
            <Show when={rename.error()}>
              {(error) => (
                <p class="error" role="alert" data-testid="rename-error">
                  Could not rename: {shortError(error())}
                </p>
              )}
            </Show>
          </>
        )}
      </Show>
      <nav class="toolbar">
        <Show when={id() > 1}>
          <A href={`/todos/${id() - 1}`} data-testid="previous">
            Previous
          </A>
        </Show>
        <A href={`/todos/${id() + 1}`} data-testid="next">
          Next
        </A>
        <A href="/" data-testid="back">
          All todos
        </A>
      </nav>
    </section>
  );
}
