/**
 * A controller's state as plain data and back: `takeSnapshot` and `restoreSnapshot`, for what lives outside
 * one controller (storage, other tabs, devtools). Functions beside the `Controller`, not its methods, so that
 * only apps that import them bundle them and the merge they bring.
 */
import { describeKind } from '../errors.js';
import {
  checkLater,
  mergeAction,
  mergeState,
  snapshotOf,
  type SnapshotOptions,
  type StateSnapshot,
} from '../store/index.js';
import { Controller, controllerInternals } from './Controller.js';
import { disposedError } from './disposal.js';
import { registerHold } from './holds.js';

/** What `takeSnapshot` covers: the store's `SnapshotOptions`, or only some request keys. */
export interface TakeSnapshotOptions extends SnapshotOptions {
  /**
   * Only these request keys (`endpoint.key(...args)`): their results and meta, and the records their
   * results reach (nested ones included), e.g. to send what a server render fetched to the browser.
   */
  readonly keys?: readonly string[] | undefined;
}

/** How `restoreSnapshot` brings a snapshot in. */
export interface RestoreOptions {
  /**
   * Take the snapshot as the whole state (time travel) instead of merging it. Default false. A
   * `lastReset` in the snapshot later than the controller's is a reset made elsewhere (another tab's):
   * the controller takes it, keeps only what was written after it, and its requests in flight settle
   * without writing (`actions$` reports a `reset`).
   */
  readonly replace?: boolean | undefined;
}

/** The controller's internals, after checking that `controller` is one (a swapped argument is a common slip). */
function internalsOf(controller: Controller, call: string) {
  if (!(controller instanceof Controller)) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${call} expects a Controller as its first argument, got ${describeKind(controller)}`
        : call,
    );
  }
  return controllerInternals(controller);
}

/**
 * The controller's state as plain data (JSON and `postMessage` safe, except a bigint a record holds: JSON then
 * throws, in development a `SnapshotError` naming it; no optimistic layers): all of it, or
 * with `changes` (an action's) only the records and request keys a change touched. Records marked INVALID
 * are listed in `invalid` when `{ invalid: true }`. `restoreSnapshot` takes it back, into this controller
 * or another. A disposed controller's state can still be taken.
 *
 * @example
 * localStorage.setItem('todos', JSON.stringify(takeSnapshot(controller)));
 * const page = takeSnapshot(controller, { keys: [TodoResource.get.key({ id: 1 })] }); // one request's data
 * controller.actions$.subscribe((action) =>
 *   channel.postMessage(takeSnapshot(controller, { changes: action.changes, invalid: true })),
 * );
 */
export function takeSnapshot(controller: Controller, options?: TakeSnapshotOptions): StateSnapshot {
  const { store, cache } = internalsOf(controller, 'takeSnapshot');
  const keys = options?.keys;
  if (keys === undefined) return snapshotOf(store.current, options);
  let entities: [string, string][] | 'all' = [];
  for (const key of keys) {
    const paths = cache.pathsOf(key);
    if (paths === undefined) {
      entities = 'all'; // a key of an endpoint this controller never ran (a restored state): all records
      break;
    }
    for (const path of paths) {
      const at = path.indexOf('\u0000');
      entities.push([path.slice(0, at), path.slice(at + 1)]);
    }
  }
  return snapshotOf(store.current, { invalid: options?.invalid, changes: { entities, endpoints: keys } });
}

/**
 * Merges a snapshot (`takeSnapshot`'s, or a `getState()` turned into JSON) into the controller's store:
 * each record and result replaces the stored one only when its request started later, and nothing that
 * started before the last reset is written, so a restore never loses newer data. Malformed parts are
 * dropped. `{ replace: true }` takes the snapshot as the whole state instead (time travel; optimistic
 * layers in flight stay). Observers of what changed re-emit; `actions$` reports a `restore`. Throws a
 * `TypeError` for a value that is no snapshot, and a `SnapshotError` (a `TypeError` too) naming the field
 * for a time that is not a finite number or values nested more than 4,096 levels deep: a restore is all
 * or nothing, the store is unchanged: so does a record that the `static validator` or `static validate` of its
 * entity class refuses, as a response's would be. A record of a class this page has not used yet is checked when
 * the class is first used: refused, it reads as missing, is dropped with a warning, and `actions$` reports a `gc`
 * (see docs/validation.md).
 * Times from another clock are kept (a result dated after this
 * controller's now counts as dated now, for its freshness); this controller's later requests and writes
 * are ordered after the newest of them.
 *
 * @example
 * const saved = localStorage.getItem('todos');
 * if (saved) restoreSnapshot(controller, JSON.parse(saved));
 */
export function restoreSnapshot(
  controller: Controller,
  snapshot: StateSnapshot | unknown,
  options: RestoreOptions = {},
): void {
  const { cache, store, disposed } = internalsOf(controller, 'restoreSnapshot');
  if (disposed) throw disposedError('restoreSnapshot');
  const action = mergeAction(snapshot, options.replace === true, cache.now());
  const lastReset = store.current.lastReset;
  const { changes } = store.dispatch(action, mergeState);
  // a replacing snapshot that carried a later reset (another tab's): as after `resetEntireStore`, requests
  // in flight settle without writing, and `actions$` reports a reset
  const reset = store.current.lastReset > lastReset;
  const stamps = cache.requests.stamps;
  if (reset) {
    cache.requests.reset();
    stamps.past(store.current.lastReset); // later writes are stamped after the reset too
  }
  stamps.saw(action.state); // later writes are stamped after everything it holds
  if (changes.endpoints !== 'all') for (const key of changes.endpoints) cache.onWritten(key);
  const log = cache.requests.log;
  if (log.observed && (changes.entities.length > 0 || changes.endpoints.length > 0))
    log.emit({ type: reset ? 'reset' : 'restore', changes });
  // records of classes this page has not used yet: checked at their class's first use, refused ones dropped
  if (!action.replace)
    checkLater(store, action.state, (entities) => {
      if (controllerInternals(controller).disposed) return;
      const dropped = store.dispatch({ type: 'gc', keys: [], entities }).changes;
      if (log.observed) log.emit({ type: 'gc', keys: [], changes: dropped });
    });
}

// the add-ons that hold tombstones (holds.ts) bundle this module for their snapshots: it gives the hold
registerHold((controller, ms) => {
  const { cache } = controllerInternals(controller as Controller);
  const holds = cache.requests.pins.holds;
  const token = {};
  const now = cache.now();
  holds.set(token, [now, now + ms]);
  return () => holds.delete(token);
});
