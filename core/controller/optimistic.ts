import { CollectionAdder, Invalidate, jsonEqual, normalizeInto, type EntityTables } from '../schema/index.js';
import type { OptimisticLayer, State } from '../store/index.js';
import type { ControllerEndpoint, StoreSnapshot } from './types.js';

/** No optimistic response for this call. */
export const NO_LAYER: unique symbol = Symbol('rx-rest.noLayer') as never;

/**
 * The expected response of an optimistic mutation, as API.md fixes it: update -> URL params + body;
 * partialUpdate -> the same partial, merged into the stored entity when normalized; delete (an
 * Invalidate schema) -> what `process` makes of the params; push/unshift -> the new item (its body).
 * An endpoint may give its own `getOptimisticResponse(snapshot, ...args)`.
 */
export function expectedResponse(
  endpoint: ControllerEndpoint,
  args: readonly unknown[],
  snapshot: StoreSnapshot,
): unknown {
  if (typeof endpoint.getOptimisticResponse === 'function') return endpoint.getOptimisticResponse(snapshot, ...args);
  if (!endpoint.optimistic || !endpoint.sideEffect) return NO_LAYER;
  const schema = endpoint.schema;
  const [urlArgs, body] = args as [unknown, unknown];
  const isInvalidate = schema instanceof Invalidate || (Array.isArray(schema) && schema[0] instanceof Invalidate);
  if (isInvalidate) return endpoint.process ? endpoint.process(undefined, ...args) : urlArgs;
  if (schema instanceof CollectionAdder) return args.length > 1 ? body : urlArgs;
  if (endpoint.method === 'PUT' || endpoint.method === 'PATCH') {
    return { ...(urlArgs as object | undefined), ...(body as object | undefined) };
  }
  return NO_LAYER;
}

/** The entity tables observers read: the base state with every optimistic layer applied, in order. */
export interface EffectiveEntities {
  readonly base: State['entities'];
  readonly layers: readonly OptimisticLayer[];
  readonly entities: EntityTables;
  /** Records the layers wrote (changing when a layer comes or goes). */
  readonly touched: readonly (readonly [string, string])[];
}

/**
 * Applies the optimistic layers over the base tables. A layer whose expected response does not fit
 * its schema is skipped (the real response will tell). Records equal to the previous computation keep
 * their identity, so unrelated writes under a pending layer do not look like changes.
 */
export function applyLayers(state: State, previous: EffectiveEntities | undefined): EffectiveEntities {
  if (previous && previous.base === state.entities && previous.layers === state.optimistic) return previous;
  if (state.optimistic.length === 0)
    return { base: state.entities, layers: state.optimistic, entities: state.entities, touched: [] };
  let tables = { entities: state.entities, entitiesMeta: state.entitiesMeta };
  const touched: (readonly [string, string])[] = [];
  for (const layer of state.optimistic) {
    try {
      // the entities' validators do not run: the expected response is the app's own guess (a partial
      // update holds only what changed), and the real response is validated when it arrives
      const applied = normalizeInto(
        layer.schema,
        // an endpoint's own getOptimisticResponse runs again over the layers below (see Requests#addLayer)
        layer.again?.(tables.entities) ?? layer.response,
        layer.args,
        tables,
        { fetchedAt: layer.fetchedAt, date: layer.fetchedAt, expiresAt: layer.fetchedAt },
        undefined,
        false,
      );
      tables = applied;
      touched.push(...applied.changed);
    } catch {
      // an expected response that does not normalize (no pk yet, say) shows nothing until the real one
    }
  }
  const entities = tables.entities;
  if (previous) {
    for (const [key, pk] of touched) {
      const before = previous.entities[key]?.[pk];
      const table = entities[key];
      if (table && table !== state.entities[key] && before !== undefined && jsonEqual(table[pk], before))
        table[pk] = before;
    }
  }
  return { base: state.entities, layers: state.optimistic, entities, touched };
}
