import { STRIDE, type Dependencies, type RecordNode } from './dependencies.js';

type ReaderSet = RecordNode | Set<RecordNode>;

/**
 * What a read may take as valid without walking it (see `ReadPass`): the memo's readers index, and when
 * the tables are one write past those of the result's last read, that read's version and the dirty mark
 * of the write's changes.
 */
export interface Trust {
  readonly readers: Readers;
  readonly from: number;
  readonly mark: number;
  /**
   * When a list read at `from` may be patched where the write changed it (see `patchList`): the records
   * the write changed, and the nodes it marked dirty.
   */
  readonly patch?: ChangeSet | undefined;
}

/** What one write changed: the records written, and the nodes that read them (directly or not). */
export interface ChangeSet {
  readonly changed: readonly (readonly [key: string, pk: string])[];
  readonly dirtied: readonly RecordNode[];
}

/**
 * Whether the write a read follows reached `node`: a record it reads changed, directly or not (it has the
 * write's dirty `mark`, was found valid in the tables the write started from, `from`, and `readers` lists it).
 * Its value most likely changed: it is built again at once rather than walked first, and a rebuild that read
 * the same values keeps its previous value (see `ReadPass`).
 */
export function reached(node: RecordNode, readers: Readers | undefined, mark: number, from: number): boolean {
  return mark !== 0 && node.dirty === mark && node.indexed === readers && node.validAt === from;
}

/**
 * The reverse of the memo's dependency lists: for each record (`key`, `pk`), the nodes whose value read
 * it. A write's changed records then lead straight to the nodes they may have changed, and to the nodes
 * that read those (`dirty`), so that a read after a write re-validates only those and trusts the others
 * (see `ReadPass`), instead of walking the dependencies of every record a list holds.
 *
 * It may list more readers than there are (a node rebuilt or dropped can stay listed): that costs a
 * needless validation, never a wrong value. It never lists fewer for a node it has `indexed`.
 */
export class Readers {
  readonly #byTable = new Map<string, Map<string, ReaderSet>>();
  /** Dirty marks given so far (each propagation marks with a new number). */
  #marks = 0;

  /** Lists `node` as a reader of each record in its dependencies. */
  add(node: RecordNode, deps: Dependencies): void {
    const byTable = this.#byTable;
    for (let i = 0; i < deps.length; i += STRIDE) {
      const key = deps[i + 1] as string;
      const pk = deps[i + 2] as string;
      let table = byTable.get(key);
      if (table === undefined) byTable.set(key, (table = new Map()));
      const readers = table.get(pk);
      if (readers === undefined) table.set(pk, node);
      else if (readers instanceof Set) readers.add(node);
      else if (readers !== node) table.set(pk, new Set([readers, node]));
    }
  }

  /** Stops listing `node` as a reader of the records in `deps` (its dependencies before a rebuild). */
  remove(node: RecordNode, deps: Dependencies): void {
    for (let i = 0; i < deps.length; i += STRIDE) {
      const table = this.#byTable.get(deps[i + 1] as string);
      if (table === undefined) continue;
      const pk = deps[i + 2] as string;
      const readers = table.get(pk);
      if (readers === node) table.delete(pk);
      else if (readers instanceof Set) readers.delete(node);
    }
  }

  /**
   * Marks every node that read one of the `changed` records, directly or through other nodes, with a new
   * mark, and returns it: a node without it read none of them. The nodes marked are added to `dirtied`.
   */
  dirty(changed: readonly (readonly [key: string, pk: string])[], dirtied: RecordNode[]): number {
    const mark = ++this.#marks;
    const byTable = this.#byTable;
    const pending: RecordNode[] = [];
    for (const [key, pk] of changed) pushReaders(byTable, key, pk, mark, pending);
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      if (node.dirty === mark) continue;
      node.dirty = mark;
      dirtied.push(node);
      if (node.key !== '') pushReaders(byTable, node.key, node.pk, mark, pending);
    }
    return mark;
  }
}

/**
 * Adds the readers of `key`/`pk` not marked `mark` yet to `pending`. A function of its own, not a closure made
 * per write: a page's first writes run before the engine has gathered type feedback, and a closure made anew
 * each time gathers none.
 */
function pushReaders(
  byTable: Map<string, Map<string, ReaderSet>>,
  key: string,
  pk: string,
  mark: number,
  pending: RecordNode[],
): void {
  const readers = byTable.get(key)?.get(pk);
  if (readers === undefined) return;
  if (readers instanceof Set) {
    for (const node of readers) if (node.dirty !== mark) pending.push(node);
  } else if (readers.dirty !== mark) pending.push(readers);
}
