import type { DenormalizeResult, EntityMeta, EntityTables, ListEdit } from './types.js';

/** What a schema sees while normalizing: the request arguments, recursion, and the tables being written. */
export interface NormalizeContext {
  /** The arguments of the request whose response is normalized (URL args, then the body). */
  readonly args: readonly unknown[];
  /** Timing of the write: request start (`fetchedAt`), arrival (`date`), expiry. */
  readonly meta: EntityMeta;
  /** Normalizes a nested value with its schema. */
  visit(schema: unknown, value: unknown, parent: unknown, key: string | undefined): unknown;
  /** The current record of `key`/`pk` (including the writes of this normalize). */
  get(key: string, pk: string): unknown;
  /** The entity whose fields are being normalized (for collections nested in an entity), if any. */
  currentEntity(): { readonly key: string; readonly pk: string } | undefined;
  /** The pks currently in table `key`. */
  pks(key: string): string[];
  /**
   * Writes a record, unless the stored one was written by a newer request: then `keepNewer(incoming,
   * existing)` decides (default: keep the existing record). Identical data keeps the stored object.
   */
  write(key: string, pk: string, incoming: unknown, merge?: (existing: unknown, incoming: unknown) => unknown): void;
  /**
   * Writes `merged`, the caller's merge of the stored record `existing` (`get`) with a change: `existing` itself
   * when nothing changed, otherwise a new object that differs from it (not compared again: a one-entry change of
   * a large object costs no walk over its unchanged entries). Not over a record written by a newer request.
   */
  writeMerged(key: string, pk: string, existing: unknown, merged: unknown): void;
  /**
   * Writes a list's whole membership (a response's list). When the stored list changed after this
   * write's request started by additions and removals only, those are replayed over `pks`; when a whole
   * list newer than it is stored, that one stays.
   */
  writeList(key: string, pk: string, pks: readonly string[]): void;
  /**
   * Writes a list after adding (`'start'`/`'end'`: where they went) or removing `pks`: `next` is the new
   * list. Logged with this write's stamp, so that an older whole list replays it (see `writeList`).
   */
  editList(key: string, pk: string, next: readonly string[], pks: readonly string[], op: ListEdit[2]): void;
}

/** What a schema sees while denormalizing: recursion and memoized table reads. */
export interface DenormalizeContext {
  /** The arguments the result was stored under. */
  readonly args: readonly unknown[];
  /** Denormalizes a nested value with its schema (may return INVALID). */
  unvisit(schema: unknown, input: unknown): unknown;
  /**
   * The pks of table `key` (the same array while the table is unchanged), `undefined` when there is no
   * such table. For reads of whole tables (`schema.All`): they depend on every write to the table.
   */
  tablePks(key: string): readonly string[] | undefined;
  /** Reads and builds the record `key`/`pk` through the memo (INVALID when missing or invalidated). */
  unvisitRecord(schema: TableSchema | Function, key: string, pk: string, plan?: object): unknown;
  /**
   * Referential stability for arrays and objects built from `input`: when the nested values read this
   * time (`parts`) are the same (===) as last time for this `input` and `shape` (what else the built
   * value depends on, e.g. the member names of an object schema), returns the value built then;
   * otherwise calls `build` and remembers it.
   */
  stable<T>(input: object, shape: string, parts: readonly unknown[], build: () => T): T;
  /**
   * The list `input` of `itemSchema` read again where the last write changed it, reusing the previous
   * read's other items without visiting them; `undefined` when the list must be read whole.
   */
  patchList?(itemSchema: unknown, input: readonly unknown[]): unknown;
  /**
   * Reads the list `input` of `itemSchema` into `parts` (one read per position, INVALID or `undefined` for an item
   * the list drops) when `itemSchema` is an entity class the context reads by pk in one loop (without `unvisit`'s
   * dispatch and plan lookup per item); returns how many items are dropped. `undefined` (nothing read): read each
   * item with `unvisit`.
   */
  readList?(itemSchema: unknown, input: readonly unknown[], parts: unknown[]): number | undefined;
}

/** A schema whose values live in an entity table (Entity classes, Collections). */
export interface TableSchema {
  /** Builds the read value of a stored record; calls `register` with the value before reading nested records. */
  build(record: unknown, ctx: DenormalizeContext, register: (value: unknown) => void): unknown;
}

/**
 * Base class of the schema instances (`schema.Array`, `schema.Object`, `schema.Collection`,
 * `schema.Invalidate` and the collection adders): each knows how to normalize a value and read it back.
 */
export abstract class SchemaNode {
  /** A readable name for error messages, e.g. `[Todo]`. */
  abstract get label(): string;
  /** Turns `input` into its normalized form, writing entities through `ctx`. */
  abstract normalize(input: unknown, parent: unknown, key: string | undefined, ctx: NormalizeContext): unknown;
  /** Turns a normalized value back into instances (or INVALID). */
  abstract denormalize(input: unknown, ctx: DenormalizeContext): unknown;
  /**
   * What a read of this schema straight from the tables starts from (`queryKey`); `undefined` when the
   * store cannot answer. `keyOf` reads a nested schema. Without it, only a stored result can be read.
   */
  queryKey?(args: readonly unknown[], entities: EntityTables, keyOf: QueryKeyOf): unknown;
  /** Names the tables whose every write may change a read of this schema from the tables (`queryTables`). */
  queryTables?(visit: (schema: unknown) => void, addTable: (key: string) => void): void;
  /** A computed read (`schema.Query`): its result from `read`, which reads a schema from the query's input. */
  queryRead?(
    read: (schema: unknown) => DenormalizeResult<unknown>,
    args: readonly unknown[],
  ): DenormalizeResult<unknown>;
}

/** `queryKey` of a nested schema, as handed to `SchemaNode.queryKey`. */
export type QueryKeyOf = (schema: unknown, args: readonly unknown[], entities: EntityTables) => unknown;
