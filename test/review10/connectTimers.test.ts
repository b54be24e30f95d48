/**
 * Outside review (API.md "Real-time: controller.connect(source$, apply) ... an error of source$ resubscribes
 * with the controller's retry delays"): the resubscription waits end with the subscription and with dispose.
 */
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A source that errors at once on every subscription, counting them. */
function failing() {
  const seen = { subscriptions: 0 };
  const source$ = new Observable<{ id: number; title: string }>((subscriber) => {
    seen.subscriptions++;
    subscriber.error(new Error('stream down'));
  });
  return { seen, source$ };
}

describe('connect retries', () => {
  it('resubscribes after the retry delays, and stops (no timer left) when the subscription ends', async () => {
    vi.useFakeTimers();
    const c = new Controller({ retryDelay: (n) => 100 * 2 ** n });
    const { seen, source$ } = failing();
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args));
    const subscription = c.connect(source$, (message, controller) => controller.set(Todo, message));
    expect(seen.subscriptions).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(seen.subscriptions).toBe(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(seen.subscriptions).toBe(3);
    subscription.unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen.subscriptions).toBe(3);
    c.dispose();
    spy.mockRestore();
  });

  it('dispose during a retry wait: no timer left, no resubscription', async () => {
    vi.useFakeTimers();
    const c = new Controller({ retryDelay: () => 1000 });
    const { seen, source$ } = failing();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    c.connect(source$, (message, controller) => controller.set(Todo, message));
    c.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(seen.subscriptions).toBe(1);
    spy.mockRestore();
  });

  it('messages apply in order while connected; an apply that throws does not end the connection', async () => {
    const c = new Controller();
    const seen: string[] = [];
    const source$ = new Observable<{ id: number; title: string }>((subscriber) => {
      subscriber.next({ id: 1, title: 'a' });
      subscriber.next({ id: 0, title: 'bad' });
      subscriber.next({ id: 1, title: 'b' });
    });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const subscription = c.connect(source$, (message, controller) => {
      if (message.title === 'bad') throw new Error('cannot apply');
      controller.set(Todo, message);
      seen.push(message.title);
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual(['a', 'b']);
    expect(c.get(Todo, { id: 1 })?.title).toBe('b');
    subscription.unsubscribe();
    c.dispose();
    spy.mockRestore();
  });
});
