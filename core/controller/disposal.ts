/**
 * Which controllers were disposed, and the error of a call on one. A module of its own (it imports
 * nothing) so that the adapters can check a controller without bundling the controller.
 */

const disposed = new WeakSet<object>();

/** @internal Records that `controller` was disposed (`Controller#dispose`). */
export function markDisposed(controller: object): void {
  disposed.add(controller);
}

/** @internal The error of a call (`controller.fetch`, `restoreSnapshot`) on a disposed controller. */
export function disposedError(call: string): Error {
  return new Error(
    process.env.NODE_ENV !== 'production'
      ? `${call}() was called after controller.dispose(): this controller was disposed. Create a new Controller.`
      : `${call}(): disposed`,
  );
}

/**
 * @internal Throws the error of `call` (the function the user called: `'createQuery'`, `'observeInfinite'`)
 * when `controller` was disposed, before that function reaches a verb that would name itself. Development only:
 * a production build (whose message is only `<call>(): disposed`) leaves the check to that verb, and this code out.
 */
export function assertAlive(controller: object, call: string): void {
  if (process.env.NODE_ENV !== 'production' && disposed.has(controller)) throw disposedError(call);
}

/**
 * @internal In development, what an adapter's `createMutation` gives `observeMutation` for `controller` (whose only
 * use of it is `fetch`): a `fetch` that, on a disposed controller, rejects with the error of `call` (`'createMutation(...).mutate'`,
 * what the user called) instead of `controller.fetch`'s, so that the mutation's state shows that error too. The
 * adapter calls it only when `process.env.NODE_ENV !== 'production'`: a production build keeps the controller.
 */
export function fetchNamed<C extends { fetch(...args: never[]): Promise<unknown> }>(controller: C, call: string): C {
  const fetch = (...args: never[]) =>
    disposed.has(controller) ? Promise.reject(disposedError(call)) : controller.fetch(...args);
  return { fetch } as unknown as C;
}
