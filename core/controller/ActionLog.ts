/** The controller's action stream: every change after the store committed it, as a typed action. */
import { Subject, type Observable } from 'rxjs';
import type { Changes } from '../store/index.js';
import type { ControllerEndpoint } from './types.js';

/** What a committed change was. */
export type ControllerActionType =
  | 'fetch'
  | 'set'
  | 'setError'
  | 'invalidate'
  | 'expire'
  | 'optimistic'
  | 'rollback'
  | 'reset'
  | 'gc'
  | 'restore'
  | 'pushError';

/**
 * What a change touched in the state: entity records as `[entity key, pk]` and request keys (`'all'` after
 * a reset or a replacing restore), and whether the optimistic layers changed. `takeSnapshot(controller, { changes })`
 * turns it into the plain data another tab or a log needs.
 */
export type StateChanges = Changes;

/** One committed change, as `controller.actions$` emits it. */
export interface ControllerAction {
  readonly type: ControllerActionType;
  /** The request key it concerns, when it concerns one. */
  readonly key?: string | undefined;
  /** Every request key it concerns (`invalidateAll`, `expireAll`, a collection). */
  readonly keys?: readonly string[] | undefined;
  /** The endpoint, when the change came through one. */
  readonly endpoint?: ControllerEndpoint | undefined;
  /** The endpoint's arguments, when known. */
  readonly args?: readonly unknown[] | undefined;
  /** The error stored (`setError`), that rolled a mutation back (`rollback`), or of a pushed message that could not be applied (`pushError`). */
  readonly error?: Error | undefined;
  /** The pushed message that could not be applied (`pushError`). */
  readonly message?: unknown;
  /** What the change touched in the state (every action but `pushError`). */
  readonly changes?: StateChanges | undefined;
}

/** Where the controller's parts announce what they committed. */
export class ActionLog {
  readonly #subject = new Subject<ControllerAction>();
  /** Every committed change. */
  declare readonly actions$: Observable<ControllerAction>;

  constructor() {
    this.actions$ = this.#subject.asObservable();
  }

  /** Whether anyone listens (an action is only built then). */
  get observed(): boolean {
    return this.#subject.observed;
  }

  /** Announces a committed change. */
  emit(action: ControllerAction): void {
    this.#subject.next(action);
  }

  /** No more actions: listeners complete. */
  complete(): void {
    this.#subject.complete();
  }
}
