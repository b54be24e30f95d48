/**
 * controller.connect(source$, apply): real-time messages applied to the store, bad messages reported and
 * skipped, source errors resubscribed after the retry delays, and the connection ended by unsubscribe
 * or dispose().
 */
import { Observable, Subject, defer } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, RestEndpoint, type ControllerAction, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';

const offline = {
  urlPrefix: 'http://connect.test',
  fetchResponse: (): Promise<Response> => Promise.reject(new Error('no request may leave these tests')),
};
const getTodo = new RestEndpoint({ ...offline, path: '/todos/:id', schema: Todo });

interface Push {
  readonly todo: unknown;
}
const applyPush = (message: Push, controller: Controller) => controller.set(Todo, message.todo);

afterEach(() => {
  vi.useRealTimers();
});

describe('controller.connect', () => {
  it('applies each message; a message it cannot apply is reported as pushError and the connection goes on', () => {
    const controller = new Controller({ retry: 0 });
    controller.setResponse(getTodo, { id: 1 }, { id: 1, title: 'a' });
    const states: QueryState<Todo>[] = [];
    const watching = controller.observe(getTodo, { id: 1 }).subscribe((state) => states.push(state));
    const actions: ControllerAction[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    const source = new Subject<Push>();
    const connection = controller.connect(source, applyPush);

    source.next({ todo: { id: 1, title: 'pushed' } });
    expect(states.at(-1)?.data?.title).toBe('pushed');
    const before = JSON.stringify(controller.getState().entities);
    source.next({ todo: { title: 'no pk' } });
    source.next({ todo: true });
    expect(JSON.stringify(controller.getState().entities)).toBe(before);
    const errors = actions.filter((action) => action.type === 'pushError');
    expect(errors).toHaveLength(2);
    expect(errors[0]?.error?.name).toBe('NormalizeError');
    expect(errors[0]?.message).toEqual({ todo: { title: 'no pk' } });
    source.next({ todo: { id: 1, title: 'after the bad ones' } });
    expect(states.at(-1)?.data?.title).toBe('after the bad ones');
    expect(connection.closed).toBe(false);
    watching.unsubscribe();
    connection.unsubscribe();
    expect(source.observed).toBe(false);
  });

  it('stores hostile keys of a pushed message as data only', () => {
    const controller = new Controller();
    const source = new Subject<Push>();
    controller.connect(source, applyPush);
    source.next({ todo: JSON.parse('{"id": 5, "title": "x", "__proto__": {"polluted": true}}') });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(controller.get(Todo, { id: 5 })?.title).toBe('x');
  });

  it('resubscribes after an error of the source, waiting the retry delays', () => {
    vi.useFakeTimers();
    const controller = new Controller({ retryDelay: (attempt) => 1_000 * 2 ** attempt });
    let subscriptions = 0;
    let current: Subject<Push> | undefined;
    const source = defer(() => {
      subscriptions++;
      return (current = new Subject<Push>());
    });
    const connection = controller.connect(source, applyPush);
    expect(subscriptions).toBe(1);
    current!.error(new Error('connection lost'));
    vi.advanceTimersByTime(999);
    expect(subscriptions).toBe(1);
    vi.advanceTimersByTime(1);
    expect(subscriptions).toBe(2);
    current!.error(new Error('lost again'));
    vi.advanceTimersByTime(1_999);
    expect(subscriptions).toBe(2);
    vi.advanceTimersByTime(1);
    expect(subscriptions).toBe(3);
    current!.next({ todo: { id: 2, title: 'back' } }); // a message resets the delays
    expect(controller.get(Todo, { id: 2 })?.title).toBe('back');
    current!.error(new Error('once more'));
    vi.advanceTimersByTime(1_000);
    expect(subscriptions).toBe(4);
    connection.unsubscribe();
    current!.error(new Error('after the end'));
    vi.advanceTimersByTime(60_000);
    expect(subscriptions).toBe(4);
  });

  it('ends with dispose(): the source is unsubscribed and no resubscription is scheduled', () => {
    vi.useFakeTimers();
    const controller = new Controller();
    let active = 0;
    const source = new Observable<Push>(() => {
      active++;
      return () => active--;
    });
    const connection = controller.connect(source, applyPush);
    expect(active).toBe(1);
    controller.dispose();
    expect(active).toBe(0);
    expect(connection.closed).toBe(true);
    expect(() => controller.connect(source, applyPush)).toThrow(/disposed/);
  });
});
