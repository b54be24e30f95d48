/**
 * The options of the request runner (Requests.ts): its policy and clock, what it tells its cache, and
 * how one value is written for a key.
 */
import type { SchedulerLike } from 'rxjs';
import type { RequestPolicy } from './retry.js';

/** What requests need besides their store: the policy, the clock and where retry waits are scheduled. */
export interface RequestOptions extends RequestPolicy {
  /** The clock (ms since the epoch). */
  readonly now: () => number;
  /** Where retry waits are scheduled (`undefined`: the global timers). */
  readonly scheduler: SchedulerLike | undefined;
}

/** What the requests tell their cache. */
export interface RequestListener {
  /** A request for `key` started, paused, resumed or ended: its observers re-read (`fetching`, `paused`). */
  onFetchingChange(key: string): void;
  /** A response or error was written for `key`. */
  onWritten(key: string): void;
}

/** How a value is written for a key. */
export interface WriteOptions {
  /** The value is an error (else a response to normalize). */
  readonly isError: boolean;
  /** When its request started (ordering); default: `date`. */
  readonly fetchedAt?: number | undefined;
  /** The stamp of its entity records, when older than `fetchedAt` (see `ResponseAction.entitiesAt`). */
  readonly entitiesAt?: number | undefined;
  /** The optimistic layer it replaces. */
  readonly settles?: number | undefined;
  /** A response of a request (`fetch`), not one given by `setResponse` (`set`). */
  readonly fetched?: boolean | undefined;
  /** When it arrived; default: now. */
  readonly date?: number | undefined;
}
