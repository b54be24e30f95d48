/**
 * A mutation with state, over `controller.fetch`: what the adapters' `createMutation` shows as
 * `pending`, `error` and `data`.
 */
import { BehaviorSubject, type Observable } from 'rxjs';
import type { Controller } from './Controller.js';
import type { ControllerEndpoint, EndpointArgs, EndpointData } from './types.js';

/** A mutation's state: that of the latest `mutate` call. */
export interface MutationState<T> {
  /** The latest call is in flight. */
  readonly pending: boolean;
  /** The latest call failed with this error. */
  readonly error: Error | undefined;
  /** What the latest call resolved. */
  readonly data: T | undefined;
}

/** A mutation: its state and the verbs that change it. */
export interface Mutation<E extends ControllerEndpoint> {
  /** The state, now (on subscribe) and on every change. */
  readonly state$: Observable<MutationState<EndpointData<E>>>;
  /** The current state. */
  getState(): MutationState<EndpointData<E>>;
  /**
   * Runs `controller.fetch(endpoint, ...args)` and returns that promise. A failure also shows as
   * `error`; a caller that does not await it gets no unhandled rejection.
   */
  mutate(...args: EndpointArgs<E>): Promise<EndpointData<E>>;
  /** Back to the idle state; calls in flight still resolve but no longer change it. */
  reset(): void;
}

const IDLE: MutationState<never> = Object.freeze({ pending: false, error: undefined, data: undefined });

/**
 * A mutation with `pending`/`error`/`data` state. Each `mutate` call resolves its own result; the
 * state follows the latest call. Optimistic endpoints show in every observer at once, as with
 * `controller.fetch`.
 *
 * @example
 * const rename = observeMutation(controller, TodoResource.partialUpdate);
 * rename.state$.subscribe(({ pending, error }) => render(pending, error));
 * await rename.mutate({ id: 1 }, { title: 'Renamed' });
 */
export function observeMutation<E extends ControllerEndpoint>(controller: Controller, endpoint: E): Mutation<E> {
  type State = MutationState<EndpointData<E>>;
  const state = new BehaviorSubject<State>(IDLE);
  let latest = 0;
  const settle = (call: number, next: State) => call === latest && state.next(next);
  return {
    state$: state.asObservable(),
    getState: () => state.getValue(),
    mutate(...args) {
      const call = ++latest;
      state.next({ pending: true, error: undefined, data: undefined });
      const result = controller.fetch(endpoint, ...args);
      result.then(
        (data) => settle(call, { pending: false, error: undefined, data }),
        (error: unknown) =>
          settle(call, {
            pending: false,
            error: error instanceof Error ? error : new Error(String(error)),
            data: undefined,
          }),
      );
      return result;
    },
    reset() {
      latest++;
      state.next(IDLE);
    },
  };
}
