import { BehaviorSubject, Observable } from 'rxjs';
import type { Action } from './actions.js';
import { reducer, type Transition } from './reducer.js';
import type { State } from './state.js';
import { reportLater } from '../errors.js';
import { jsonChecked } from './jsonSafe.js';

/** @internal The store's subjects, for tests that count their observers (not exported by the package). */
export let storeInternals: (store: Store) => {
  readonly state: BehaviorSubject<State>;
  readonly transitions: readonly unknown[];
};

/** A listener of the store's transitions, and whether it still listens (see `Store.listen`). */
interface Listener {
  readonly next: (transition: Transition) => void;
  active: boolean;
}

/**
 * The one store: a `BehaviorSubject<State>` changed only by dispatching actions through `reducer`.
 * `listen` tells, for each change, what changed (query streams recompute only what it touches).
 *
 * States handed out (`getState()`, `state$`) never change. Between two such hand-outs the tables the
 * reducer made are the store's alone (`#owned`), so later writes change them in place instead of
 * copying a whole table per write; handing a state out ends that ownership (a new, empty set).
 */
export class Store {
  readonly #subject: BehaviorSubject<State>;
  /** The transitions' listeners: a new array on each change, so that an emission runs the ones it started with. */
  #listeners: readonly Listener[] = [];
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

  static {
    storeInternals = (store) => ({ state: store.#subject, transitions: store.#listeners });
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
        subscriber.next(jsonChecked(state));
      });
    });
  }

  /**
   * Calls `next` with every change and what it touched (query streams recompute only what it touches), after the
   * state's subscribers, until the returned function is called. A plain call per write, not an rxjs subject's
   * chain: the query cache listens to every write. A listener that throws is reported in a microtask of its own (`reportLater`).
   */
  listen(next: (transition: Transition) => void): () => void {
    const listener: Listener = { next, active: true };
    this.#listeners = [...this.#listeners, listener];
    return () => {
      listener.active = false;
      this.#listeners = this.#listeners.filter((other) => other !== listener);
    };
  }

  /** The current state, handed out: it never changes (later writes copy what they change). */
  getState(): State {
    return jsonChecked((this.#exposed = this.#state));
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
        this.#state = transition.state;
        // the state's subscribers read `#state` (the subject is their signal): none, no call
        if (this.#subject.observed) this.#subject.next(transition.state);
        const listeners = this.#listeners;
        for (let i = 0; i < listeners.length; i++) {
          const listener = listeners[i]!;
          if (!listener.active) continue;
          try {
            listener.next(transition);
          } catch (error) {
            reportLater(error);
          }
        }
      } finally {
        this.emitting--;
      }
    }
    return transition;
  }
}
