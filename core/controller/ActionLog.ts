/** The controller's action stream: every change after the store committed it, as a typed action. */
import { Subject, type Observable } from 'rxjs';
import type { ControllerAction } from './types.js';

/**
 * Where the controller's parts announce what they committed: a Subject of actions (`observed`: whether
 * anyone listens, an action is only built then; `complete()`: listeners complete), which only the
 * controller's parts see.
 *
 * Actions come out in the order their writes were made. A part announces its write after the store emitted it,
 * and a subscriber may write while the store emits (re-entrant): that write is announced first, though it was
 * made after. So an action announced while `depth()` writes emit (the writes around it, made before it) waits at
 * that depth until the write that caused it is announced, which takes along, after itself, what waits deeper; an
 * action announced while actions are delivered (an `actions$` subscriber that writes) comes after them.
 */
export class ActionLog extends Subject<ControllerAction> {
  /** Every committed change (the Subject itself, read-only). */
  declare readonly actions$: Observable<ControllerAction>;
  /** How many writes emit now (the store's `emitting`). */
  readonly #depth: () => number;
  /** The actions of writes made while others emitted, by depth, in the order they were made. */
  readonly #waiting: ControllerAction[][] = [];
  /** The actions being delivered, and whether a delivery runs. */
  readonly #out: ControllerAction[] = [];
  #delivering = false;
  /** A microtask delivers what waits when its cause announces nothing (a write that changed no record). */
  #late = false;

  constructor(depth: () => number = () => 0) {
    super();
    this.#depth = depth;
    this.actions$ = this.asObservable();
  }

  /** Announces a committed change. */
  emit(action: ControllerAction): void {
    const depth = this.#depth();
    const waiting = this.#waiting;
    if (depth === 0 && waiting.length === 0 && !this.#delivering) return this.next(action); // the usual write
    // the action, then what writes it caused (waiting deeper) made
    const actions = [action];
    for (let level = depth + 1; level < waiting.length; level++)
      actions.push(...(waiting[level] as ControllerAction[]));
    if (waiting.length > depth + 1) waiting.length = depth + 1;
    if (depth === 0) return this.#deliver(actions);
    while (waiting.length <= depth) waiting.push([]);
    (waiting[depth] as ControllerAction[]).push(...actions);
    if (!this.#late) {
      this.#late = true;
      queueMicrotask(() => {
        this.#late = false;
        if (this.#depth() === 0 && waiting.length > 0) this.#deliver(waiting.splice(0).flat());
      });
    }
  }

  /** Delivers `actions` in order, after the ones being delivered. */
  #deliver(actions: readonly ControllerAction[]): void {
    const out = this.#out;
    out.push(...actions);
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let i = 0; i < out.length; i++) this.next(out[i] as ControllerAction);
    } finally {
      out.length = 0;
      this.#delivering = false;
    }
  }
}
