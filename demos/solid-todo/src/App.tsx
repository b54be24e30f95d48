import { Controller } from 'rx-rest';
import { ControllerProvider, createQueryState, useController } from 'rx-rest/solid';
import { createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { Temporal } from 'temporal-polyfill';
import { CONTROLLER_OPTIONS, LiveTodos, UserResource } from '../../api';
import { shortError } from '../../format';
import { connectTodoEvents, type StreamStatus } from '../../live';
import { RETRY_MS, recovery } from '../../recovery';
import { devtoolsPanel } from '../../devtoolsPanel';
import { shareAcrossTabs } from '../../sync';
import { LivePanel } from './LivePanel';
import { TodoList } from './TodoList';

/** Shows a failed action (its optimistic change is already rolled back). */
export type Report = (what: string, error: unknown) => void;

/** The Solid demo: one controller for the app, the todo list and the live panel. */
export function App(): JSX.Element {
  return (
    <ControllerProvider
      controller={new Controller({ ...CONTROLLER_OPTIONS, managers: [shareAcrossTabs, devtoolsPanel] })}
    >
      <Page />
    </ControllerProvider>
  );
}

function Page(): JSX.Element {
  // createQueryState: the whole QueryState (loading, background errors), without suspending
  const users = createQueryState(UserResource.getList, undefined);
  const live = createQueryState(LiveTodos, {});
  // a failed load shows its error (not "Loading…") and is retried until the server answers again
  const controller = useController();
  const [usersFailure, setUsersFailure] = createSignal<Error>();
  const [liveFailure, setLiveFailure] = createSignal<Error>();
  const watching = [
    recovery(controller, UserResource.getList).subscribe((failure) => setUsersFailure(() => failure)),
    recovery(controller, LiveTodos, {}).subscribe((failure) => setLiveFailure(() => failure)),
  ];
  onCleanup(() => watching.forEach((subscription) => subscription.unsubscribe()));
  // every todo change on the server, whoever made it, written into the store as it happens (live.ts)
  const [stream, setStream] = createSignal<StreamStatus>('connecting');
  const streaming = connectTodoEvents(controller, { onStatus: setStream });
  onCleanup(() => streaming.unsubscribe());
  const [now, setNow] = createSignal(Temporal.Now.instant());
  const timer = setInterval(() => setNow(Temporal.Now.instant()), 15_000);
  onCleanup(() => clearInterval(timer));

  const [notices, setNotices] = createSignal<{ id: number; text: string; detail: string }[]>([]);
  let noticeIds = 0;
  const report: Report = (what, error) => {
    const detail = error instanceof Error ? error.message : String(error);
    setNotices((list) => [...list, { id: ++noticeIds, text: `${what}: ${shortError(error)}`, detail }]);
  };
  const dismiss = (id: number) => setNotices((list) => list.filter((notice) => notice.id !== id));
  const connection = () => (liveFailure() || live().error ? 'offline' : live().loading ? 'connecting' : 'live');

  return (
    <div class="app">
      <header class="app-header">
        <h1>
          Todos <small>rx-rest · Solid</small>
        </h1>
        <span class={`badge ${connection()}`} data-testid="connection">
          {connection() === 'live' ? 'Live' : connection() === 'offline' ? 'Server unreachable' : 'Connecting…'}
        </span>
      </header>

      <For each={notices()}>
        {(notice) => (
          <div class="notice" role="alert" data-testid="notice">
            <span title={notice.detail}>{notice.text}</span>
            <button class="link" onClick={() => dismiss(notice.id)} aria-label="Dismiss">
              ✕
            </button>
          </div>
        )}
      </For>

      <Show when={!users().data && usersFailure()}>
        {(failure) => (
          <p class="error" role="status" data-testid="users-error" title={failure().message}>
            Could not load the users ({shortError(failure())}); trying again every {RETRY_MS / 1000} s.
          </p>
        )}
      </Show>

      <div class="layout">
        <TodoList users={users().data ?? []} now={now()} report={report} />
        <LivePanel state={live()} failure={liveFailure()} stream={stream()} users={users().data ?? []} now={now()} />
      </div>
    </div>
  );
}
