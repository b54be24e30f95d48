import type { QueryState } from 'rx-rest';
import { For, Match, Show, Switch, type JSX } from 'solid-js';
import type { Temporal } from 'temporal-polyfill';
import { POLL_MS, type Todo, type User } from '../../api';
import { shortError, timeAgo } from '../../format';
import { STREAM_LABELS, type StreamStatus } from '../../live';
import { RETRY_MS } from '../../recovery';

/** Every todo, polled and streamed in: per-user counts and the newest todos; a failed poll shows, the data stays. */
export function LivePanel(props: {
  state: QueryState<Todo[]>;
  /** The failure being retried (see recovery.ts): shown instead of "Loading…" until the server answers. */
  failure: Error | undefined;
  /** Where the live stream stands (live.ts). */
  stream: StreamStatus;
  users: User[];
  now: Temporal.Instant;
}): JSX.Element {
  const todos = () => props.state.data ?? [];
  const latest = () =>
    [...todos()].sort((a, b) => b.createdAt.epochMilliseconds - a.createdAt.epochMilliseconds).slice(0, 6);
  const countFor = (userId: number) => {
    const mine = todos().filter((todo) => todo.userId === userId);
    return `${mine.filter((todo) => todo.completed).length} of ${mine.length} done`;
  };

  return (
    <aside class="card" aria-label="Live panel" data-testid="live-panel">
      <h2>
        <span>Live</span>
        <span class={`hint stream ${props.stream}`} data-testid="stream-status" data-status={props.stream}>
          {STREAM_LABELS[props.stream]} · polls every {POLL_MS / 1000} s
        </span>
      </h2>
      <Switch>
        <Match when={!props.state.data && props.failure}>
          {(failure) => (
            <p class="error" role="status" data-testid="live-error" title={failure().message}>
              Could not load the todos ({shortError(failure())}); trying again every {RETRY_MS / 1000} s.
            </p>
          )}
        </Match>
        <Match when={props.state.loading}>
          <p class="muted" data-testid="live-loading">
            Loading…
          </p>
        </Match>
        <Match when={props.state.error}>
          {(error) => (
            <p class="error" role="status" data-testid="live-error" title={error().message}>
              Could not refresh ({shortError(error())}); showing the last data.
            </p>
          )}
        </Match>
      </Switch>
      <Show when={props.state.data}>
        <dl class="stats">
          <For each={props.users}>
            {(user) => (
              <>
                <dt>{user.name}</dt>
                <dd data-testid="live-count">{countFor(user.id)}</dd>
              </>
            )}
          </For>
        </dl>
        <div class="muted">Newest</div>
        <ul class="live-list" data-testid="live-list">
          <For each={latest()}>
            {(todo) => (
              <li classList={{ done: todo.completed }} data-testid="live-item" data-id={todo.id}>
                <span>{todo.title}</span>
                <span class="muted">{timeAgo(todo.createdAt, props.now)}</span>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </aside>
  );
}
