/**
 * An outside review of rx-rest/svelte against API.md, docs/adapters.md and docs/ssr.md: one query in several
 * components, components unmounting mid-request, runes args, useSuspense against useLive, createMutation,
 * keepPreviousData, setController. (Infinite lists and fetchQuery: infinite.dom.test.ts, fetchQuery.dom.test.ts.) HTTP through msw.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { get, writable } from 'svelte/store';
import { delay } from 'msw';
import { Controller } from '../../../../core/index.js';
import { createMutation, createQuery, setController, useLive, useSuspense } from '../../../../adapters/svelte/index.js';
import { createTodoServer } from '../../../fixtures/todoServer.js';
import { TodoResource } from '../../../fixtures/todoResource.js';
import { PollingTodoResource } from '../../../adapters/resources.js';
import Dependent from './Dependent.svelte';
import Runes from './Runes.svelte';
import Shared from './Shared.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let controller: Controller;
beforeEach(() => {
  const seed = createTodoServer();
  fake.todos.clear();
  for (const [id, todo] of seed.todos) fake.todos.set(id, todo);
  fake.requests.length = 0;
  fake.setLatency(0);
  fake.clearFailures();
  controller = new Controller({ retry: false });
});

const text = (id: string) => screen.getByTestId(id).textContent?.trim();

describe('one query in several components', () => {
  it('two components share one request and show the same data', async () => {
    render(Shared, { controller, readers: 2 });
    expect(text('r0')).toBe('loading');
    await vi.waitFor(() => expect(text('r1')).toBe('todo 1, todo 3'));
    expect(text('r0')).toBe('todo 1, todo 3');
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('unmounted while its request is in flight: no error, nothing written (the request is abandoned), a remount fetches and shows it', async () => {
    fake.setLatency(100);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = render(Shared, { controller, readers: 2 });
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1), { interval: 2 }); // on the wire
    first.unmount();
    await delay(150);
    expect(controller.getResponse(TodoResource.getList, { userId: 1 }).data).toBeUndefined();
    fake.setLatency(0);
    render(Shared, { controller, readers: 1 });
    expect(text('r0')).toBe('loading');
    await vi.waitFor(() => expect(text('r0')).toBe('todo 1, todo 3'));
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=1']);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('remounted while the first request is still in flight, it joins that request', async () => {
    fake.setLatency(30);
    const first = render(Shared, { controller, readers: 1 });
    first.unmount();
    render(Shared, { controller, readers: 1 });
    await vi.waitFor(() => expect(text('r0')).toBe('todo 1, todo 3'));
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });
});

describe('runes code: createQueryState with a getter, useSuspense, createMutation', () => {
  it('switches requests when the $state args change, is idle on null, and a mutation shows in both queries', async () => {
    render(Runes, { controller });
    await vi.waitFor(() => expect(text('list')).toBe('todo 1, todo 3'));
    await vi.waitFor(() => expect(text('one')).toBe('todo 2'));
    await fireEvent.click(screen.getByRole('button', { name: 'user 2' }));
    await vi.waitFor(() => expect(text('list')).toBe('todo 2, todo 4'));
    await fireEvent.click(screen.getByRole('button', { name: 'rename' }));
    await tick();
    expect(text('list')).toBe('renamed, todo 4'); // optimistic
    expect(text('one')).toBe('renamed');
    await vi.waitFor(() => expect(text('mutation')).toBe('saved renamed'));
    const before = fake.requests.length;
    await fireEvent.click(screen.getByRole('button', { name: 'none' }));
    await tick();
    expect(text('list')).toBe('');
    await delay(20);
    expect(fake.requests.length).toBe(before);
  });
});

describe('useSuspense against useLive', () => {
  it('useSuspense never polls; useLive polls the same request while subscribed', async () => {
    const quiet = useSuspense(PollingTodoResource.get, { id: 1 }, controller);
    const stop = quiet.subscribe(() => {});
    await vi.waitFor(() => expect(get(quiet).data?.title).toBe('todo 1'));
    await delay(70);
    expect(fake.requests).toEqual(['GET /todos/1']);
    const live = useLive(PollingTodoResource.get, { id: 1 }, controller);
    const stopLive = live.subscribe(() => {});
    await delay(70);
    stopLive();
    const polled = fake.requests.length;
    expect(polled).toBeGreaterThan(2);
    await delay(70);
    expect(fake.requests.length).toBe(polled); // the timer stopped with useLive's subscriber
    stop();
  });
});

describe('createQuery', () => {
  it('a store of args that becomes null goes idle: no data, not loading, no request', async () => {
    const args = writable<{ userId: number } | null>({ userId: 1 });
    const todos = createQuery(TodoResource.getList, args, controller);
    const stop = todos.subscribe(() => {});
    await vi.waitFor(() => expect(get(todos).data).toHaveLength(2));
    args.set(null);
    expect(get(todos)).toMatchObject({ data: undefined, loading: false, fetching: false });
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
    stop();
  });

  it('keepPreviousData: while the new args load, the old data with placeholder true, loading false and fetching true', async () => {
    const args = writable({ userId: 1 });
    const todos = createQuery(TodoResource.getList, args, { controller, keepPreviousData: true });
    const stop = todos.subscribe(() => {});
    await vi.waitFor(() => expect(get(todos).data).toHaveLength(2));
    fake.setLatency(30);
    args.set({ userId: 2 });
    expect(get(todos)).toMatchObject({ placeholder: true, loading: false, fetching: true });
    expect(get(todos).data?.map((t) => t.title)).toEqual(['todo 1', 'todo 3']);
    await vi.waitFor(() => expect(get(todos).data?.map((t) => t.title)).toEqual(['todo 2', 'todo 4']));
    expect(get(todos).placeholder).toBe(false);
    stop();
  });

  it('a 5xx refresh keeps the data and reports the error; a later success clears the error', async () => {
    const todo = createQuery(TodoResource.get, { id: 1 }, controller);
    const stop = todo.subscribe(() => {});
    await vi.waitFor(() => expect(get(todo).data?.title).toBe('todo 1'));
    fake.fail('GET', 503);
    controller.expireAll(TodoResource.get); // stale: a background refetch that keeps the data
    await vi.waitFor(() => expect(get(todo).error).toBeDefined());
    expect(get(todo).data?.title).toBe('todo 1');
    controller.expireAll(TodoResource.get);
    await vi.waitFor(() => expect(get(todo).error).toBeUndefined());
    expect(get(todo).data?.title).toBe('todo 1');
    stop();
  });
});

describe('createMutation', () => {
  it('is a Readable: subscribe returns a function, get() reads the state, the getters the same', async () => {
    const save = createMutation(TodoResource.partialUpdate, { controller });
    expect(get(save)).toEqual({ pending: false, error: undefined, data: undefined });
    const seen: boolean[] = [];
    const stop = save.subscribe((state) => seen.push(state.pending));
    expect(typeof stop).toBe('function');
    const saved = await save.mutate({ id: 3 }, { title: 'three' });
    expect(saved.title).toBe('three');
    expect(save.data?.title).toBe('three');
    expect(get(save).data).toBe(save.data);
    expect(seen).toEqual([false, true, false]);
    stop();
  });

  it('a 404 rejects with a NetworkError, shown as error; reset() goes back to idle', async () => {
    const save = createMutation(TodoResource.partialUpdate, controller);
    await expect(save.mutate({ id: 99 }, { title: 'x' })).rejects.toMatchObject({ name: 'NetworkError', status: 404 });
    expect(save.error).toMatchObject({ name: 'NetworkError', status: 404 });
    expect(save.pending).toBe(false);
    save.reset();
    expect(get(save)).toEqual({ pending: false, error: undefined, data: undefined });
  });
});

describe('setController', () => {
  it('refuses what is not a Controller with a TypeError that names it', () => {
    expect(() => setController({} as Controller)).toThrow(TypeError);
    expect(() => setController({} as Controller)).toThrow(/setController\(controller\) expects a Controller/);
  });
});

describe('keepPreviousData, more switches', () => {
  it('back to the first args while the second load: the first data at once, no placeholder', async () => {
    const args = writable({ userId: 1 });
    const todos = createQuery(TodoResource.getList, args, { controller, keepPreviousData: true });
    const stop = todos.subscribe(() => {});
    await vi.waitFor(() => expect(get(todos).data).toHaveLength(2));
    fake.setLatency(30);
    args.set({ userId: 2 });
    expect(get(todos).placeholder).toBe(true);
    args.set({ userId: 1 });
    expect(get(todos)).toMatchObject({ placeholder: false, loading: false });
    expect(get(todos).data?.map((t) => t.title)).toEqual(['todo 1', 'todo 3']);
    await delay(50);
    expect(get(todos).data?.map((t) => t.title)).toEqual(['todo 1', 'todo 3']);
    stop();
  });

  it('new args that fail: the error, without the old data or a placeholder', async () => {
    const args = writable({ id: 1 });
    const todo = createQuery(TodoResource.get, args, { controller, keepPreviousData: true });
    const stop = todo.subscribe(() => {});
    await vi.waitFor(() => expect(get(todo).data?.title).toBe('todo 1'));
    args.set({ id: 99 });
    await vi.waitFor(() => expect(get(todo).error).toMatchObject({ status: 404 }));
    expect(get(todo)).toMatchObject({ data: undefined, placeholder: false, loading: false });
    stop();
  });
});

describe('after a failed first load', () => {
  it('a component mounted again asks again (a first subscriber), and renders the data', async () => {
    fake.fail('GET', 404);
    const first = render(Shared, { controller, readers: 1 });
    await vi.waitFor(() => expect(text('r0')).toContain('error'));
    first.unmount();
    render(Shared, { controller, readers: 1 });
    await vi.waitFor(() => expect(text('r0')).toBe('todo 1, todo 3'));
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=1']);
  });
});

describe('placeholder', () => {
  it('every state of createQuery, useSuspense and createQueryState has it, false without keepPreviousData', async () => {
    const idle = createQuery(TodoResource.get, null, controller);
    expect(get(idle).placeholder).toBe(false);
    const todo = useSuspense(TodoResource.get, { id: 1 }, controller);
    const stop = todo.subscribe(() => {});
    expect(get(todo)).toMatchObject({ placeholder: false, loading: true });
    await vi.waitFor(() => expect(get(todo).data?.title).toBe('todo 1'));
    expect(get(todo).placeholder).toBe(false);
    stop();
  });
});

describe('a query whose args come from another query', () => {
  it('stays idle until the first has data, then loads with it (one request each)', async () => {
    render(Dependent, { controller });
    expect(text('first')).toBe('-');
    await vi.waitFor(() => expect(text('first')).toBe('todo 2'));
    expect(fake.requests).toEqual(['GET /todos?userId=2', 'GET /todos/2']);
  });
});
