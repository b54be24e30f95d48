/** The store layer: the state shape, named actions, the pure reducer and the one BehaviorSubject. */
/** @internal The controller's one `BehaviorSubject` of the state; not part of the package's types. */
export { Store } from './Store.js';
export { reducer } from './reducer.js';
export type { Changes, Transition } from './reducer.js';
export { initialState, restoreState } from './state.js';
export { mergeAction, mergeState, snapshotOf } from './stateSnapshot.js';
/** @internal Checks a restored snapshot's records at their class's first use; not part of the package's types. */
export { checkLater } from './snapshotRecords.js';
/** @internal What writes the state as JSON names a value JSON cannot write; not part of the package's types. */
export { assertJsonSafe, warnJsonLosses } from './jsonSafe.js';
export type { MergeAction, SnapshotMeta, SnapshotOptions, StateSnapshot } from './stateSnapshot.js';
export type { OptimisticLayer, RequestMeta, State } from './state.js';
export type {
  Action,
  ErrorAction,
  InvalidateAction,
  OptimisticAction,
  ResetAction,
  ResponseAction,
  SetEntityAction,
} from './actions.js';
