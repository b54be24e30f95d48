/**
 * `normalize`: a response into entity tables. Its parts live in normalize/: the visitor (`Normalizer.ts`),
 * the copy-on-write table writer (`TableWriter.ts`), the equality short-cuts (`unchanged.ts`) and the
 * checks of the input (`inputChecks.ts`).
 */
import { NormalizeError } from '../errors.js';
import { schemaLabel } from './schemaKind.js';
import { emptyTable } from './safeObject.js';
import { keepShape } from './shapeKeeper.js';
import { tooDeep } from './tooDeep.js';
import { Normalizer } from './normalize/Normalizer.js';
import { recordStep } from './writeSteps.js';
import type { EntityMeta, NormalizeResult, NormalizedTables } from './types.js';

/** The idle Normalizer kept for V8's sake (see shapeKeeper.ts). */
let shapeKeeper: Normalizer | undefined;

/** The empty tables: a store with nothing in it. */
export function emptyTables(): NormalizedTables {
  return { entities: emptyTable(), entitiesMeta: emptyTable() };
}

/**
 * Normalizes `input` (a response) with `schema` into entity tables. Pure: `state` is never changed;
 * the returned tables are copies only along the changed paths (unchanged tables and records keep their
 * identity). `args` are the request's arguments (collections are stored under them). `meta.fetchedAt`
 * is the request's start time: a record written by a newer request is never overwritten.
 *
 * @example
 * const { result, entities } = normalize([Todo], [{ id: 1, title: 'a' }]);
 * // result: ['1'], entities.Todo['1']: { id: 1, title: 'a' }
 */
export function normalize<R = unknown>(
  schema: unknown,
  input: unknown,
  args: readonly unknown[] = [],
  state: NormalizedTables = emptyTables(),
  meta?: Partial<EntityMeta>,
): NormalizeResult<R> {
  return normalizeInto<R>(schema, input, args, state, meta, undefined);
}

/**
 * `normalize` for the store: tables in `owned` are written in place (see `TableWriter`), the
 * roots are always new objects. `validates: false` skips the entities' validators (an optimistic layer). `since`:
 * the first stamp of the oldest mutation in flight, if any (see `Normalizer`).
 */
export function normalizeInto<R = unknown>(
  schema: unknown,
  input: unknown,
  args: readonly unknown[],
  state: NormalizedTables,
  meta: Partial<EntityMeta> | undefined,
  owned: WeakSet<object> | undefined,
  validates = true,
  since?: number,
): NormalizeResult<R> {
  shapeKeeper ??= keepShape(new Normalizer(emptyTables(), [], { date: 0, fetchedAt: 0, expiresAt: 0 }));
  const date = meta?.date ?? Date.now();
  const fullMeta: EntityMeta = { date, fetchedAt: meta?.fetchedAt ?? date, expiresAt: meta?.expiresAt ?? date };
  const normalizer = new Normalizer(state, args, fullMeta, owned, validates, since);
  let result: R;
  try {
    // at the top level the input is its own parent (as in data-client): pk(parent), process(input, parent)
    // and a polymorphic attribute (value, parent) see it
    result = normalizer.visit(schema, input, input, undefined) as R;
  } catch (error) {
    normalizer.writer.undo(); // all or nothing: the store's own tables are put back as they were
    throw tooDeep(error)
      ? new NormalizeError(
          schemaLabel(schema),
          process.env.NODE_ENV !== 'production'
            ? 'the input is nested too deeply to normalize (the stack ran out).'
            : 'depth',
          input,
        )
      : error;
  }
  const { entities, entitiesMeta, changed } = normalizer.writer;
  if (entities !== state.entities) recordStep(entities, state.entities, changed);
  return { result, entities, entitiesMeta, changed, keptNewerList: normalizer.keptNewerList };
}
