/**
 * Outside review (API.md's pollFrequency, lifecycle and real-time lines; Data Client's useLive, whose polling
 * takes the smallest frequency of a key's subscribers, where API.md is silent): polling with several observers of
 * one key, and pushes (`set`, `connect`) while a request for what they write is in flight.
 */
import { BehaviorSubject, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { record, settled } from '../../fixtures/streams.js';
import { tick, useFakeClock } from '../../reliability/faultHarness.js';
import { Todo, TodoResource, todo, useLiveServer } from './harness.js';

const live = useLiveServer();
const count = (request: string) => live.requests.filter((r) => r === request).length;
afterEach(() => vi.useRealTimers());

const env = () => ({
  online$: new BehaviorSubject(true),
  visible$: new BehaviorSubject(true),
  focus$: new Subject<void>(),
});

describe('polling one key from several observers', () => {
  const slow = TodoResource.get.extend({ pollFrequency: 1000 });
  const fast = TodoResource.get.extend({ pollFrequency: 300 });

  it('the endpoints of one key differ only in pollFrequency: one request per period, the smallest period', async () => {
    useFakeClock();
    live.todos.set(1, todo(1));
    const c = new Controller({ retry: 0, environment: env() });
    expect(slow.key({ id: 1 })).toBe(fast.key({ id: 1 }));
    const a = record(c.observe(slow, { id: 1 }));
    const b = record(c.observe(fast, { id: 1 }));
    await tick(0);
    expect(count('GET /todos/1')).toBe(1);
    await tick(300);
    expect(count('GET /todos/1')).toBe(2);
    await tick(300);
    expect(count('GET /todos/1')).toBe(3);
    // the fast observer leaves: the slow period again
    b.unsubscribe();
    await tick(700);
    expect(count('GET /todos/1')).toBe(3);
    await tick(300);
    expect(count('GET /todos/1')).toBe(4);
    a.unsubscribe();
    await tick(5000);
    expect(count('GET /todos/1')).toBe(4);
    c.dispose();
  });

  it('a polling observer joining a key that a non-polling observer opened polls it', async () => {
    useFakeClock();
    live.todos.set(1, todo(1));
    const c = new Controller({ retry: 0, environment: env() });
    const plain = record(c.observe(TodoResource.get, { id: 1 }));
    await tick(0);
    const polled = record(c.observe(slow, { id: 1 }));
    await tick(1000);
    expect(count('GET /todos/1')).toBe(2);
    await tick(1000);
    expect(count('GET /todos/1')).toBe(3);
    polled.unsubscribe();
    await tick(3000);
    expect(count('GET /todos/1')).toBe(3); // the plain observer does not poll
    plain.unsubscribe();
    c.dispose();
  });

  it('hidden tab: no polls (pollInBackground false by default); shown again, it polls at once', async () => {
    useFakeClock();
    live.todos.set(1, todo(1));
    const environment = env();
    const c = new Controller({ retry: 0, environment });
    const a = record(c.observe(slow, { id: 1 }));
    const b = record(c.observe(slow, { id: 1 }));
    await tick(0);
    environment.visible$.next(false);
    await tick(5000);
    expect(count('GET /todos/1')).toBe(1);
    environment.visible$.next(true);
    await tick(0);
    expect(count('GET /todos/1')).toBe(2);
    a.unsubscribe();
    b.unsubscribe();
    c.dispose();
  });
});

describe('pushes while a request is in flight', () => {
  it('controller.set while GET is out: the older answer does not overwrite the pushed fields', async () => {
    live.todos.set(1, todo(1));
    const c = new Controller({ retry: 0 });
    live.hold.on = true;
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(live.held).toHaveLength(1));
    c.set(Todo, { id: 1, title: 'pushed', completed: true });
    live.held[0]!.json(todo(1, 'read before the push'));
    await settled(() => expect(s.last().fetching).toBe(false));
    expect(s.last().data).toMatchObject({ title: 'pushed', completed: true });
    s.unsubscribe();
    c.dispose();
  });

  it('connect: a message applied while a list refetch is out survives that refetch’s answer', async () => {
    live.todos.set(1, todo(1));
    live.todos.set(2, todo(2));
    const c = new Controller({ retry: 0 });
    const list = record(c.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toHaveLength(2));
    const messages = new Subject<{ id: number; title: string }>();
    const connection = c.connect(messages, (message, controller) => controller.set(Todo, message));
    live.hold.on = true;
    c.expireAll(TodoResource.getList);
    await settled(() => expect(live.held).toHaveLength(1));
    messages.next({ id: 2, title: 'live edit' });
    expect(list.last().data?.map((t) => t.title)).toEqual(['todo 1', 'live edit']);
    live.held[0]!.json([todo(1), todo(2)]);
    await settled(() => expect(list.last().fetching).toBe(false));
    expect(list.last().data?.map((t) => t.title)).toEqual(['todo 1', 'live edit']);
    connection.unsubscribe();
    list.unsubscribe();
    c.dispose();
  });
});
