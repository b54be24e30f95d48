/** The controller's action stream: every change after the store committed it, as a typed action. */
import { Subject, type Observable } from 'rxjs';
import type { ControllerAction } from './types.js';

/**
 * Where the controller's parts announce what they committed: a Subject of actions (`observed`: whether
 * anyone listens, an action is only built then; `complete()`: listeners complete), which only the
 * controller's parts see.
 *
 * Actions come out in the order their writes were made. A part announces its write after the store emitted it,
 * and a subscriber may write while the store emits (re-entrant): that write is announced before the one it
 * reacted to, though made after it. So an action announced while writes emit (`depth()` of them) waits, and the
 * write that caused it, announced later from a lower depth, goes before what waits deeper; the writes of an
 * `actions$` subscriber come after the actions being delivered.
 */
export class ActionLog extends Subject<ControllerAction> {
  /** Every committed change (the Subject itself, read-only). */
  declare readonly actions$: Observable<ControllerAction>;
  /** How many writes emit now (the store's `emitting`). */
  readonly #depth: () => number;
  /** The actions waiting, as (depth, action) pairs in the order their writes were made (depth -1: released). */
  readonly #waiting: unknown[] = [];
  #delivering = false;

  constructor(depth: () => number = () => 0) {
    super();
    this.#depth = depth;
    this.actions$ = this.asObservable();
  }

  /** Announces a committed change. */
  emit(action: ControllerAction): void {
    const depth = this.#depth();
    const waiting = this.#waiting;
    if (depth + waiting.length === 0) return this.next(action); // the usual write
    // before the actions of the writes it caused (announced already, from deeper)
    let at = waiting.length;
    while (at > 0 && (waiting[at - 2] as number) > depth) at -= 2;
    waiting.splice(at, 0, depth, action);
    // a cause that announces nothing (a write that changed no record) leaves them to the end of the task
    if (depth > 0) return queueMicrotask(() => this.#depth() || this.#release());
    this.#release();
  }

  /** Delivers what waits, in order (their order is final), and what is announced meanwhile after it. */
  #release(): void {
    const waiting = this.#waiting;
    for (let i = 0; i < waiting.length; i += 2) waiting[i] = -1;
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let i = 1; i < waiting.length; i += 2) this.next(waiting[i] as ControllerAction);
    } finally {
      waiting.length = 0;
      this.#delivering = false;
    }
  }
}
