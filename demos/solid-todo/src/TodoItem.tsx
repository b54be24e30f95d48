import { createMutation } from 'rx-rest/solid';
import { createSignal, For, Show, type JSX } from 'solid-js';
import type { Temporal } from 'temporal-polyfill';
import { TodoResource, movedTo, renamed, type Todo, type User } from '../../api';
import { fullTime, shortError, timeAgo } from '../../format';
import type { Report } from './App';

/** One todo: toggle, rename, move to another user and delete, each showing its own pending state. */
export function TodoItem(props: {
  todo: Todo;
  owner: string | undefined;
  users: User[];
  now: Temporal.Instant;
  report: Report;
}): JSX.Element {
  // every mutation is optimistic: the row changes at once, and changes back if the server refuses
  const toggle = createMutation(TodoResource.partialUpdate);
  const rename = createMutation(TodoResource.update);
  const remove = createMutation(TodoResource.delete);
  const move = createMutation(TodoResource.getList.move);
  // the row shows the failure of its latest toggle or rename; a failed delete or move is reported by the
  // app instead, because the row leaves its list at once and a row put back by the rollback is a new one
  const failure = () => {
    const toggleError = toggle.error();
    if (toggleError) return { what: 'update', error: toggleError };
    const renameError = rename.error();
    return renameError ? { what: 'rename', error: renameError } : undefined;
  };
  const dismiss = () => (toggle.reset(), rename.reset());

  function flip() {
    rename.reset();
    void toggle.mutate({ id: props.todo.id }, { completed: !props.todo.completed });
  }
  function drop() {
    const { title } = props.todo;
    const { report } = props; // read in the handler: the catch runs later
    remove.mutate({ id: props.todo.id }).catch((error) => report(`Could not delete "${title}"`, error));
  }
  function moveTo(event: Event & { currentTarget: HTMLSelectElement }) {
    const { id, title, userId } = props.todo;
    const { report } = props; // read in the handler: the catch runs later
    const to = Number(event.currentTarget.value);
    if (to === userId) return;
    move.mutate({ id }, movedTo(to)).catch((error) => report(`Could not move "${title}"`, error));
  }

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
    toggle.reset();
    void rename.mutate({ id: todo.id }, renamed(todo, draft()));
  }

  return (
    <li class="todo" classList={{ done: props.todo.completed }} data-testid="todo-item" data-id={props.todo.id}>
      <input
        type="checkbox"
        checked={props.todo.completed}
        disabled={toggle.pending()}
        onChange={flip}
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
            <Show when={props.users.length > 1}>
              <select
                class="move"
                aria-label={`Move ${props.todo.title} to`}
                title="Move to another user"
                data-testid="todo-move"
                value={`${props.todo.userId}`}
                disabled={move.pending()}
                onChange={moveTo}
              >
                <For each={props.users}>{(user) => <option value={`${user.id}`}>@{user.username}</option>}</For>
              </select>
            </Show>
            <button class="link" onClick={edit} disabled={rename.pending()} data-testid="todo-rename">
              {rename.pending() ? 'Saving…' : 'Rename'}
            </button>
            <button
              class="link delete"
              onClick={drop}
              disabled={remove.pending()}
              aria-label={`Delete ${props.todo.title}`}
              data-testid="todo-delete"
            >
              {remove.pending() ? 'Deleting…' : 'Delete'}
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
      <Show when={failure()}>
        {(shown) => (
          <span class="row-error error" role="alert" data-testid="todo-error" title={shown().error.message}>
            Could not {shown().what}: {shortError(shown().error)}{' '}
            <button class="link" onClick={dismiss} aria-label="Dismiss">
              ✕
            </button>
          </span>
        )}
      </Show>
    </li>
  );
}
