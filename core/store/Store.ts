import { BehaviorSubject, Observable, Subject } from 'rxjs';
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
 *
 * States handed out (`getState()`, `state$`) never change. Between two such hand-outs the tables the
 * reducer made are the store's alone (`#owned`), so later writes change them in place instead of
 * copying a whole table per write; handing a state out ends that ownership (a new, empty set).
 */
export class Store {
  readonly #subject: BehaviorSubject<State>;
  readonly #transitionSubject = new Subject<Transition>();
  /** The state now: the subject's value, kept here so that a write reads it without a call. */
  #state: State;
  /** Tables that no state handed out holds: the reducer may write them in place. */
  #owned = new WeakSet<object>();
  /**
   * How many writes are emitting now: a write made while one emits (by a subscriber, re-entrant) is announced
   * after the write it reacted to (see `ActionLog`).
   */
  emitting = 0;
  /** The last state handed out (its tables must stay as they are). */
  #exposed: State | undefined;
  /** The state, now and on every change (every state it emits is handed out). */
  declare readonly state$: Observable<State>;
  /** Every change with what it touched. */
  declare readonly transitions$: Observable<Transition>;

  static {
    storeInternals = (store) => ({ state: store.#subject, transitions: store.#transitionSubject });
  }

  constructor(initial: State) {
    this.#subject = new BehaviorSubject((this.#state = initial));
    // each subscriber gets the state as it is when its turn comes: a write that an earlier subscriber made
    // meanwhile (re-entrant) was emitted to it already, and the state it replaced is not emitted after it
    this.state$ = new Observable<State>((subscriber) => {
      let last: State | undefined;
      return this.#subject.subscribe(() => {
        const state = this.#state;
        if (state === last) return;
        this.#exposed = last = state;
        subscriber.next(state);
      });
    });
    this.transitions$ = this.#transitionSubject.asObservable();
  }

  /** The current state, handed out: it never changes (later writes copy what they change). */
  getState(): State {
    return (this.#exposed = this.#state);
  }

  /**
   * The current state for the store's own readers (the controller's reads), which hold nothing of it
   * past the next write: its tables may change in place afterwards.
   */
  get current(): State {
    return this.#state;
  }

  /** Applies an action; emits the new state and the transition when anything changed. */
  dispatch(action: Action): Transition;
  /**
   * Applies a change that its own module reduces (`reduce`, with the same contract as `reducer`): so
   * that code only some apps use (the merge of a snapshot) is not bundled with every store.
   */
  dispatch<A>(action: A, reduce: (state: State, action: A, owned: WeakSet<object>) => Transition): Transition;
  dispatch<A>(
    action: A,
    reduce: (state: State, action: A, owned: WeakSet<object>) => Transition = reducer as never,
  ): Transition {
    const current = this.#state;
    if (this.#exposed === current) {
      this.#owned = new WeakSet();
      this.#exposed = undefined;
    }
    const transition = reduce(current, action, this.#owned);
    if (transition.state !== current) {
      this.emitting++;
      try {
        this.#subject.next((this.#state = transition.state));
        this.#transitionSubject.next(transition);
      } finally {
        this.emitting--;
      }
    }
    return transition;
  }
}
