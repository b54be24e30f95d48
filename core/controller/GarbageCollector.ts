/**
 * Garbage collection. A key is due `gcTime` after its last subscriber left (or after it was written
 * while nobody observed it). A collection drops the results and meta of the due keys, then every
 * entity record that nothing kept reaches: a mark phase over the kept results (the records each one
 * reads, as the memo reports them), the records live streams read (the path index) and the records
 * optimistic layers write. Records marked INVALID go once no request that started before they were
 * marked runs, whatever reaches them (see tombstones.ts). Its cost is one memoized read per kept
 * result plus two passes over the entity tables.
 *
 * No timer of its own: a collection runs at the first release or write after a key fell due (an idle
 * controller holds no timer, and a dropped one is freed at once), or at once with `controller.gc()`.
 * Deleted records do not wait for a key to fall due (while every result stays observed none does):
 * at the first write or request event `SWEEP_MS` (or `gcTime`, when shorter) after the last
 * collection, the tombstones no running request needs are buried. A request pins them for `gcTime` at
 * most (see `Requests.oldestStart`). That sweep looks only at what may be buried: the records deleted and
 * the lists edited since the last one (an index the writes keep, see `changed`), and what it left; it walks
 * the entity tables only after a whole-state change (a restore, a reset).
 */
import { INVALID, type EntityMeta } from '../schema/index.js';
import type { Changes, State, Store } from '../store/index.js';
import type { ActionLog } from './ActionLog.js';
import { applyLayers } from './optimistic.js';
import { bury, listsWithout, toBury } from './tombstones.js';

/**
 * What the garbage collector sees of the query cache: the records its live streams read, the records a
 * stored result reaches, and the one thing it tells it (which keys it collected). Which keys are live it
 * learns from `retain` and `release`.
 */
export interface CollectorView {
  /** The records live streams read (`entity key \0 pk`). */
  liveRecords(): Iterable<string>;
  /** The records the stored result of `key` reaches, `undefined` when that cannot be traced (an unknown endpoint). */
  pathsOf(key: string): ReadonlySet<string> | undefined;
  /** A collection dropped `keys` (perhaps none) and records: what the cache remembers of them goes. */
  collected(keys: readonly string[]): void;
}

/** What a garbage collector needs besides its view and store. */
export interface CollectorOptions {
  /** How long (ms) a key's result is kept after its last subscriber left. */
  readonly gcTime: number;
  /** The clock. */
  readonly now: () => number;
  /**
   * The start of the oldest request running that started at or after `since` (`Infinity` when none):
   * the tombstones it may need stay. A request started before `since` no longer holds them. An add-on's
   * hold lasting at `now` keeps them all (`-Infinity`).
   */
  readonly oldestStart: (since: number, now: number) => number;
  /** Tombstones written up to `newest` were collected (a request older than that which lost its pin may need one). */
  readonly buried: (newest: number) => void;
}

/** The records the optimistic layers write, as `key\u0000pk` paths: they stay, deleted or not. */
function layerPaths(state: State): Set<string> {
  const paths = new Set<string>();
  for (const [key, pk] of applyLayers(state, undefined).touched) paths.add(`${key}\u0000${pk}`);
  return paths;
}

/** How often at most (ms) deleted records are buried between collections (`gcTime` when shorter). */
export const SWEEP_MS = 10_000;

/** The garbage collector of one controller. */
export class GarbageCollector {
  /** Keys without a subscriber, by the time they were released. */
  readonly #released = new Map<string, number>();
  readonly #view: CollectorView;
  readonly #store: Store;
  readonly #log: ActionLog;
  readonly #options: CollectorOptions;
  readonly #gcTime: number;
  /** When the earliest released key falls due. */
  #nextDue = Number.POSITIVE_INFINITY;
  /** When deleted records are next buried (see `tick`). */
  #nextSweep = Number.NEGATIVE_INFINITY;
  /**
   * The records that may be buried (`key\u0000pk`): tombstones and lists with logged edits, written since the
   * last pass or left by it (see `changed`). `undefined` after a whole-state change: the next pass walks every table.
   */
  #buryable: Set<string> | undefined = undefined;

  constructor(view: CollectorView, store: Store, log: ActionLog, options: CollectorOptions) {
    this.#view = view;
    this.#store = store;
    this.#log = log;
    this.#options = options;
    this.#gcTime = options.gcTime;
  }

  /** A stream for `key` is live: it is not collected (until `release`). */
  retain(key: string): void {
    this.#released.delete(key);
  }

  /** The last subscriber of `key` left (or it was written while nobody observed it) at `now`. */
  release(key: string, now: number): void {
    if (this.#gcTime === Number.POSITIVE_INFINITY) return;
    // `key` was just written or released: the collection this runs must not drop it, whenever it fell due before
    this.#released.delete(key);
    this.tick(now);
    this.#released.set(key, now);
    if (now + this.#gcTime < this.#nextDue) this.#nextDue = now + this.#gcTime;
  }

  /**
   * A write, a release or a request event at `now`: a collection runs when a key fell due, else the
   * tombstones no running request needs are buried when the last collection is `SWEEP_MS` old (a pass
   * over the entity tables; no read, no re-emission).
   */
  tick(now: number): void {
    if (this.#gcTime === Number.POSITIVE_INFINITY) return;
    if (now >= this.#nextDue) this.collect();
    else if (now >= this.#nextSweep) this.#sweep(now);
  }

  /**
   * The store wrote `changed` records (`'all'`: a restore or a reset) into `state`: a record now deleted
   * or a list with logged edits (listEdits.ts) is indexed for the next sweep (one lookup per record); a
   * whole-state change makes it walk the tables. A list whose edit left its pks as they were (a pk it held
   * added again) is not indexed: its edits, at most `MAX_EDITS`, fold at the next sweep that looks at it.
   */
  changed(state: State, changed: Changes['entities']): void {
    const buryable = this.#buryable;
    if (changed === 'all') this.#buryable = undefined;
    else if (buryable !== undefined)
      for (let i = 0; i < changed.length; i++) {
        const [key, pk] = changed[i]!;
        const record = state.entities[key]?.[pk];
        if (record === INVALID || (Array.isArray(record) && !!state.entitiesMeta[key]?.[pk]?.edits))
          buryable.add(`${key}\u0000${pk}`);
      }
  }

  /** What a pass over `state` finds to bury: of the indexed records, or of every record after a whole-state change. */
  #toBury(state: State, oldestStart: number, kept: ReadonlySet<string>) {
    const only = this.#buryable;
    // what the pass leaves, and what is written during the burial, is indexed anew
    return toBury(state, oldestStart, kept, (this.#buryable = new Set()), only);
  }

  /** The start of the oldest running request that still pins the tombstones (one running for less than `gcTime`). */
  #oldestStart(now: number): number {
    return this.#options.oldestStart(now - this.#gcTime, now);
  }

  #sweep(now: number): void {
    this.#nextSweep = now + Math.min(SWEEP_MS, this.#gcTime);
    if (this.#buryable?.size === 0) return; // nothing deleted, no list edited since the last pass buried all
    const state = this.#store.current;
    const [tombstones, metas] = this.#toBury(state, this.#oldestStart(now), layerPaths(state));
    if (tombstones.length === 0 && metas.length === 0) return;
    this.#bury(state, tombstones, metas);
    if (tombstones.length > 0) this.#view.collected([]); // the memo lets go of the buried records
  }

  #bury(state: State, tombstones: [string, string][], metas: [string, string, EntityMeta][]): void {
    let newest = Number.NEGATIVE_INFINITY;
    for (const [key, pk] of tombstones) newest = Math.max(newest, state.entitiesMeta[key]?.[pk]?.fetchedAt ?? newest);
    if (tombstones.length > 0) this.#options.buried(newest);
    this.#store.dispatch({ tombstones, lists: listsWithout(state, tombstones), metas }, bury);
  }

  /** Runs a collection now: drops the due keys, then the unreachable records. */
  collect(): void {
    const view = this.#view;
    const now = this.#options.now();
    this.#nextSweep = now + Math.min(SWEEP_MS, this.#gcTime);
    const due: string[] = [];
    // a released key has no live stream (a new stream retains it), so its time alone decides
    for (const [key, at] of this.#released) if (now - at >= this.#gcTime) due.push(key);
    for (const key of due) this.#released.delete(key);
    this.#nextDue = Number.POSITIVE_INFINITY;
    for (const at of this.#released.values()) this.#nextDue = Math.min(this.#nextDue, at + this.#gcTime);
    const state = this.#store.current;
    const dropped = new Set(due);
    const reachable = new Set<string>(view.liveRecords());
    const layers = layerPaths(state);
    for (const path of layers) reachable.add(path);
    // deleted records no running request needs go, whoever names them (see tombstones.ts)
    const [tombstones, metas] = this.#toBury(state, this.#oldestStart(now), layers);
    const buried = new Set(tombstones.map(([key, pk]) => `${key}\u0000${pk}`));
    let traceable = true;
    for (const key in state.endpoints) {
      if (dropped.has(key)) continue;
      const paths = view.pathsOf(key);
      if (paths === undefined) {
        traceable = false; // a result of an unknown endpoint (a restored state): its records are kept
        break;
      }
      for (const path of paths) reachable.add(path);
    }
    const entities: [string, string][] = [];
    if (traceable) {
      for (const key in state.entities) {
        const table = state.entities[key];
        for (const pk in table) {
          const path = `${key}\u0000${pk}`;
          // what the pass left to bury later (a tombstone a running request or a hold needs) stays, reached or not
          if (!reachable.has(path) && !buried.has(path) && !this.#buryable!.has(path)) entities.push([key, pk]);
        }
      }
    }
    if (tombstones.length > 0 || metas.length > 0) this.#bury(state, tombstones, metas);
    if (due.length === 0 && entities.length === 0) {
      if (tombstones.length > 0) view.collected(due);
      return;
    }
    const { changes } = this.#store.dispatch({ type: 'gc', keys: due, entities });
    view.collected(due); // the cache forgets the keys, the memo lets go of the collected records
    if (this.#log.observed) this.#log.emit({ type: 'gc', keys: due, changes });
  }

  /** Forgets every released key. */
  dispose(): void {
    this.#released.clear();
    this.#nextDue = Number.POSITIVE_INFINITY;
  }
}
