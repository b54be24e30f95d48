import { useController } from 'rx-rest/solid';
import { createSignal, Show, type JSX } from 'solid-js';
import type { Temporal } from 'temporal-polyfill';
import { TodoResource, renamed, type Todo } from '../../api';
import { fullTime, timeAgo } from '../../format';
import type { Report } from './App';

/** One todo: toggle, rename and delete. */
export function TodoItem(props: {
  todo: Todo;
  owner: string | undefined;
  now: Temporal.Instant;
  report: Report;
}): JSX.Element {
  const controller = useController();
  // optimistic: the checkbox flips at once, and flips back if the server refuses
  const toggle = () =>
    controller
      .fetch(TodoResource.partialUpdate, { id: props.todo.id }, { completed: !props.todo.completed })
      .catch((error) => props.report(`Could not update "${props.todo.title}"`, error));
  const remove = () =>
    controller
      .fetch(TodoResource.delete, { id: props.todo.id })
      .catch((error) => props.report(`Could not delete "${props.todo.title}"`, error));

  const [editing, setEditing] = createSignal(false);
  const [draft, setDraft] = createSignal('');
  function edit() {
    setDraft(props.todo.title);
    setEditing(true);
  }
  function save(event: SubmitEvent) {
    event.preventDefault();
    setEditing(false);
    const todo = props.todo;
    if (!draft().trim() || draft().trim() === todo.title) return;
    controller
      .fetch(TodoResource.update, { id: todo.id }, renamed(todo, draft()))
      .catch((error) => props.report(`Could not rename "${todo.title}"`, error));
  }

  return (
    <li class="todo" classList={{ done: props.todo.completed }} data-testid="todo-item" data-id={props.todo.id}>
      <input
        type="checkbox"
        checked={props.todo.completed}
        onChange={toggle}
        aria-label={`Done: ${props.todo.title}`}
        data-testid="todo-toggle"
      />
      <Show
        when={editing()}
        fallback={
          <>
            <span class="title" data-testid="todo-title">
              {props.todo.title}
            </span>
            <span class="meta" title={fullTime(props.todo.createdAt)} data-testid="todo-time">
              {props.owner ? `${props.owner} · ` : ''}
              {timeAgo(props.todo.createdAt, props.now)}
            </span>
            <button class="link" onClick={edit} data-testid="todo-rename">
              Rename
            </button>
            <button
              class="link delete"
              onClick={remove}
              aria-label={`Delete ${props.todo.title}`}
              data-testid="todo-delete"
            >
              Delete
            </button>
          </>
        }
      >
        <form class="rename-form" onSubmit={save}>
          <input
            type="text"
            aria-label="Title"
            data-testid="rename-input"
            value={draft()}
            onInput={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
            ref={(node) => queueMicrotask(() => node.focus())}
          />
          <button class="primary" data-testid="rename-save">
            Save
          </button>
        </form>
      </Show>
    </li>
  );
}
