/**
 * rx-rest/persist: the controller's state kept in a storage (localStorage, an IndexedDB wrapper) across
 * page loads. It restores a save on start and saves `takeSnapshot(controller)` after changes, throttled.
 * A save that does not fit (another version, too old, corrupt, foreign) or a storage that fails is
 * reported with `console.warn` and never reaches the app or the store.
 *
 * @example
 * import { persist } from 'rx-rest/persist';
 * const controller = new Controller({ managers: [(c) => persist(c, { storage: localStorage, version: 3 })] });
 */
import {
  Controller,
  SnapshotError,
  afterHydration,
  inspectController,
  isHydrating,
  restoreSnapshot,
  takeSnapshot,
  type ControllerAction,
  type StateSnapshot,
} from '../../core/index.js';
import { holdTombstones } from '../../core/internal.js';

/**
 * Where saves go: anything with `getItem`/`setItem`/`removeItem`, synchronous (`localStorage`,
 * `sessionStorage`) or answering with promises (an IndexedDB wrapper). Values are strings.
 *
 * @example
 * import { get, set, del } from 'idb-keyval';
 * const idbStorage: PersistStorage = { getItem: get, setItem: set, removeItem: del };
 */
export interface PersistStorage {
  /** The value under `key`; `null` or `undefined` when there is none. */
  getItem(key: string): string | null | undefined | PromiseLike<string | null | undefined>;
  /**
   * Stores `value` under `key`; a returned promise is awaited before the next write (of any `persist` on this key),
   * 5 s at most (then, warned, the next goes on), except by the save made as the page is hidden, which an
   * unloading page could not wait for.
   */
  setItem(key: string, value: string): unknown;
  /** Removes `key`; a returned promise is awaited before the next write. */
  removeItem(key: string): unknown;
}

/**
 * Options of `persist(controller, options)`.
 *
 * @example
 * const options: PersistOptions = { storage: localStorage, key: 'todo-app', version: 2, maxAge: 7 * 24 * 3600_000 };
 */
export interface PersistOptions {
  /**
   * Where the state is kept. Default: `localStorage` in a browser. Without it, where there is no
   * `document` (a server render), `persist` does nothing. Given where there is no `document` and no worker
   * (Node: a script, a test, or a server), it is read and written, with a warning in development: on a server
   * one storage would be shared by every user's requests, so start `persist` in the browser only.
   */
  readonly storage?: PersistStorage | undefined;
  /** The storage key. Default `'rx-rest'`. */
  readonly key?: string | undefined;
  /** The app's data version: a save of another version is ignored and removed. Change it when entities change shape. */
  readonly version?: string | number | undefined;
  /** The age (ms) past which a save is ignored and removed. Default: no limit. */
  readonly maxAge?: number | undefined;
  /**
   * At most one save per this many ms; the last change of a window is always saved. Default 1000. `Infinity`
   * (or more than a timer can wait, 2^31 ms): changes are saved only by `flush()`, the page hidden and the teardown.
   */
  readonly throttle?: number | undefined;
}

/**
 * What is stored under the key (as JSON).
 *
 * @example
 * const save = JSON.parse(localStorage.getItem('rx-rest') ?? 'null') as PersistedState | null;
 * console.log(save && new Date(save.savedAt));
 */
export interface PersistedState {
  /** Marks an rx-rest save: any other value under the key is foreign. */
  readonly format: 'rx-rest';
  /** `options.version` of the app that saved it. */
  readonly version?: string | number | undefined;
  /** When it was saved (ms since the epoch, on the controller's clock: `Date.now()` unless given as `now`). */
  readonly savedAt: number;
  /** `takeSnapshot(controller)`: no records marked INVALID, no optimistic layers. */
  readonly state: StateSnapshot;
}

/**
 * What `persist` returns: the teardown (stops saving after saving a pending change; safe to call
 * twice), with `restored` and `flush`.
 *
 * @example
 * const stop = persist(controller, { storage: idbStorage });
 * await stop.restored; // the saved data is in the store (or there was none)
 * await stop.flush(); // the last change is in the storage
 * stop();
 */
export interface Persistence {
  (): void;
  /**
   * Settles when the save was read: `true` when something of it was restored into the controller, `false`
   * when there was none, it was ignored, nothing of it was newer than the store's data (or than a reset),
   * or the teardown came first. Never rejects.
   */
  readonly restored: Promise<boolean>;
  /**
   * Saves a pending change now (after the restore), or the state a failed save or removal left out of the
   * storage; resolves when the storage has it (or failed again, warned once), or after 5 s of a storage that does
   * not answer (warned). Never rejects.
   */
  flush(): Promise<void>;
}

const FORMAT = 'rx-rest';

const warn = (message: string) => console.warn(`rx-rest/persist: ${message}`);

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * The path (`entities.Todo.1.amount`) and type of the first value in `value` that JSON cannot write (a
 * `bigint` without a `toJSON`) or, `strict`, leaves out (a function, a symbol), for the warnings of
 * development (left out of production builds).
 */
const unwritable = (value: unknown, strict?: boolean): string | undefined => {
  const stack: [unknown, string][] = [[value, '']];
  const seen = new Set<unknown>();
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [item, path] = top;
    const type = typeof item;
    if (type == 'bigint' ? !(item as { toJSON?: unknown }).toJSON : strict && (type == 'function' || type == 'symbol'))
      return `${path.slice(1)} is a ${type}`;
    // the snapshot's own toJSON (a check for bigints) writes it as it is: looked into
    if (type == 'object' && item && !seen.has(item) && (item == value || !(item as { toJSON?: unknown }).toJSON)) {
      seen.add(item);
      for (const k of Object.keys(item).reverse()) stack.push([(item as Record<string, unknown>)[k], `${path}.${k}`]);
    }
  }
  return undefined;
};

/**
 * The snapshot of a save with no time later than `now`: a key's or record's meta dated after now (a clock that was
 * ahead, a forged save), or every one when the save itself is (`all`), is dated now at most and stale, since its
 * real age cannot be known: shown, and refetched in the background (as TanStack Query does with restored data).
 * So is a key's invalidation or expiry mark (`markedAt`): one stamped after now would outlast every later answer.
 * Changes the save in place (parsed, or the storage's own copy).
 */
const notAfter = (state: StateSnapshot, now: number, all: boolean): StateSnapshot => {
  const min = (time: number) => (time > now ? now : time);
  const dated = (m: any) => {
    if (m && typeof m == 'object' && (all || m.date > now || m.fetchedAt > now || m.markedAt > now))
      for (const time of ['date', 'fetchedAt', 'expiresAt', 'markedAt']) m[time] = min(m[time]);
  };
  const tables: any = state.entitiesMeta;
  for (const k in state.meta) dated(state.meta[k]);
  for (const k in tables) for (const pk in tables[k]) dated(tables[k][pk]);
  return state;
};

/**
 * The asynchronous writes in flight of each storage key, of every `persist` of the page: one started on a key
 * (a controller made again after a dispose) reads and writes after them, so it reads the last save of the one
 * before, and its own writes (a reset's removal) are not undone by that save landing later.
 */
const inFlight = new Map<string, Promise<void>>();

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function';

function isEnvelope(value: unknown): value is PersistedState {
  const envelope = value as PersistedState | null | undefined;
  return (
    envelope?.format === FORMAT &&
    typeof envelope.savedAt === 'number' &&
    typeof envelope.state === 'object' &&
    envelope.state !== null
  );
}

/**
 * Keeps `controller`'s state in `storage`: restores the save under `key` now (synchronous storage) or
 * when the storage answers (asynchronous; data fetched meanwhile is newer and wins, a record deleted
 * meanwhile stays deleted), then saves `takeSnapshot(controller)` at most once per `throttle` ms after
 * changes, at once after a reset (which
 * removes the save), when the page is hidden, and on teardown. A save of another `version`, older than
 * `maxAge`, corrupt or not an rx-rest save is ignored and removed; a save (or a key or record in it) dated
 * after now (a clock that was ahead, a forged save) is restored dated now at most, and stale (refetched in
 * the background), never fresher than data fetched now, and a request fresh no longer than its endpoint's
 * `dataExpiryLength` (`errorExpiryLength`) from its date, whatever expiry the save says; a storage that throws or rejects
 * (quota, private mode) is reported, and the state it did not take is written by the next save (a
 * change, `flush()`, the page hidden, the teardown) once the storage works again. Every such case logs
 * one `console.warn` naming the reason and never throws. Returns the teardown; as a manager,
 * `dispose()` calls it. Without `options.storage` it uses `localStorage`, and where there is no
 * `document` (a server render) it does nothing; a `storage` given there is used (see `PersistOptions.storage`). While a server-rendered page hydrates (an adapter
 * holds the hydration: `loadController`, `controllerPerRequest`, or `holdHydration()`), the save is read
 * once the page is hydrated, so the first render shows the server's data (no hydration mismatch); the
 * restore then keeps whatever is newer. A first argument that is no `Controller`, a `storage` without the
 * three methods, a `maxAge` or `throttle` that is not a number of ms (0 or more) throw a `TypeError` at the call.
 *
 * @example
 * const controller = new Controller({
 *   managers: [(c) => persist(c, { storage: localStorage, version: 2, maxAge: 24 * 60 * 60 * 1000 })],
 * });
 * @example
 * const stop = persist(controller, { storage: idbStorage, key: 'todo-app' });
 * if (!(await stop.restored)) console.log('no saved state');
 */
export function persist(controller: Controller, options: PersistOptions = {}): Persistence {
  const { key = 'rx-rest', version, maxAge = Infinity, throttle = 1000 } = options;
  const given = options.storage;
  const ms = (value: unknown) => typeof value === 'number' && value >= 0;
  // a slip in the set-up (a swapped argument, `maxAge: '1d'`) is refused at the call, before anything is read or written
  const wrong = !(controller instanceof Controller)
    ? 'controller'
    : given != null && !['getItem', 'setItem', 'removeItem'].every((m) => typeof (given as never)[m] == 'function')
      ? 'storage'
      : !ms(maxAge)
        ? 'maxAge'
        : !ms(throttle)
          ? 'throttle'
          : '';
  if (wrong) {
    if (process.env.NODE_ENV !== 'production') {
      const value = { controller, storage: given, maxAge, throttle }[wrong];
      const got = value === null ? 'null' : typeof value;
      throw new TypeError(
        wrong === 'controller'
          ? `persist(controller, options) expects a Controller as its first argument, got ${got}.`
          : `persist(controller, options): options.${wrong} ${
              {
                storage: 'must have getItem, setItem and removeItem functions',
                maxAge: 'must be a number of ms (0 or more)',
                throttle: 'must be a number of ms (0 or more)',
              }[wrong]
            }, got ${got}.`,
      );
    }
    throw new TypeError(`persist: ${wrong}`);
  }
  // a page, or a Web Worker (no document, but one user's: `importScripts` is a worker's)
  const inBrowser = typeof document !== 'undefined' || 'importScripts' in globalThis;
  // Node without a storage given: a server render (nothing to keep across page loads); with one, a script or a
  // server: it is the app's, but a server's would serve every user's requests
  if (process.env.NODE_ENV !== 'production' && given && !inBrowser)
    warn(
      'options.storage is used where there is no document (Node). On a server, one storage would carry one user\'s data into another user\'s page: start persist in the browser only (in a component, or where typeof window !== "undefined").',
    );
  let storage: PersistStorage | undefined;
  let blocked = '';
  try {
    storage = given ?? (inBrowser ? (globalThis.localStorage as PersistStorage | undefined) : undefined);
  } catch (error) {
    // storage blocked (cookies blocked, a sandboxed iframe): reading `localStorage` itself throws a SecurityError
    blocked = ` (${describe(error)})`;
  }
  if (storage === undefined || storage === null) {
    // a server render (nothing to keep across page loads, and one storage for every user), or no localStorage
    if (inBrowser)
      warn(
        process.env.NODE_ENV !== 'production'
          ? `there is no storage here (no localStorage${blocked}, no options.storage): nothing is kept.`
          : 'no storage' + blocked,
      );
    return Object.assign(() => {}, { restored: Promise.resolve(false), flush: () => Promise.resolve() });
  }
  let ready = false; // the save was read: writes may start
  let stopped = false;
  let restoring = false; // our own restore is being applied: its action is no change to save
  let dirty = false; // a change not saved yet
  let failing = false; // the last write failed (warned once until one succeeds)
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writes: Promise<void> | undefined = inFlight.get(key); // asynchronous writes in flight, one after another
  let finalState: StateSnapshot | undefined; // the state at a teardown that came before the restore
  let saved: StateSnapshot | undefined; // the save read after such a teardown
  let reset = false; // the store was reset before the save was read
  let leftOut = false; // a value JSON leaves out was warned about (development)
  // `invalidateAll` / `expireAll` before the save was read: they reach the results it brings (all dated before)
  const marks: [type: string, endpoint: any, at: number][] = [];
  const clock = inspectController(controller).now; // the controller's, as its requests' dates
  // until the save is read, the deletion marks stay: the restore of the save meets the marks of what was
  // deleted since it was written (here, or in another tab whose sync told this one), and the merge refuses
  // its copies. Held from the start: the write of a deletion another tab's sync applies may run the sweep
  // that collects its mark before this add-on hears of the change. (A tab that opens later is told of the
  // deletions by this tab's sync, which remembers them, not by the store's marks: none is held after.)
  const release = holdTombstones(controller);

  /** `result`, or nothing after 5 s: a storage that never answers (warned) holds nothing back for ever. */
  const bounded = (result: PromiseLike<unknown>): Promise<unknown> => {
    let hung: ReturnType<typeof setTimeout>;
    return Promise.race([
      Promise.resolve(result).finally(() => clearTimeout(hung)),
      new Promise(
        (go) => (hung = setTimeout(() => go(warn(`the storage has not answered in 5 s under '${key}'`)), 5e3)),
      ),
    ]);
  };

  /**
   * Runs a storage write after the one in flight, or now (`now`: the page is being hidden, and an unloading page
   * runs no more code); a failure warns and nothing throws.
   */
  const write = (what: string, run: () => unknown, now?: unknown): void => {
    const fail = (error: unknown) => {
      if (!failing)
        warn(
          `could not ${what} under '${key}' (${describe(error)})${process.env.NODE_ENV !== 'production' ? '; the app goes on without it.' : ''}`,
        );
      failing = true;
      // the storage does not hold the state (a failed removal: still the old save): the next save
      // (a change, `flush()`, the page hidden, the teardown) writes it, once the storage works again
      dirty = true;
    };
    const attempt = (): Promise<void> | undefined => {
      try {
        const result = run();
        // a write that never settles (a blocked IndexedDB) holds back the writes and reads after it 5 s at most
        if (isThenable(result))
          return bounded(result).then(() => {
            failing = false;
          }, fail);
        failing = false;
      } catch (error) {
        fail(error);
      }
      return undefined;
    };
    const next = writes && !now ? writes.then(attempt) : attempt();
    if (next === undefined) return;
    const chained: Promise<void> = next.then(() => {
      if (writes === chained) writes = undefined;
      if (inFlight.get(key) === chained) inFlight.delete(key);
    });
    inFlight.set(key, (writes = chained));
  };

  const envelope = (state: StateSnapshot): string => {
    if (process.env.NODE_ENV !== 'production' && !leftOut) {
      // a function or a symbol in a record: JSON leaves it out of the save without a word
      const at = unwritable(state, true);
      if (at && !at.endsWith('bigint')) {
        leftOut = true;
        warn(`${at}: JSON cannot write it, so the save under '${key}' leaves it out (the store keeps it).`);
      }
    }
    const json = () => JSON.stringify({ format: FORMAT, version, savedAt: clock(), state } satisfies PersistedState);
    // (in production the warning gives JSON's own message)
    if (process.env.NODE_ENV === 'production') return json();
    try {
      return json();
    } catch (error) {
      // JSON's own TypeError names no entity or field
      const at = unwritable(state);
      throw at ? new TypeError(`${at}: JSON cannot write it (give it a toJSON, or keep a string)`) : error;
    }
  };

  /** Saves a pending change when the throttle window ends: never by a timer past what one can wait (`Infinity`). */
  const later = (): void => {
    if (throttle < 2 ** 31) timer = setTimeout(save, throttle);
  };

  /**
   * Saves now when a change is pending (the snapshot is taken when the write runs); `now` (an event of the page
   * hidden), without waiting for a write in flight.
   */
  const save = (now?: unknown): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!dirty || !ready || stopped) return;
    dirty = false;
    write('save the state', () => storage.setItem(key, envelope(takeSnapshot(controller))), now);
  };

  const changed = (action: ControllerAction): void => {
    const changes = action.changes;
    if (restoring || stopped || changes === undefined) return;
    if (!ready && !action.args && (action.type == 'invalidate' || action.type == 'expire'))
      marks.push([action.type, action.endpoint, clock()]);
    if (action.type === 'reset') {
      clearTimeout(timer);
      timer = undefined;
      dirty = false;
      reset = !ready;
      write('remove the save', () => storage.removeItem(key));
      return;
    }
    if (!(changes.entities.length || changes.endpoints.length)) return; // optimistic layers only
    dirty = true;
    if (ready && timer === undefined) later();
  };

  /** Ignores and removes the save for `reason`. */
  const drop = (reason: string): false => {
    warn(
      `the save under '${key}' ${reason}${process.env.NODE_ENV !== 'production' ? '; it was ignored and removed.' : ''}`,
    );
    write('remove the save', () => storage.removeItem(key));
    return false;
  };

  /** The save as a state to restore, or why not. */
  const read = (raw: unknown): StateSnapshot | false => {
    if (raw === null || raw === undefined) return false;
    let value: unknown;
    try {
      value = typeof raw === 'string' ? JSON.parse(raw) : raw;
    } catch {
      return drop('is corrupt (not JSON)');
    }
    if (!isEnvelope(value)) return drop('is not an rx-rest save');
    if (value.version !== version)
      return drop(
        `is of version ${value.version}, not ${version}${process.env.NODE_ENV !== 'production' ? ' (options.version)' : ''}`,
      );
    const now = clock();
    const age = now - value.savedAt;
    if (age > maxAge)
      return drop(
        `is ${age} ms old${process.env.NODE_ENV !== 'production' ? `, older than maxAge (${maxAge} ms)` : ''}`,
      );
    return notAfter(value.state, now, age < 0);
  };

  /** Restores what the storage answered; whether anything was restored. */
  const apply = (raw: unknown): boolean => {
    const state = read(raw);
    if (state === false || reset) return false; // after a reset, the save is of before it
    // (an endpoint without `testKey` cannot tell its keys: its mark reaches the keys the store knew only)
    for (const [type, endpoint, at] of marks)
      for (const k in state.meta) {
        const m: any = state.meta[k];
        if (m?.fetchedAt < at && endpoint.testKey?.(k))
          Object.assign(m, { expiresAt: 0, markedAt: at }, type == 'invalidate' && { invalidated: true });
      }
    if (finalState) saved = state; // torn down before the storage answered: merged with the final state in `settled`
    if (stopped) return false;
    restoring = true;
    const before = controller.getState();
    try {
      restoreSnapshot(controller, state);
      return controller.getState() !== before; // nothing kept (older than the store's data, or a reset): false
    } catch (error) {
      if (error instanceof SnapshotError) return drop(`holds a snapshot that cannot be restored (${error.message})`);
      if (error instanceof TypeError) return drop('holds no state snapshot');
      warn(`could not restore the save under '${key}' (${describe(error)}).`);
      return false;
    } finally {
      restoring = false;
    }
  };

  const unreadable = (error: unknown): false => {
    warn(
      `could not read '${key}' (${describe(error)})${process.env.NODE_ENV !== 'production' ? '; starting without a saved state.' : ''}`,
    );
    return false;
  };

  /** The save was read (or could not be): saves may start. */
  const settled = (restored: boolean): boolean => {
    ready = true;
    release();
    if (finalState) {
      // the state at teardown, merged with the save it never restored, so that neither is lost
      // (its deletion marks refuse the save's older copies of what was deleted)
      const merged = new Controller({ environment: {}, gcTime: Infinity, now: clock });
      try {
        if (saved) restoreSnapshot(merged, saved);
      } catch {
        drop('holds no state snapshot');
      }
      restoreSnapshot(merged, finalState);
      const state = takeSnapshot(merged);
      merged.dispose();
      write('save the state', () => storage.setItem(key, envelope(state)));
      finalState = saved = undefined;
    } else if (dirty && !stopped && timer === undefined) later();
    return restored;
  };

  const subscription = controller.actions$.subscribe(changed);
  /** Reads the save and restores it (now for a synchronous storage, with no write in flight). */
  const restore = (): Promise<boolean> => (writes ? writes.then(readSave) : readSave());
  const readSave = (): Promise<boolean> => {
    try {
      const raw = storage.getItem(key);
      return isThenable(raw)
        ? Promise.resolve(raw).then(apply, unreadable).then(settled)
        : Promise.resolve(settled(apply(raw)));
    } catch (error) {
      return Promise.resolve(settled(unreadable(error)));
    }
  };
  // a server-rendered page hydrating: the first render must show the server's data, so the save is read
  // once the page is hydrated (data the page fetched meanwhile is newer and wins, as with a slow storage)
  let readNow: (() => void) | undefined;
  // the teardown settles it false, even while a storage never answers
  let gaveUp!: (restored: false) => void;
  const reading: Promise<boolean> = isHydrating()
    ? new Promise<boolean>((resolve) => {
        const read = () => {
          readNow = undefined;
          resolve(restore());
        };
        const cancel = afterHydration(read);
        readNow = () => {
          cancel();
          read();
        };
      })
    : restore();
  const restored = Promise.race([reading, new Promise<false>((resolve) => (gaveUp = resolve))]);

  const onVisibility = () => {
    if (globalThis.document?.visibilityState === 'hidden') save(true);
  };
  globalThis.addEventListener?.('pagehide', save); // (the page hidden: a pending change is saved at once)
  globalThis.document?.addEventListener?.('visibilitychange', onVisibility);

  const teardown = (): void => {
    if (stopped) return;
    if (!ready && dirty) finalState = takeSnapshot(controller, { invalid: true });
    save();
    stopped = true;
    release();
    readNow?.(); // torn down during hydration: the save is read now and merged with the state (below)
    gaveUp(false);
    clearTimeout(timer);
    subscription.unsubscribe();
    globalThis.removeEventListener?.('pagehide', save);
    globalThis.document?.removeEventListener?.('visibilitychange', onVisibility);
  };
  return Object.assign(teardown, {
    restored,
    flush: async (): Promise<void> => {
      await bounded(reading);
      save();
      await writes;
    },
  });
}
