import { INVALID } from '../special.js';
import type { DenormalizeResult, EntityTables } from '../types.js';
import type { Dependencies } from './dependencies.js';

/** What computes a result's paths on demand (the memo, which holds the records' nodes). */
export interface PathSource {
  pathsOf(roots: Dependencies, entities: EntityTables): Set<string>;
}

/** A read's result (a class, so that every result has one shape and `paths` is a prototype getter). */
export class ReadResult implements DenormalizeResult<unknown> {
  declare readonly data: unknown;
  declare readonly invalid: boolean;
  /** @internal The paths once computed, or handed over from the previous read (never computed here). */
  known: ReadonlySet<string> | undefined;
  readonly #memo: PathSource;
  readonly #roots: Dependencies;
  readonly #entities: EntityTables;

  constructor(
    value: unknown,
    paths: ReadonlySet<string> | undefined,
    memo: PathSource,
    roots: Dependencies,
    entities: EntityTables,
  ) {
    this.data = value === INVALID ? undefined : value;
    this.invalid = value === INVALID;
    this.known = paths;
    this.#memo = memo;
    this.#roots = roots;
    this.#entities = entities;
  }

  /** Computed on first use (unless the previous read's still hold): a plain read never pays for it. */
  get paths(): ReadonlySet<string> {
    return (this.known ??= this.#memo.pathsOf(this.#roots, this.#entities));
  }
}
