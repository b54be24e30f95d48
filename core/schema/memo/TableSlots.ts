import { emptyTable, ownValue } from '../safeObject.js';
import { INVALID } from '../special.js';
import { tablePks } from '../tableDerived.js';
import type { EntityTables } from '../types.js';
import { STRIDE, nodesCarriedTo, type Dependencies, type RecordNode } from './dependencies.js';

const NO_TABLES = Object.freeze(emptyTable()) as EntityTables;

/** Where a memo keeps its nodes: by table version, and the last node map made for each table key. */
export interface NodeMaps {
  readonly tables: WeakMap<object, Map<string, RecordNode>>;
  readonly latest: Map<string, Map<string, RecordNode>>;
}

/**
 * The tables a read has used, each with its node map: `[key, table, node map, key, ...]` (a few: a scan
 * beats a lookup), up to `#used`; the slots past it are cleared and kept for the next read.
 */
export class TableSlots {
  readonly slots: unknown[] = [];
  #used = 0;
  /** The tables read. */
  entities: EntityTables = NO_TABLES;
  readonly #maps: NodeMaps;

  constructor(maps: NodeMaps) {
    this.#maps = maps;
  }

  /** Reads `entities` from now on (the slots of other tables are dropped). */
  use(entities: EntityTables): void {
    if (entities === this.entities) return;
    this.slots.fill(undefined, 0, this.#used);
    this.#used = 0;
    this.entities = entities;
  }

  /**
   * Where table `key` is in `slots` (added on first use): the table at the slot + 1, its node map at + 2;
   * -1 when there is no such table. A table the memo has not seen yet (a new version of it) takes over
   * the nodes of the previous version's pks it still holds.
   */
  slotOf(key: string): number {
    const slots = this.slots;
    const used = this.#used;
    for (let i = 0; i < used; i += 3) if (slots[i] === key) return i;
    const table = ownValue(this.entities, key);
    if (table === undefined) return -1;
    const maps = this.#maps;
    let nodes = maps.tables.get(table);
    if (nodes === undefined) {
      const previous = maps.latest.get(key);
      nodes = previous ? nodesCarriedTo(table, previous) : new Map<string, RecordNode>();
      maps.tables.set(table, nodes);
      maps.latest.set(key, nodes);
    }
    slots[used] = key;
    slots[used + 1] = table;
    slots[used + 2] = nodes;
    this.#used = used + 3;
    return used;
  }

  /** Whether each read of `deps` gives the value it recorded, as the nodes hold now. */
  holdValues(deps: Dependencies): boolean {
    for (let i = 0; i < deps.length; i += STRIDE)
      if (this.currentValue(deps[i + 1] as string, deps[i + 2] as string) !== deps[i + 3]) return false;
    return true;
  }

  /** The value the node of `key`/`pk` holds now: INVALID when the record is missing, `undefined` when not built. */
  currentValue(key: string, pk: string): unknown {
    const slot = this.slotOf(key);
    const record = slot < 0 ? undefined : ownValue(this.slots[slot + 1] as EntityTables[string], pk);
    if (typeof record !== 'object' || record === null) return INVALID;
    const node = (this.slots[slot + 2] as Map<string, RecordNode>).get(pk);
    return node !== undefined && node.record === record ? node.value : undefined;
  }

  /** The pks of table `key` (the same array while the table is unchanged); `undefined` without such a table. */
  pks(key: string): readonly string[] | undefined {
    const table = ownValue(this.entities, key);
    if (table === undefined) return undefined;
    let pks = tablePks.get(table);
    if (!pks) tablePks.set(table, (pks = Object.keys(table)));
    return pks;
  }
}
