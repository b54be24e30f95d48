/**
 * The end of a task for the query streams whose subscribers all render once per task (`watchQuery`'s
 * `batch`): such a stream changed by a write waits here, and re-reads once, at the end of the task (a
 * microtask), however many writes the task made.
 */

import { reportLater } from '../errors.js';

/** A stream whose re-read waits (`QueryStream`). */
export interface Waiting {
  /** Runs the re-read that waits, if any. */
  flush(): void;
}

/** The streams whose re-read waits for the end of the task (`QueryStream.changed`), in the order they were changed. */
const waiting = new Set<Waiting>();
/** An end of the task is queued; `ending`: it runs now; `afterFlush`: what runs after its re-reads. */
let scheduled = false;
let ending = false;
const afterFlush: (() => void)[] = [];
/** What `onQueriesWait` registered. */
const listeners = new Set<() => void>();

/**
 * Re-reads at once every stream whose subscribers all render once per task (`watchQuery`'s `batch`) and
 * that a write of this task changed: what an adapter calls before a read outside its framework's
 * rendering (an event handler reading the state right after a write). Otherwise it runs at the end of the task.
 */
export function flushQueries(): void {
  for (const stream of waiting) {
    waiting.delete(stream);
    stream.flush();
  }
}

/**
 * The end of the task: the waiting re-reads, then what their emissions asked to run after them (`afterQueries`),
 * each of them: one that throws does not keep the others waiting (its error is thrown in a microtask of its own).
 */
function endOfTask(): void {
  scheduled = false;
  ending = true;
  try {
    flushQueries();
  } finally {
    ending = false;
    for (let run = afterFlush.shift(); run; run = afterFlush.shift()) {
      try {
        run();
      } catch (error) {
        reportLater(error);
      }
    }
  }
}

/**
 * Runs `run` once the waiting re-reads of the task have emitted: right after them when called from one of
 * their emissions at the end of the task, else in a microtask. An adapter commits what a task's emissions
 * set with it, so that the task's writes render in the same microtask as their re-read.
 */
export function afterQueries(run: () => void): void {
  if (ending) afterFlush.push(run);
  else queueMicrotask(run);
}

/**
 * Calls `listener` when a write makes a stream wait while none waited (a task's first write, or its first
 * after a `flushQueries`): an adapter whose reads in rendering flush (Svelte) marks them stale then, so
 * that its framework reads again. Returns the function that stops calling it.
 */
export function onQueriesWait(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `stream` waits for the end of the task (it re-reads then, or earlier through `flushQueries`; `flush` does nothing if it re-read meanwhile). */
export function waitForEndOfTask(stream: Waiting): void {
  const first = waiting.size === 0;
  waiting.add(stream);
  if (first) for (const listener of listeners) listener();
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(endOfTask);
}
