import { NO_DEPS, STRIDE, type Dependencies, type RecordNode } from './dependencies.js';

/**
 * The dependencies a read records, of every node being built, one after the other: a nested build finishes
 * (and takes its part off the end) before its parent records it, so each node's list is copied out once at
 * its exact length instead of growing an array of its own. A patched list (see patchList.ts) hands its
 * dependencies over whole instead.
 */
export class Recording {
  /** The slots recorded (slots past `top` are left to be overwritten, not cut off). */
  readonly slots: unknown[] = [];
  /** The end of the recording in `slots`. */
  top = 0;
  /** How far this read's recording reached (`clear` clears up to there). */
  #high = 0;
  /**
   * Where the recording of the innermost node being built starts (-1: not recording, validating); the
   * outer ones' are kept by the reader while it builds or validates a nested one.
   */
  start = 0;
  /** Dependencies handed over whole, for the recording that starts at `#handedAt`. */
  #handed: Dependencies | undefined = undefined;
  #handedAt = -1;
  /** The handed dependencies last taken whole (they read the same records as those they patched). */
  kept: Dependencies | undefined = undefined;
  /**
   * The node of the last read recorded, if it has one: the likely record of a node's one read (its list is
   * shared only when it holds the same read, see `take`).
   */
  #lastNode: RecordNode | undefined = undefined;

  /** Starts anew (a new pass). */
  reset(): void {
    this.top = 0;
    this.#handed = undefined;
    this.#handedAt = -1;
    this.kept = undefined;
    this.#lastNode = undefined;
    this.start = 0;
  }

  /** The read is over: drops every value recorded. */
  clear(): void {
    this.slots.fill(undefined, 0, Math.max(this.top, this.#high));
    this.#high = 0;
    this.reset();
  }

  /** Records a read of `key`/`pk` that gave `value` (the value of `node`, if given), unless validating. */
  record(schema: unknown, key: string, pk: string, value: unknown, node?: RecordNode): void {
    if (this.start < 0) return;
    const slots = this.slots;
    const top = this.top;
    slots[top] = schema;
    slots[top + 1] = key;
    slots[top + 2] = pk;
    slots[top + 3] = value;
    this.top = top + STRIDE;
    this.#lastNode = node;
  }

  /** Hands `deps` over whole to the recording that starts at `start` (where `top` is now). */
  hand(deps: Dependencies, start: number): void {
    this.#handed = deps;
    this.#handedAt = start;
  }

  /** Whether the recording from `start` on is dependencies handed over, and nothing after them. */
  handedOnly(start: number): boolean {
    return this.#handedAt === start && this.top === start;
  }

  /**
   * Copies the one read recorded since `top` into `into` at `at` and takes it off; false (and nothing
   * copied) when other than one read was recorded.
   */
  moveOne(top: number, into: unknown[], at: number): boolean {
    const one = this.top === top + STRIDE;
    if (one) for (let k = 0; k < STRIDE; k++) into[at + k] = this.slots[top + k];
    if (this.top > this.#high) this.#high = this.top;
    this.top = top;
    return one;
  }

  /** The dependencies recorded from `start` on, taken off the recording. */
  take(start: number): Dependencies {
    const top = this.top;
    if (this.#handedAt === start) {
      // a patched list: its dependencies handed over whole, then whatever was read after it
      const handed = this.#handed as Dependencies;
      this.#handed = undefined;
      this.#handedAt = -1;
      if (top === start) return (this.kept = handed);
      this.top = start;
      return handed.concat(this.slots.slice(start, top));
    }
    if (top === start) return NO_DEPS;
    if (top > this.#high) this.#high = top;
    this.top = start;
    const slots = this.slots;
    const node = this.#lastNode;
    if (node === undefined || top !== start + STRIDE) return slots.slice(start, top);
    // one read, most likely of `node`'s record: the list every node that read only that value shares (an
    // entity whose one nested entity is a user shared by many: one list per user, not per entity). A shared
    // list is never changed in place: only lists of one read per position of a long list are (patchList.ts).
    const sole = node.soleRead;
    let same = 0;
    if (sole !== undefined) while (same < STRIDE && sole[same] === slots[start + same]) same++;
    return same === STRIDE ? (sole as Dependencies) : (node.soleRead = slots.slice(start, top));
  }
}
