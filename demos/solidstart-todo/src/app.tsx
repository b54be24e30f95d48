/**
 * The SolidStart demo's root: the request's (server) or the tab's (browser) controller for every
 * route, the header with the user filter and the live stream's status, and a `<Suspense>` that the
 * routes' queries resolve in (on the server too: the HTML holds their data).
 */
import { A, Router, useSearchParams } from '@solidjs/router';
import { FileRoutes } from '@solidjs/start/router';
import { ControllerProvider, createQueryState, useController } from 'rx-rest/solid';
import { createSignal, ErrorBoundary, For, onCleanup, onMount, Show, Suspense, type JSX } from 'solid-js';
import { UserResource } from '../../api';
import { shortError } from '../../format';
import { devtoolsPanel } from '../../devtoolsPanel';
import { connectTodoEvents, STREAM_LABELS, type StreamStatus } from '../../live';
import { appController } from './controller';
import '../../styles.css';

export default function App(): JSX.Element {
  return (
    <ControllerProvider controller={appController()}>
      <Router root={Layout}>
        <FileRoutes />
      </Router>
    </ControllerProvider>
  );
}

function Layout(props: { children?: JSX.Element }): JSX.Element {
  return (
    <div class="app">
      <header class="app-header">
        <h1>
          Todos <small>rx-rest · SolidStart</small>
        </h1>
        <LiveStatus />
      </header>
      {/* each ErrorBoundary inside its Suspense: a server render that failed streams the fallback in its place */}
      <Suspense fallback={<p class="muted">Loading users…</p>}>
        <ErrorBoundary fallback={(error) => <Failure error={error} what="the users" />}>
          <UserFilter />
        </ErrorBoundary>
      </Suspense>
      <Suspense
        fallback={
          <p class="muted" data-testid="page-loading">
            Loading…
          </p>
        }
      >
        <ErrorBoundary fallback={(error) => <Failure error={error} what="the page" />}>{props.children}</ErrorBoundary>
      </Suspense>
    </div>
  );
}

/** What failed, as the page shows it (a server render whose API is down shows it at once). */
export function Failure(props: { error: unknown; what: string }): JSX.Element {
  return (
    <p class="error" role="alert" data-testid="load-error">
      Could not load {props.what}: {shortError(props.error)}
    </p>
  );
}

/**
 * Links to each user's todos (`/?userId=`), the current one marked. A non-suspending state
 * (createQueryState): inside the `<Suspense>` it still resolves on the server and hydrates from it.
 */
function UserFilter(): JSX.Element {
  const users = createQueryState(UserResource.getList, undefined);
  const [search] = useSearchParams();
  return (
    <nav class="toolbar" aria-label="Users" data-testid="user-filter">
      <A href="/" end classList={{ current: !search.userId }}>
        All users
      </A>
      <For each={users().data}>
        {(user) => (
          <A href={`/?userId=${user.id}`} classList={{ current: search.userId === `${user.id}` }}>
            {user.name}
          </A>
        )}
      </For>
      <Show when={!users().data && users().error}>{(error) => <Failure error={error()} what="the users" />}</Show>
    </nav>
  );
}

/** The live stream (live.ts): every change on the REST server written into the store, in the browser only. */
function LiveStatus(): JSX.Element {
  const controller = useController();
  const [status, setStatus] = createSignal<StreamStatus>('connecting');
  onMount(() => {
    const live = connectTodoEvents(controller, { onStatus: setStatus });
    // the in-page devtools in development (or ?rx-rest-devtools), a chunk of its own: after hydration
    const panel = devtoolsPanel(controller);
    onCleanup(() => {
      live.unsubscribe();
      panel();
    });
  });
  return (
    <span
      class={`badge ${status() === 'live' ? 'live' : 'connecting'}`}
      data-testid="stream-status"
      data-status={status()}
    >
      {STREAM_LABELS[status()]}
    </span>
  );
}
