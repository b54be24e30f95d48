/** The controller's action stream: every change after the store committed it, as a typed action. */
import { Subject, type Observable } from 'rxjs';
import type { ControllerAction } from './types.js';

/**
 * Where the controller's parts announce what they committed: a Subject of actions (`observed`: whether
 * anyone listens, an action is only built then; `complete()`: listeners complete), which only the
 * controller's parts see.
 */
export class ActionLog extends Subject<ControllerAction> {
  /** Every committed change (the Subject itself, read-only). */
  declare readonly actions$: Observable<ControllerAction>;

  constructor() {
    super();
    this.actions$ = this.asObservable();
  }

  /** Announces a committed change. */
  emit(action: ControllerAction): void {
    this.next(action);
  }
}
