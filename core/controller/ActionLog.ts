/** The controller's action stream: every change after the store committed it, as a typed action. */
import { Subject, type Observable } from 'rxjs';
import type { ControllerAction } from './types.js';

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
