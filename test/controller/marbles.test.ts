/**
 * Timing on the controller's `scheduler`: a `TestScheduler` is both its clock and where polling and
 * retry waits are scheduled, so virtual time drives them. The expected request times are written as
 * marble diagrams (`r` = one request reaches the server); msw answers between virtual frames.
 */
import { Subject, defer } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, type ControllerOptions } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { API, TodoResource, flush, useTodoServer } from '../reliability/faultHarness.js';

const fake = useTodoServer();
let scheduler: TestScheduler;
/** The virtual frame at which each request reached the server. */
let frames: number[];

const onRequest = () => frames.push(scheduler.now());
beforeEach(() => {
  scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  frames = [];
  fake.server.events.on('request:start', onRequest);
});
afterEach(() => {
  fake.server.events.removeListener('request:start', onRequest);
});

/** Runs the scheduled work up to `frame`, letting msw answer what it started. */
async function advanceTo(frame: number): Promise<void> {
  for (let next = scheduler.now() + 1; next <= frame; next++) {
    scheduler.schedule(() => undefined, next - scheduler.now()); // virtual time moves only with an action
    scheduler.maxFrames = next;
    scheduler.flush();
    await flush(4);
  }
}

/** The frames of the `r` events of a marble diagram (one frame per character, as in `run` mode). */
function requestsAt(marbles: string): number[] {
  const factor = TestScheduler.frameTimeFactor;
  TestScheduler.frameTimeFactor = 1;
  try {
    return TestScheduler.parseMarbles(marbles, { r: undefined }, undefined, undefined, true).map(
      (event) => event.frame,
    );
  } finally {
    TestScheduler.frameTimeFactor = factor;
  }
}

const controllerOn = (options: ControllerOptions = {}) =>
  new Controller({ scheduler, now: () => scheduler.now(), retry: 0, ...options });

describe('marble timing on the controller scheduler', () => {
  it('a polling stream refetches every pollFrequency frames, and stops when its last subscriber leaves', async () => {
    const polled = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, pollFrequency: 10 });
    const controller = controllerOn();
    const subscription = controller.observe(polled, { id: 1 }).subscribe();
    await flush(4);
    await advanceTo(35);
    expect(frames).toEqual(requestsAt('r 9ms r 9ms r 9ms r'));
    subscription.unsubscribe();
    await advanceTo(100);
    expect(frames).toEqual(requestsAt('r 9ms r 9ms r 9ms r'));
  });

  it('identical requests started together share one', async () => {
    const controller = controllerOn();
    const a = controller.observe(TodoResource.get, { id: 1 }).subscribe();
    const b = controller.observe(TodoResource.get, { id: 1 }).subscribe();
    const fetched = controller.fetch(TodoResource.get, { id: 1 });
    await fetched;
    await advanceTo(20);
    expect(frames).toEqual(requestsAt('r'));
    a.unsubscribe();
    b.unsubscribe();
  });

  it('an invalidation refetches at once for a live observer, and not for a key nobody observes', async () => {
    const controller = controllerOn();
    const subscription = controller.observe(TodoResource.get, { id: 1 }).subscribe();
    await flush(4);
    await controller.fetch(TodoResource.get, { id: 2 });
    await advanceTo(5);
    controller.invalidate(TodoResource.get, { id: 1 });
    controller.invalidate(TodoResource.get, { id: 2 });
    await flush(4);
    await advanceTo(20);
    expect(frames).toEqual(requestsAt('(rr) 1ms r'));
    subscription.unsubscribe();
  });

  it('a failed GET waits retryDelay frames on the scheduler before each retry', async () => {
    fake.fail('GET', 500, 2);
    const controller = controllerOn({ retry: 2, retryDelay: (attempt) => 5 * (attempt + 1) });
    const fetched = controller.fetch(TodoResource.get, { id: 1 });
    // msw answers in real time: wait until the failure is in and its retry waits on the scheduler
    const retryWaiting = () => vi.waitFor(() => expect(scheduler.actions.length).toBe(1), { timeout: 2000 });
    await retryWaiting();
    await advanceTo(4);
    expect(frames).toEqual(requestsAt('r'));
    await advanceTo(5);
    await retryWaiting();
    await advanceTo(14);
    expect(frames).toEqual(requestsAt('r 4ms r'));
    await advanceTo(15);
    expect((await fetched).title).toBe('todo 1');
    expect(frames).toEqual(requestsAt('r 4ms r 9ms r'));
  });

  it('a connection resubscribes after the retry delay on the scheduler, and not after it ended', async () => {
    const controller = controllerOn({ retryDelay: 7 });
    const subscribedAt: number[] = [];
    let current: Subject<number> | undefined;
    const source = defer(() => {
      subscribedAt.push(scheduler.now());
      return (current = new Subject<number>());
    });
    const connection = controller.connect(source, () => undefined);
    await advanceTo(3);
    current!.error(new Error('lost'));
    await advanceTo(20);
    expect(subscribedAt).toEqual([0, 10]);
    connection.unsubscribe();
    current!.error(new Error('lost after the end'));
    await advanceTo(40);
    expect(subscribedAt).toEqual([0, 10]);
  });
});
