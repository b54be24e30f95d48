/**
 * A timer cannot wait longer than 2^31 - 1 ms (24.8 days): browsers and Node fire a longer `setTimeout` or
 * `setInterval` (`Infinity` too) at once. So `pollFrequency: 3e9` polled in a hot loop (`Infinity` is no polling), a `timeout` of
 * 3e9 ms failed every request at once with a `TimeoutError`, and a `retryDelay` of 3e9 retried at once. Every timer
 * of the controller and of a request waits at most 2^31 - 1 ms (24.8 days), which for such values is as good as never.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint } from '../../../core/index.js';
import {
  API,
  Todo,
  TodoResource,
  record,
  refused,
  answerNext,
  useTodoServer,
  flush,
  tick,
  useFakeClock,
} from '../../reliability/faultHarness.js';

const fake = useTodoServer();
const MAX_DELAY = 2 ** 31 - 1;

/** The delays given to the global timers while `run` runs (real timers: what a browser would be asked for). */
function delaysOf() {
  const delays: number[] = [];
  const timeout = vi.spyOn(globalThis, 'setTimeout');
  const interval = vi.spyOn(globalThis, 'setInterval');
  const seen = () => [...timeout.mock.calls, ...interval.mock.calls].map((call) => Number(call[1] ?? 0));
  return { delays, seen };
}
afterEach(() => vi.restoreAllMocks());

describe('delays longer than a timer can wait', () => {
  for (const pollFrequency of [3e9, 2 ** 31])
    it(`pollFrequency ${pollFrequency}: the polling timer waits 2^31 - 1 ms at most, never a hot loop`, async () => {
      useFakeClock();
      const controller = new Controller({ retry: 0, environment: {} });
      const spy = delaysOf();
      const stream = record(controller.observe(TodoResource.get.extend({ pollFrequency }), { id: 1 }));
      await tick(0);
      expect(stream.last().data?.title).toBe('todo 1');
      await tick(61_000); // past the first wait (from the data's age)
      expect(spy.seen().some((delay) => delay > MAX_DELAY)).toBe(false);
      expect(spy.seen()).toContain(MAX_DELAY);
      stream.unsubscribe();
      controller.dispose();
    });

  it('timeout 3e9: the request is answered, not failed with a TimeoutError at once', async () => {
    const controller = new Controller({ retry: 0, environment: {} });
    const spy = delaysOf();
    const slow = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, timeout: 3e9 });
    expect((await controller.fetch(slow, { id: 1 })).title).toBe('todo 1');
    expect((await slow({ id: 2 })).title).toBe('todo 2');
    expect(spy.seen().some((delay) => delay > MAX_DELAY)).toBe(false);
    controller.dispose();
  });

  it('retryDelay 3e9: the retry waits, it does not run at once', async () => {
    const controller = new Controller({ environment: {} });
    const spy = delaysOf();
    answerNext(fake, 'get', '/todos/1', refused);
    const patient = TodoResource.get.extend({ retry: 1, retryDelay: 3e9 });
    const stream = record(controller.observe(patient, { id: 1 }));
    await flush(20);
    expect(fake.requests.filter((request) => request === 'GET /todos/1')).toHaveLength(1);
    expect(stream.last()).toMatchObject({ fetching: true, error: undefined });
    expect(spy.seen()).toContain(MAX_DELAY);
    stream.unsubscribe();
    controller.dispose();
  });
});
