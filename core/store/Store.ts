import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import type { Action } from './actions.js';
import { reducer, type Transition } from './reducer.js';
import type { State } from './state.js';

/** @internal The store's subjects, for tests that count their observers (not exported by the package). */
export let storeInternals: (store: Store) => {
  readonly state: BehaviorSubject<State>;
  readonly transitions: Subject<Transition>;
};

/**
 * The one store: a `BehaviorSubject<State>` changed only by dispatching actions through `reducer`.
 * `transitions$` tells, for each change, what changed (query streams recompute only what it touches).
 */
export class Store {
  readonly #subject: BehaviorSubject<State>;
  readonly #transitionSubject = new Subject<Transition>();
  /** The state, now and on every change. */
  declare readonly state$: Observable<State>;
  /** Every change with what it touched. */
  declare readonly transitions$: Observable<Transition>;

  static {
    storeInternals = (store) => ({ state: store.#subject, transitions: store.#transitionSubject });
  }

  constructor(initial: State) {
    this.#subject = new BehaviorSubject(initial);
    this.state$ = this.#subject.asObservable();
    this.transitions$ = this.#transitionSubject.asObservable();
  }

  /** The current state. */
  getState(): State {
    return this.#subject.getValue();
  }

  /** Applies an action; emits the new state and the transition when anything changed. */
  dispatch(action: Action): Transition {
    const transition = reducer(this.#subject.getValue(), action);
    if (transition.state !== this.#subject.getValue()) {
      this.#subject.next(transition.state);
      this.#transitionSubject.next(transition);
    }
    return transition;
  }
}
