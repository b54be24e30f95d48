/**
 * rx-rest/devtools: the store in the Redux DevTools browser extension. Every committed change is sent
 * as a plain action with the state after it (`takeSnapshot(controller)`), and the extension's time travel
 * is applied with `restoreSnapshot(controller, state, { replace: true })`.
 *
 * @example
 * import { connectDevtools } from 'rx-rest/devtools';
 */
import {
  restoreSnapshot,
  takeSnapshot,
  type Controller,
  type ControllerAction,
  type ControllerActionType,
  type StateChanges,
} from '../../core/index.js';

/** What `connectDevtools` takes besides the controller. */
export interface DevtoolsOptions {
  /** The instance name in the extension's list. Default: the extension's (the page title). */
  readonly name?: string | undefined;
  /** How many actions the extension keeps (its default: 50). */
  readonly maxAge?: number | undefined;
  /** Action types the extension hides (regular expressions as strings), e.g. `'rx-rest/gc'`. */
  readonly actionsDenylist?: string | readonly string[] | undefined;
}

/** A controller action as the extension receives it: plain data (no endpoint object, errors as their message). */
export interface DevtoolsAction {
  /** `'rx-rest/'` and the action's type: `'rx-rest/fetch'`, `'rx-rest/invalidate'`, ... */
  readonly type: `rx-rest/${ControllerActionType}`;
  /** The request key it concerns, when it concerns one. */
  readonly key?: string | undefined;
  /** Every request key it concerns. */
  readonly keys?: readonly string[] | undefined;
  /** The endpoint's name (`'Todo.get'`), when the change came through one. */
  readonly endpoint?: string | undefined;
  /** The endpoint's HTTP method. */
  readonly method?: string | undefined;
  /** The endpoint's arguments, as JSON gives them back. */
  readonly args?: unknown;
  /** The error's message (`setError`, `rollback`, `pushError`). */
  readonly error?: string | undefined;
  /** The pushed message that could not be applied (`pushError`), as JSON gives it back. */
  readonly message?: unknown;
  /** What the change touched: records as `[entity key, pk]`, request keys. */
  readonly changes?: StateChanges | undefined;
}

/** A message of the extension to the page (`DISPATCH` with `JUMP_TO_STATE`, `JUMP_TO_ACTION`, `RESET`, ...). */
export interface DevtoolsMessage {
  readonly type: string;
  readonly payload?: {
    readonly type?: string;
    /** `IMPORT_STATE`: the imported history; its last computed state is applied. */
    readonly nextLiftedState?: { readonly computedStates?: readonly { readonly state?: unknown }[] };
  };
  /** The state to apply, as JSON (`JUMP_TO_STATE`, `JUMP_TO_ACTION`, `ROLLBACK`). */
  readonly state?: string;
}

/** One connection to the extension: what `window.__REDUX_DEVTOOLS_EXTENSION__.connect(options)` returns. */
export interface DevtoolsConnection {
  /** Starts the history with this state. */
  init(state: unknown): void;
  /** Adds an action and the state after it (`null` and a lifted state: replaces the history). */
  send(action: DevtoolsAction | null, state: unknown): void;
  /** Listens to the monitor's messages; returns what removes the listener. */
  subscribe(listener: (message: DevtoolsMessage) => void): (() => void) | undefined;
  /** Removes every listener of this connection. */
  unsubscribe(): void;
}

/** The extension's page object, `window.__REDUX_DEVTOOLS_EXTENSION__`. */
export interface DevtoolsExtension {
  /** Opens a connection: one instance in the extension's list. */
  connect(options: object): DevtoolsConnection;
}

// the extension can only go back to states it holds, not replay or skip actions: only these buttons
const FEATURES = { pause: true, export: true, import: 'custom', jump: true };

const warn = (what: string, error: unknown) =>
  console.warn(`rx-rest/devtools: ${what}: ${error instanceof Error ? error.message : String(error)}`, error);

/** A JSON copy of a value (what the extension would send back), or its text when JSON cannot hold it. */
function plain(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}

/** A controller action as plain data. */
function plainAction(action: ControllerAction): DevtoolsAction {
  return {
    type: `rx-rest/${action.type}`,
    key: action.key,
    keys: action.keys,
    endpoint: action.endpoint?.name,
    method: action.endpoint?.method,
    args: plain(action.args),
    error: action.error?.message,
    message: plain(action.message),
    changes: action.changes,
  };
}

/**
 * Reports every action of `controller` and the state after it to the Redux DevTools extension, and
 * applies its time travel (jump to a state or action, reset, commit, rollback, import) to the store; while
 * the monitor's recording is paused, no action is sent.
 * A state applied from the extension is not reported back. Where the extension is absent (Node, server
 * rendering, a browser without it) it does nothing. A message it cannot apply is warned about
 * (`console.warn`) and ignored. Returns a teardown that stops both directions; works as a manager.
 *
 * @example
 * const controller = new Controller({ managers: [(c) => connectDevtools(c, { name: 'todos' })] });
 */
export function connectDevtools(controller: Controller, options: DevtoolsOptions = {}): () => void {
  const extension = (globalThis as { window?: { __REDUX_DEVTOOLS_EXTENSION__?: DevtoolsExtension } }).window
    ?.__REDUX_DEVTOOLS_EXTENSION__;
  if (typeof extension?.connect !== 'function') return () => {};
  const { name, maxAge, actionsDenylist } = options;
  let connection: DevtoolsConnection;
  try {
    // a fresh object: the extension writes its instance id into it
    connection = extension.connect({ name, maxAge, actionsDenylist, features: { ...FEATURES } });
  } catch (error) {
    warn('could not connect to Redux DevTools', error);
    return () => {};
  }
  const current = () => takeSnapshot(controller, { invalid: true });
  const initial = current();
  let applying = false;
  let paused = false; // the monitor's "pause recording" (a feature it was told of): actions are not sent
  /** Takes a state of the extension as the whole store (not reported back), then `after`. */
  const apply = (state: unknown, after?: () => void) => {
    applying = true;
    try {
      restoreSnapshot(controller, state, { replace: true });
    } finally {
      applying = false;
    }
    after?.();
  };
  const init = () => connection.init(current());
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let actions: { unsubscribe(): void } | undefined;
  const teardown = () => {
    if (closed) return;
    closed = true;
    actions?.unsubscribe();
    try {
      if (typeof unsubscribe === 'function') unsubscribe();
      connection.unsubscribe();
    } catch (error) {
      warn('could not unsubscribe from Redux DevTools', error);
    }
  };

  // (a disposed controller's completes at once, before `actions` is set: the teardown runs then)
  actions = controller.actions$.subscribe({
    next(action) {
      if (paused || (applying && action.type === 'restore')) return;
      try {
        connection.send(plainAction(action), current());
      } catch (error) {
        warn('could not send an action to Redux DevTools', error);
      }
    },
    // the controller was disposed (also when connectDevtools was called by hand, not as a manager)
    complete: () => teardown(),
  });
  const listener = (message: DevtoolsMessage) => {
    const payload = message?.type === 'DISPATCH' ? message.payload : undefined;
    try {
      switch (payload?.type) {
        case 'JUMP_TO_STATE':
        case 'JUMP_TO_ACTION':
          return apply(JSON.parse(message.state!));
        case 'RESET':
          return apply(initial, init);
        case 'COMMIT':
          return init();
        case 'ROLLBACK':
          return apply(JSON.parse(message.state!), init);
        case 'PAUSE_RECORDING': {
          // its status, or (as zustand's middleware reads it) a toggle; the next send after it holds the whole state
          const status = (payload as { status?: unknown }).status;
          paused = typeof status === 'boolean' ? status : !paused;
          return;
        }
        case 'IMPORT_STATE': {
          const lifted = payload.nextLiftedState;
          return apply(lifted?.computedStates?.at(-1)?.state, () => connection.send(null, lifted));
        }
      }
    } catch (error) {
      warn(`ignored a ${payload?.type} message of Redux DevTools`, error);
    }
  };
  if (!closed)
    try {
      init();
      unsubscribe = connection.subscribe(listener);
    } catch (error) {
      warn('could not subscribe to Redux DevTools', error);
    }
  return teardown;
}

export { mountDevtools } from './mount.js';
export type { MountDevtoolsOptions } from './mount.js';
export type { DevtoolsPosition } from './styles.js';
