/**
 * Real-time sources: `controller.connect(source$, apply)` subscribes to any RxJS source (rxjs's
 * `webSocket`, an `EventSource` wrapped in an Observable, a Subject) and applies each message to the
 * store. A message that `apply` cannot apply (a wrong shape, an unknown entity, a value without a pk) is
 * reported and skipped: it never ends the connection. An error of the source resubscribes after the
 * retry delays (attempt 0, 1, ... reset by the next message); completing it ends the connection.
 */
import { Subscription, type Observable, type SchedulerLike } from 'rxjs';
import type { RetryDelay } from '../endpoint/index.js';
import { delayOf } from './retry.js';
import { after } from './timers.js';
import type { ActionLog } from './ActionLog.js';
import { toError } from '../errors.js';

/** How a connection waits before it resubscribes (the controller's options). */
export interface ConnectPolicy {
  readonly retryDelay: RetryDelay;
  /** Where the waits before resubscribing are scheduled (`undefined`: the global `setTimeout`). */
  readonly scheduler: SchedulerLike | undefined;
}

/**
 * Subscribes to `source$` until the returned subscription ends; see the module header. A message `apply`
 * throws on is reported on `log` (a `pushError`) and skipped.
 */
export function connectSource<T>(
  source$: Observable<T>,
  apply: (message: T) => void,
  policy: ConnectPolicy,
  log: ActionLog,
): Subscription {
  const connection = new Subscription();
  let attempt = 0;
  const start = () => {
    if (connection.closed) return;
    connection.add(
      source$.subscribe({
        next: (message) => {
          attempt = 0;
          try {
            apply(message);
          } catch (error) {
            if (log.observed) log.emit({ type: 'pushError', error: toError(error), message });
          }
        },
        error: (error: unknown) => {
          connection.add(after(delayOf(policy.retryDelay, attempt++, toError(error)), start, policy.scheduler));
        },
      }),
    );
  };
  start();
  return connection;
}
