/** What the demos show as text: relative times from `Temporal.Instant`s, and short error reasons. */
import { NetworkError } from 'rx-rest';
import { Temporal } from 'temporal-polyfill';

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** `then` relative to `now`, rounded down to the largest whole unit; under a minute is "just now". */
export function timeAgo(then: Temporal.Instant, now: Temporal.Instant = Temporal.Now.instant()): string {
  const seconds = Math.round((now.epochMilliseconds - then.epochMilliseconds) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(-Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

/** The absolute time, for a tooltip. */
export function fullTime(then: Temporal.Instant): string {
  return new Date(then.epochMilliseconds).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A short reason for a failure ("404 Not Found", "no connection"); the full message goes in a tooltip. */
export function shortError(error: unknown): string {
  if (error instanceof NetworkError) {
    if (error.status === 0) return 'no connection';
    return `${error.status}${error.response?.statusText ? ` ${error.response.statusText}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
