/**
 * rx-rest/sync: the tabs of one app share one cache. Each change to shared data (a response, `set`,
 * an error, an invalidation, a reset) goes to the other tabs as a snapshot of what it touched, and what
 * comes in is merged with `restoreSnapshot` (the newest by request start wins, so two tabs that write
 * at once agree). What a tab applies from the channel is never posted again.
 *
 * @example
 * import { syncTabs } from 'rx-rest/sync';
 * const controller = new Controller({ managers: [(c) => syncTabs(c)] });
 */
import {
  Controller,
  SnapshotError,
  afterHydration,
  isHydrating,
  restoreSnapshot,
  takeSnapshot,
  type ControllerAction,
  type EntityMeta,
  type StateSnapshot,
} from '../../core/index.js';

/**
 * What `syncTabs` talks through: a `BroadcastChannel`, or anything shaped like one (tests, other transports).
 *
 * @example
 * const { port1 } = new MessageChannel();
 * const channel: SyncChannel = { postMessage: (m) => port1.postMessage(m), close: () => port1.close(), onmessage: null };
 * port1.onmessage = (event) => channel.onmessage?.(event);
 */
export interface SyncChannel {
  /** Sends a message to the other ends (structured clone). */
  postMessage(message: unknown): void;
  /** Ends the channel; `syncTabs` calls it only on a channel it opened itself. */
  close(): void;
  /** Where messages arrive (used when present, else `onmessage`). */
  addEventListener?(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  /** Removes a listener `addEventListener` added. */
  removeEventListener?(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  /** Where messages arrive when there is no `addEventListener`. */
  onmessage?: ((event: MessageEvent) => void) | null;
}

/**
 * The options of `syncTabs`.
 *
 * @example
 * syncTabs(controller, { channel: 'todos-app' });
 */
export interface SyncTabsOptions {
  /** A `BroadcastChannel` name (default `'rx-rest'`: every tab of the origin), or a channel to use as given. */
  readonly channel?: string | SyncChannel | undefined;
}

/**
 * The marker every message carries: what is not marked so (another app on the channel) is ignored. Its
 * `@1` stays: the messages of releases before `version` carry this marker and no version.
 */
const SYNC_FORMAT = 'rx-rest/sync@1';
/**
 * What the messages mean: a tab reads only those of its own version (another release of the app may
 * shape them otherwise). Raised with any change that a tab of another release would misread; a message
 * without one is of version 1.
 */
const SYNC_VERSION = 2;

/** One message on the channel: a snapshot of changes (or the whole state, `to` a tab that said hello), a reset, or a hello. */
interface SyncMessage {
  readonly format: typeof SYNC_FORMAT;
  readonly version: typeof SYNC_VERSION;
  /** The sending tab's id. */
  readonly from: string;
  readonly kind: 'snapshot' | 'reset' | 'hello';
  /** The one tab a snapshot is for (the answer to its hello). */
  readonly to?: string | undefined;
  readonly snapshot?: StateSnapshot | undefined;
  /** A reset's stamp (the sender's `lastReset`): what any tab wrote after it stays. */
  readonly at?: number | undefined;
}

/** How many deletions a tab remembers (see `learn` in `syncTabs`). */
const MAX_MARKS = 1_000;

/** The actions whose changes the other tabs need (not optimistic layers, not garbage collection). */
const SHARED = new Set<ControllerAction['type']>(['fetch', 'set', 'setError', 'invalidate', 'expire', 'restore']);

const warn = (...what: unknown[]) => console.warn('rx-rest/sync:', ...what);

/**
 * Whether a record written at `meta` (none: a record without a time) loses to a deletion written at
 * `mark`, by the merge's rule: the later request start, then the later arrival; a tie goes to the deletion.
 */
const beaten = (meta: EntityMeta | undefined, mark: EntityMeta) =>
  !meta || (meta.fetchedAt - mark.fetchedAt || meta.date - mark.date) <= 0;

/**
 * The path (`entities.Todo.1.onClick`) of the first function or symbol in `value` (what structured clone
 * refuses to copy to another tab), for the warning of development (left out of production builds).
 */
function uncloneable(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  const seen = new Set<unknown>();
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [item, path] = top;
    const type = typeof item;
    if (type == 'function' || type == 'symbol') return `${path.slice(1)} is a ${type}`;
    if (type == 'object' && item && !seen.has(item)) {
      seen.add(item);
      for (const k of Object.keys(item).reverse()) stack.push([(item as Record<string, unknown>)[k], `${path}.${k}`]);
    }
  }
  return undefined;
}
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isChannel = (value: unknown): value is SyncChannel =>
  isObject(value) &&
  typeof value.postMessage === 'function' &&
  typeof value.close === 'function' &&
  (typeof value.addEventListener === 'function' || 'onmessage' in value);
/**
 * Whether `stamp` is more than 10 minutes ahead of this tab's clock (`Date.now()`). A stamp is the start of a
 * request, on the clock of a tab of the same browser, or of a server whose snapshot a tab restored (seconds off,
 * when its clock is synced). One later is corrupt or hostile: taken, it would be the newest write this tab knows,
 * and its own later writes could no longer pass it (at 8.64e15 its stamps stop growing at all), so ordering would
 * fall to arrival order. In development, one beyond what a `Date` holds (or no time at all) is left to
 * `restoreSnapshot`, whose warning names it as no time; in production every such message is ignored alike.
 */
const ahead = (stamp: unknown) =>
  process.env.NODE_ENV !== 'production'
    ? (stamp as number) > Date.now() + 600_000 && (stamp as number) <= 8.64e15
    : (stamp as number) > Date.now() + 600_000;
/**
 * A key's invalidation or expiry mark (`markedAt`) ahead as a stamp is: it would keep the key invalid past every
 * later answer (beyond what a `Date` holds, for good), which `restoreSnapshot` takes from a finite number.
 */
const markAhead = (meta: Record<string, unknown>) => (meta.markedAt as number) > Date.now() + 600_000;
const isTime = (meta: unknown) =>
  isObject(meta) &&
  ['date', 'fetchedAt', 'expiresAt'].every((field) => typeof meta[field] === 'number') &&
  !ahead(meta.fetchedAt) &&
  !markAhead(meta);

/** Development: where a snapshot (or a reset's `at`) holds a stamp `ahead`, for the warning. */
function aheadAt(message: Record<string, unknown>): string | undefined {
  if (ahead(message.at)) return `lastReset: ${String(message.at)}`;
  const { entitiesMeta, meta } = (message.snapshot ?? {}) as Record<string, unknown>;
  const tables: [string, unknown][] = isObject(entitiesMeta)
    ? Object.entries(entitiesMeta).map(([key, table]) => [`entitiesMeta.${key}`, table])
    : [];
  for (const [path, table] of [...tables, ['meta', meta] as [string, unknown]])
    for (const [key, m] of isObject(table) ? Object.entries(table) : []) {
      if (isObject(m) && ahead(m.fetchedAt)) return `${path}.${key}.fetchedAt: ${String(m.fetchedAt)}`;
      if (isObject(m) && markAhead(m)) return `${path}.${key}.markedAt: ${String(m.markedAt)}`;
    }
  return undefined;
}

/** Every table of `value` (`depth` levels of objects) holds what `item` accepts. */
function tables(value: unknown, depth: number, item: (value: unknown) => boolean): boolean {
  return isObject(value) && Object.values(value).every((v) => (depth > 1 ? tables(v, depth - 1, item) : item(v)));
}

/** Why `message` is not a message of this add-on, or `undefined` when it is well formed. */
function syncMessageProblem(message: unknown): string | undefined {
  // the reasons in development only (production warns with the message alone)
  const dev = process.env.NODE_ENV !== 'production';
  if (!isObject(message) || message.format !== SYNC_FORMAT) return dev ? `no ${SYNC_FORMAT} format marker` : '';
  const { from, kind, to, snapshot } = message;
  if (typeof from !== 'string' || (to !== undefined && typeof to !== 'string')) return dev ? 'no sender id' : '';
  if (process.env.NODE_ENV !== 'production') {
    const at = aheadAt(message);
    if (at) return `a stamp ahead of this tab's clock (${at} is more than 10 minutes after now)`;
  } else if (ahead(message.at)) return ''; // a reset's (a snapshot's stamps: see isTime)
  if (kind === 'hello' || kind === 'reset') return undefined;
  if (kind !== 'snapshot') return dev ? `unknown kind ${JSON.stringify(kind)}` : '';
  // keys such as `__proto__` or `constructor` (a table, a pk, a field) are data: `restoreSnapshot` stores them as such
  const s = snapshot as Record<string, unknown>;
  const wellFormed =
    tables(s, 1, () => true) &&
    tables(s.entities, 2, (record) => typeof record === 'object' && record !== null) &&
    tables(s.entitiesMeta, 2, isTime) &&
    tables(s.endpoints, 1, () => true) &&
    tables(s.meta, 1, isTime) &&
    (s.invalid === undefined ||
      (Array.isArray(s.invalid) &&
        s.invalid.every(
          (pair) => Array.isArray(pair) && pair.length === 2 && pair.every((p) => typeof p === 'string'),
        )));
  return wellFormed ? undefined : dev ? 'a malformed snapshot' : '';
}

const isEmpty = (snapshot: StateSnapshot) =>
  !snapshot.invalid && [snapshot.entities, snapshot.endpoints, snapshot.meta].every((t) => Object.keys(t).length === 0);

/**
 * Syncs `controller` with the other tabs of the app (every controller on the same channel): a response,
 * `set`, error, invalidation or reset in one applies in the others, and a tab that opens later starts
 * with what the others know. Returns a teardown that stops syncing (and closes the channel it opened).
 * Where `BroadcastChannel` does not exist, it does nothing (one warning); where there is no `document`
 * (a server render), a channel name does nothing either (a channel object is used as given). While a
 * server-rendered page hydrates (see `holdHydration`), what other tabs send is applied once it is
 * hydrated, so the first render shows the server's data. A deleted record stays deleted in every tab,
 * however late an older copy of it comes in: each tab remembers the deletions it made or read (entity, pk
 * and the deletion's stamp; after its store collected them too), answers a hello with them, and drops a
 * copy older than a deletion it knows from what it applies. A tab back from the back/forward cache says hello
 * again. A message holding a stamp (or an invalidation's `markedAt`) more than 10 minutes ahead of this tab's
 * clock (corrupt or hostile: it would stop this tab's ordering) is ignored with a warning, as a malformed one is;
 * messages without the format marker (another app on the channel) are warned about once. A first argument that
 * is no `Controller`, or a
 * `channel` that is no channel, throws a `TypeError`.
 *
 * @example
 * const controller = new Controller({ managers: [(c) => syncTabs(c, { channel: 'todos' })] });
 */
export function syncTabs(controller: Controller, options: SyncTabsOptions = {}): () => void {
  if (!(controller instanceof Controller))
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `syncTabs(controller, options) expects a Controller as its first argument, got ${controller === null ? 'null' : typeof controller}.`
        : 'syncTabs: controller',
    );
  const given = options.channel ?? 'rx-rest';
  let channel: SyncChannel;
  if (typeof given === 'string') {
    // a server render: Node's BroadcastChannel would carry one user's data into another user's controller
    if (typeof document === 'undefined') return () => {};
    if (typeof BroadcastChannel === 'undefined') {
      warn(
        process.env.NODE_ENV !== 'production'
          ? 'there is no BroadcastChannel here: this tab is not synced with others.'
          : 'no BroadcastChannel',
      );
      return () => {};
    }
    channel = new BroadcastChannel(given);
  } else if (isChannel(given)) channel = given;
  else {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `syncTabs(controller, { channel }): channel must be a BroadcastChannel name or an object with postMessage, ` +
            `close and addEventListener or onmessage, got ${given === null ? 'null' : typeof given}.`
        : 'syncTabs: channel',
    );
  }
  const id = Math.random() + ''; // (52 random bits: no two tabs of an origin draw one)
  // a message from the channel is being applied: what it changes is not posted back
  let applying = false;
  let warnedVersion = false;
  let warnedForeign = false;

  const post = (kind: SyncMessage['kind'], extra?: Partial<SyncMessage>) => {
    try {
      channel.postMessage({
        format: SYNC_FORMAT,
        version: SYNC_VERSION,
        from: id,
        kind,
        ...extra,
      } satisfies SyncMessage);
    } catch (error) {
      // the browser's DataCloneError names no entity or field
      const at = process.env.NODE_ENV !== 'production' && uncloneable(extra?.snapshot);
      warn(
        process.env.NODE_ENV !== 'production'
          ? `a ${kind} message could not be posted (skipped)${at ? `: ${at}, which cannot be sent to another tab (this tab's store keeps it)` : ''}:`
          : `${kind} not posted`,
        error,
      );
    }
  };
  const postSnapshot = (snapshot: StateSnapshot, to?: string) => {
    if (!isEmpty(snapshot)) post('snapshot', to === undefined ? { snapshot } : { snapshot, to });
  };
  // the deletions this tab posted or applied, by `key \0 pk`, oldest first: an older copy of the record may
  // come in later than the store keeps its mark (a slow tab's change, a hello answer of a tab that did not
  // read it)
  const marks = new Map<string, [key: string, pk: string, mark: EntityMeta]>();
  type Tables = { [key: string]: { [pk: string]: unknown } };
  /**
   * Drops from `snapshot` (its own objects) each record older than a deletion this tab knows (a lookup
   * per record the snapshot holds, whatever the number of deletions known); an `answer` to a hello also
   * gets the deletions its store no longer holds (a mark stays after a later record: it refuses only what
   * is older than the deletion, and a reset clears them).
   */
  const refuse = (snapshot: StateSnapshot, answer?: boolean) => {
    const { entities, entitiesMeta } = snapshot as { entities: Tables; entitiesMeta: Tables };
    for (const key in entities)
      for (const pk in entities[key]) {
        const mark = marks.get(`${key}\0${pk}`);
        if (mark && beaten(entitiesMeta[key]?.[pk] as EntityMeta | undefined, mark[2])) delete entities[key]![pk];
      }
    if (answer)
      for (const [key, pk, mark] of marks.values())
        if (entities[key]?.[pk] === undefined && !entitiesMeta[key]?.[pk]) {
          ((snapshot as { invalid?: [string, string][] }).invalid ??= []).push([key, pk]);
          (entitiesMeta[key] ??= Object.create(null))[pk] = mark; // (a pk `__proto__` is data)
        }
  };
  /**
   * Remembers the deletions `snapshot` holds (this tab's own, or one restored: its times are checked; a
   * mark's meta an object's prototype would give, as for a pk `toString`, is no time), as the newest.
   * At most MAX_MARKS: a mark matters only while an older copy of its record can still come in (a slow
   * tab's response on its way, a hello answered by a tab that had not read the deletion), seconds to
   * minutes; 1,000 deletions outlast that at any human pace (one a second for a quarter of an hour), the
   * oldest forgotten first are the ones least likely to have a copy on its way, and the memory (about
   * 100 B a mark) and a hello answer (which lists them) stay small.
   */
  const learn = ({ invalid = [], entitiesMeta }: StateSnapshot) => {
    for (const [key, pk] of invalid) {
      const path = `${key}\0${pk}`;
      const mark = entitiesMeta[key]?.[pk];
      const known = marks.get(path)?.[2];
      if (isTime(mark) && (!known || beaten(known, mark!))) {
        marks.delete(path); // set again below as the newest
        marks.set(path, [key, pk, mark!]);
        if (marks.size > MAX_MARKS) marks.delete(marks.keys().next().value!);
      }
    }
  };

  const receive = (event: { readonly data: unknown }) => {
    const message = event.data as SyncMessage;
    const version = isObject(message) && message.format === SYNC_FORMAT && (message.version ?? 1);
    if (version && version !== SYNC_VERSION) {
      // another release of the app: ignored (said once, in development)
      if (process.env.NODE_ENV !== 'production' && !warnedVersion) {
        warnedVersion = true;
        warn(
          `ignored the messages of version ${String(version)} of rx-rest/sync (this tab reads version ${SYNC_VERSION}): ` +
            'another tab runs another release of the app; tabs sync again once both are reloaded.',
        );
      }
      return;
    }
    const problem = syncMessageProblem(message);
    if (problem !== undefined) {
      // another app's messages on a shared channel: said once (one each would flood the console)
      if (version || !warnedForeign)
        warn(
          process.env.NODE_ENV !== 'production'
            ? `ignored a message with ${problem}${version ? '' : ' (said once: later ones are ignored silently)'}:`
            : 'ignored',
          message,
        );
      warnedForeign ||= !version;
      return;
    }
    if (message.from === id || (message.to !== undefined && message.to !== id)) return;
    if (message.kind === 'hello') {
      const snapshot = takeSnapshot(controller, { invalid: true });
      refuse(snapshot, true);
      return postSnapshot(snapshot, message.from);
    }
    if (isHydrating()) {
      // a server-rendered page hydrating renders the server's data: another tab's state waits until it is hydrated
      held.push(message);
      if (held.length === 1) cancelHeld = afterHydration(() => held.splice(0).forEach(apply));
      return;
    }
    apply(message);
  };
  const held: SyncMessage[] = [];
  let cancelHeld = () => {};

  const apply = (message: SyncMessage) => {
    if (stopped) return;
    applying = true;
    try {
      // a reset at the sender's stamp, not at the time it arrives here: what the sender (or this tab)
      // wrote after it, before this tab read it, stays in both
      if (message.kind !== 'reset') {
        refuse(message.snapshot!);
        restoreSnapshot(controller, message.snapshot);
        learn(message.snapshot!);
      } else if (message.at === undefined) controller.resetEntireStore();
      else
        restoreSnapshot(
          controller,
          { ...takeSnapshot(controller, { invalid: true }), lastReset: message.at },
          { replace: true },
        );
    } catch (error) {
      // a time that is not one, values nested too deeply: restoreSnapshot checked before writing anything
      if (process.env.NODE_ENV === 'production') warn('ignored', message, error);
      else if (error instanceof SnapshotError)
        warn(
          `ignored a message with a snapshot it cannot restore (${error.path}: ${error.detail.split(' (')[0]}):`,
          message,
        );
      else warn(`a ${message.kind} message could not be applied:`, error);
    } finally {
      applying = false;
    }
  };

  let stopped = false;
  let subscription: { unsubscribe(): void } | undefined;
  // back from the back/forward cache: what the other tabs changed meanwhile never reached this one
  const onShow = (event: { persisted?: boolean }) => event.persisted && post('hello');
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cancelHeld();
    globalThis.removeEventListener?.('pageshow', onShow);
    subscription?.unsubscribe();
    if (channel.addEventListener) channel.removeEventListener?.('message', receive);
    else if (channel.onmessage === receive) channel.onmessage = null;
    if (channel !== given) channel.close();
  };
  subscription = controller.actions$.subscribe({
    next: (action) => {
      if (applying) return;
      if (action.type === 'reset') {
        marks.clear(); // the merge refuses anything older than the reset
        post('reset', { at: controller.getState().lastReset });
      } else if (SHARED.has(action.type) && action.changes) {
        const snapshot = takeSnapshot(controller, { changes: action.changes, invalid: true });
        refuse(snapshot);
        learn(snapshot);
        postSnapshot(snapshot);
      }
    },
    complete: stop, // the controller was disposed
  });
  if (!stopped) {
    // a MessagePort delivers to its listeners once started (setting onmessage starts it; addEventListener does not)
    if (channel.addEventListener) {
      channel.addEventListener('message', receive);
      (channel as MessagePort).start?.();
    } else channel.onmessage = receive;
    post('hello');
    globalThis.addEventListener?.('pageshow', onShow);
  }
  return stop;
}
