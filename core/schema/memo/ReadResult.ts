import { INVALID } from '../special.js';
import type { DenormalizeResult, EntityTables } from '../types.js';
import type { Dependencies } from './dependencies.js';

/** What computes a result's paths and index on demand (the memo, which holds the records' nodes). */
export interface PathSource {
  /** With `index`, a table of which a record (or the result) reads many records in a run as its entity key alone. */
  pathsOf(roots: Dependencies, entities: EntityTables, index?: boolean): Set<string>;
  /** Whether the last `pathsOf` with `index` put a table whole. */
  readonly whole: boolean;
}

/** A read's result (a class, so that every result has one shape and `paths` is a prototype getter). */
export class ReadResult implements DenormalizeResult<unknown> {
  declare readonly data: unknown;
  declare readonly invalid: boolean;
  /** @internal The paths once computed, or handed over from the previous read (never computed here). */
  known: ReadonlySet<string> | undefined;
  /** @internal The index once computed, or handed over from the previous read. */
  knownIndex: ReadonlySet<string> | undefined;
  /** @internal Whether the index lists a table whole (a long list's rows), once it is computed. */
  wide: boolean;
  readonly #memo: PathSource;
  readonly #roots: Dependencies;
  readonly #entities: EntityTables;

  constructor(
    value: unknown,
    previous: ReadResult | undefined,
    memo: PathSource,
    roots: Dependencies,
    entities: EntityTables,
  ) {
    this.data = value === INVALID ? undefined : value;
    this.invalid = value === INVALID;
    this.known = previous?.known;
    this.knownIndex = previous?.knownIndex;
    this.wide = previous?.wide === true;
    this.#memo = memo;
    this.#roots = roots;
    this.#entities = entities;
  }

  /** Computed on first use (unless the previous read's still hold): a plain read never pays for it. */
  get paths(): ReadonlySet<string> {
    return (this.known ??= this.#memo.pathsOf(this.#roots, this.#entities));
  }

  /**
   * What a live read is indexed under, computed on first use (unless the previous read's still holds): its paths,
   * but a table of which it reads many records in a run (a long list's rows) as its entity key alone. With no such
   * table, the paths themselves.
   */
  get index(): ReadonlySet<string> {
    let index = this.knownIndex;
    if (index === undefined) {
      index = this.knownIndex = this.#memo.pathsOf(this.#roots, this.#entities, true);
      if (!(this.wide = this.#memo.whole)) this.known ??= index;
    }
    return index;
  }
}
