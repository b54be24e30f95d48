/**
 * What the add-ons keep from the garbage collector. A leaf module (controllerSnapshot.ts, which the
 * add-ons bundle for their snapshots, registers the hold), so that an add-on importing it through
 * `core/internal.ts` does not bundle the controller again.
 */

let hold: (controller: object, ms: number) => () => void;

/** @internal controllerSnapshot.ts gives the hold (once, as the module loads). */
export const registerHold = (given: typeof hold): void => {
  hold = given;
};

/**
 * @internal Keeps every record marked INVALID (deleted) in `controller`'s store, whatever the garbage
 * collector finds, for `ms` on its clock (at most its `gcTime`, as a request's pin) or until the returned
 * function is called: what an add-on needs while an older copy of a deleted record may still come in from
 * outside (a snapshot on its way from another tab, a save the storage has not written yet), so that the
 * merge refuses it. `controller` is a `Controller` (the add-ons checked it).
 */
export const holdTombstones = (controller: object, ms = Number.POSITIVE_INFINITY): (() => void) => hold(controller, ms);
