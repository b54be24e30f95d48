/**
 * What the review10 test files share: todo rows, controllers disposed after each test, a test environment
 * (online, visible, focus) and small helpers to count requests and watch a promise settle.
 */
import { expect } from 'vitest';
import { Controller } from '../../core/index.js';
import { TodoResource } from '../fixtures/todoResource.js';
import { record, settled } from '../fixtures/streams.js';
import type { createTodoServer } from '../fixtures/todoServer.js';
import { gate, type Held } from './gate.js';

/** A todo as the server sends it. */
export const row = (id: number, title: string, completed = false) => ({
  id,
  userId: 1,
  title,
  completed,
  createdAt: '2024-01-01T00:00:00Z',
});

export { environment, useControllers } from '../fixtures/controllers.js';

/** How many requests `METHOD /path` the fake server has seen. */
export const counter = (fake: ReturnType<typeof createTodoServer>) => (request: string) =>
  fake.requests.filter((r) => r === request).length;

/** The value through JSON, as a saved state is read back. */
export const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** What `outcome` saw of a promise. */
export interface Outcome<T> {
  value?: T;
  error?: unknown;
  done: boolean;
}

/** Watches a promise: `done` once it settled, with its `value` or `error`. */
export const outcome = <T>(promise: Promise<T>) => {
  const seen: Outcome<T> = { done: false };
  promise.then(
    (value) => Object.assign(seen, { value, done: true }),
    (error: unknown) => Object.assign(seen, { error, done: true }),
  );
  return seen;
};

/** Waits until the watched promise settled; checks that it resolved to a todo titled `title`. */
export async function resolvesTo(seen: Outcome<{ title: string }>, title: string) {
  await settled(() => expect(seen.done).toBe(true));
  expect(seen.error).toBeUndefined();
  expect(seen.value?.title).toBe(title);
}

/** Waits until the watched promise settled; checks that it rejected as an abort. */
export async function abortsWith(seen: Outcome<unknown>) {
  await settled(() => expect(seen.done).toBe(true));
  expect((seen.error as Error | undefined)?.name).toBe('AbortError');
}

/** Answers every held request that was not aborted with todo 1 titled `title`. */
export function answerLive(held: readonly Held[], title: string) {
  for (const h of held) if (!h.aborted) h.json(row(1, title));
}

/**
 * Holds the server's answers to GET /todos/:id, then `c` observes todo 1 and its request arrives: `held`
 * lists the held requests, `s` records what the observer sees.
 */
export async function observedWhileHeld(fake: ReturnType<typeof createTodoServer>, c: Controller) {
  const held = gate(fake, 'get', '/todos/:id');
  const s = record(c.observe(TodoResource.get, { id: 1 }));
  await settled(() => expect(held).toHaveLength(1));
  return { held, s };
}
