/**
 * The live stream, shared unchanged by the Svelte and the Solid app: the REST server's `GET /events`
 * (Server-Sent Events, one message per todo created, updated or deleted by anyone) applied to the
 * store through `controller.connect`. A change made in one app, or with `curl`, shows in every open app
 * at once, without a request: the message carries the todo.
 *
 * Reconnecting: `connect` does it, not the `EventSource`. An EventSource reconnects by itself after a
 * dropped connection but gives up for good after a refused one (the dev proxy's 502 while the REST
 * server is down), so on any error `serverEvents` closes it and errors, and `connect` subscribes again
 * (a new EventSource) after the controller's retry delays. One behaviour whatever the failure.
 */
import { tap, Observable, type Subscription } from 'rxjs';
import type { Controller } from 'rx-rest';
import { API_PREFIX, LiveTodos, Todo, TodoResource } from './api';

/** Where the apps read the stream (vite proxies `/api` to the REST server, as for the REST calls). */
export const EVENTS_URL = `${API_PREFIX}/events`;

/** What `serverEvents` emits: `open` each time a connection opens, then the data of each message. */
export type ServerEvent = { readonly type: 'open' } | { readonly type: 'message'; readonly data: string };

/**
 * An `EventSource` as an Observable: one EventSource per subscription, closed when the subscription
 * ends and on its first error (the Observable then errors; see the module header).
 *
 * @example
 * serverEvents('/api/events').subscribe((event) => event.type === 'message' && console.log(event.data));
 */
export function serverEvents(url: string): Observable<ServerEvent> {
  return new Observable<ServerEvent>((subscriber) => {
    const source = new EventSource(url);
    source.onopen = () => subscriber.next({ type: 'open' });
    source.onmessage = (event: MessageEvent<string>) => subscriber.next({ type: 'message', data: event.data });
    source.onerror = () => {
      source.close();
      subscriber.error(new Error(`The event stream ${url} failed or closed.`));
    };
    return () => source.close();
  });
}

/** A todo as the stream sends it (the server's JSON: `createdAt` is an ISO string). */
export interface TodoJSON {
  readonly id: number;
  readonly userId?: number;
  readonly title?: string;
  readonly completed?: boolean;
  readonly createdAt?: string;
}

/** One message of the stream: a todo created or updated (the whole todo), or the id of one deleted. */
export type TodoEvent =
  | { readonly type: 'created' | 'updated'; readonly todo: TodoJSON }
  | { readonly type: 'deleted'; readonly id: number | string };

/** A message of the stream that is not a `TodoEvent` (it is skipped; the stream goes on). */
export class LiveEventError extends Error {
  override name = 'LiveEventError';
  /** The message's data, as received. */
  readonly data: string;
  constructor(data: string, reason: string, options?: ErrorOptions) {
    super(`Ignored a live event (${reason}): ${data.length > 200 ? `${data.slice(0, 200)}…` : data}`, options);
    this.data = data;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number | string =>
  (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value !== '');

/**
 * Reads one message's data as a `TodoEvent`; throws a `LiveEventError` saying what is wrong with it
 * (not JSON, an unknown `type`, no todo or no id).
 *
 * @example
 * parseTodoEvent('{"type":"deleted","id":4}'); // { type: 'deleted', id: 4 }
 */
export function parseTodoEvent(data: string): TodoEvent {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    throw new LiveEventError(data, 'not JSON', { cause: error });
  }
  if (!isRecord(value)) throw new LiveEventError(data, 'not an object');
  switch (value.type) {
    case 'created':
    case 'updated':
      if (!isRecord(value.todo) || !isId(value.todo.id)) throw new LiveEventError(data, 'no todo with an id');
      return { type: value.type, todo: value.todo as unknown as TodoJSON };
    case 'deleted':
      if (!isId(value.id)) throw new LiveEventError(data, 'no id');
      return { type: 'deleted', id: value.id };
    default:
      throw new LiveEventError(data, `unknown type ${JSON.stringify(value.type)}`);
  }
}

/** The todo lists' collection: its `push` and `move` schemas place a todo in the lists it belongs to. */
const lists = TodoResource.getList.schema;

/**
 * Applies one change to the store, without a request:
 * - created: `controller.set(lists.push, {}, todo, todo)`, the write `getList.push` makes with the POST's
 *   answer, so the todo joins every cached list its `userId` matches (its user's list, "All users" and
 *   the live panel's; json-server's `_limit`/`_page` do not filter) and shows at once in each app. The
 *   other choice, invalidating the lists, would show it only once each list is fetched again (a request
 *   per list, and "Loading…" meanwhile). The app that created it holds it already: a list keeps one copy.
 * - updated: `controller.set(lists.move, {}, todo, todo)`, the write of `getList.move`: the todo is
 *   written (every row and count that shows it re-renders) and, when its `userId` changed, it leaves
 *   the lists of its old user and joins those of the new one, and the lists are marked stale as for a
 *   deletion (the old user's pages shift by one). A todo the store does not hold is only written
 *   (`controller.set(Todo, todo)`).
 * - deleted: `controller.set(TodoResource.delete.schema, { id })`, the write of `delete` (an
 *   `Invalidate`): every list drops the todo. The lists are also marked stale: a page is one page of
 *   the server's, and the todo that slides into it from the next page is only known by refetching
 *   it (in the background, the rows stay meanwhile).
 */
export function applyTodoEvent(event: TodoEvent, controller: Controller): void {
  switch (event.type) {
    case 'created':
      return controller.set(lists.push, {}, event.todo, event.todo);
    case 'updated': {
      // a todo the store does not hold is in none of its lists: written alone (the move would add it to
      // every list it matches, a page it is not on included)
      const stored = controller.get(Todo, { id: event.todo.id });
      if (stored === undefined) return controller.set(Todo, event.todo);
      controller.set(lists.move, {}, event.todo, event.todo);
      // leaving its user's lists shifts their pages as a deletion does (see below)
      if (event.todo.userId !== undefined && event.todo.userId !== stored.userId)
        controller.expireAll(TodoResource.getList);
      return;
    }
    case 'deleted':
      controller.set(TodoResource.delete.schema, { id: event.id });
      return controller.expireAll(TodoResource.getList);
  }
}

/**
 * What the stream carries starts when it opens: a change made while it was closed is caught up on a
 * reconnect by marking the todo lists stale, so the shown ones refetch in the background and keep
 * their rows meanwhile (lists loaded after the stream opened are not touched). Not on the first open:
 * the lists shown then were just fetched, or rendered on the server, and would be fetched again at once.
 */
function catchUp(controller: Controller): void {
  controller.expireAll(TodoResource.getList);
  controller.expireAll(LiveTodos);
}

/** Where the stream stands: opening for the first time, open, or waiting to reconnect. */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting';

/** What the live panels say about the stream. */
export const STREAM_LABELS: Readonly<Record<StreamStatus, string>> = {
  connecting: 'connecting…',
  live: 'streaming',
  reconnecting: 'reconnecting…',
};

/** Options of `connectTodoEvents`. */
export interface LiveOptions {
  /** Hears where the stream stands. */
  readonly onStatus?: (status: StreamStatus) => void;
  /** The stream. Default: `serverEvents(EVENTS_URL)`. */
  readonly events$?: Observable<ServerEvent>;
}

/**
 * Connects `controller` to the live stream until the returned subscription ends (or the controller is
 * disposed): each message goes through `parseTodoEvent` and `applyTodoEvent`; a bad message is skipped
 * (a `pushError` action on `controller.actions$`, nothing shown) and the stream goes on. Each time the
 * stream opens again, the todo lists catch up on what it may have missed (they refetch in the background).
 *
 * @example
 * const live = connectTodoEvents(controller, { onStatus: (status) => (streamStatus = status) });
 * onDestroy(() => live.unsubscribe());
 */
export function connectTodoEvents(controller: Controller, options: LiveOptions = {}): Subscription {
  const { onStatus = () => {}, events$ = serverEvents(EVENTS_URL) } = options;
  onStatus('connecting');
  let opened = false;
  return controller.connect(events$.pipe(tap({ error: () => onStatus('reconnecting') })), (event, c) => {
    if (event.type === 'open') {
      onStatus('live');
      if (opened) catchUp(c); // a reconnect: catch up on what the stream missed
      opened = true;
    } else applyTodoEvent(parseTodoEvent(event.data), c);
  });
}
