import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { derived, fromStore, get, writable, type Readable } from 'svelte/store';
import { Controller, inspectController } from '../../../core/index.js';
import { createMutation, createQuery, createQueryState, useSuspense } from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { PollingTodoResource, TodoResource } from '../resources.js';
import App from './App.svelte';
import LegacyTodo from './LegacyTodo.svelte';
import NoArgs from './NoArgs.svelte';
import NoController from './NoController.svelte';
import Polling from './Polling.svelte';
import RunesState from './RunesState.svelte';
import { watch } from './watch.svelte.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let controller: Controller;
beforeEach(() => {
  const seed = createTodoServer();
  fake.todos.clear();
  for (const [id, todo] of seed.todos) fake.todos.set(id, todo);
  fake.requests.length = 0;
  controller = new Controller();
});

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createQuery in a runes component ($store, context)', () => {
  it('renders loading, then the data', async () => {
    render(App, { controller, userId: 1 });
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByText('todo 1');
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('shows a mutation made through the controller in the rendered list', async () => {
    render(App, { controller, userId: 1 });
    await screen.findByText('todo 1');
    const update = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' });
    await screen.findByText('renamed'); // optimistic: before the server answers
    await update;
    await controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'created', userId: 1 });
    await vi.waitFor(() => expect(titles()).toEqual(['renamed', 'todo 3', 'created']));
  });

  it('switches to the new request when args change, and goes idle on null', async () => {
    const { rerender } = render(App, { controller, userId: 1 });
    await screen.findByText('todo 1');
    await rerender({ userId: 2 });
    await screen.findByText('todo 2');
    expect(titles()).toEqual(['todo 2', 'todo 4']);
    await rerender({ userId: null });
    expect(screen.getByText('Idle')).toBeTruthy();
    await rerender({ userId: 1 });
    expect(titles()).toEqual(['todo 1', 'todo 3']); // from the cache, fresh: no new request
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=2']);
  });

  it('renders a surfaced error', async () => {
    fake.fail('GET', 404);
    render(App, { controller, userId: 1 });
    expect((await screen.findByRole('alert')).textContent).toMatch(/GET .*\/todos\?userId=1.*404/);
  });

  it('keeps the data on screen during a background refresh (loading only on first load)', async () => {
    render(App, { controller, userId: 1 });
    await screen.findByText('todo 1');
    fake.setLatency(30);
    controller.expireAll(TodoResource.getList);
    await screen.findByText('Refreshing…');
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    expect(screen.queryByText('Loading…')).toBeNull();
    fake.setLatency(0);
  });

  it("hydrates from a server controller's state: data at once, no loading, no request", async () => {
    const server = new Controller();
    await server.fetch(TodoResource.getList, { userId: 1 });
    fake.requests.length = 0;
    const initialState = JSON.parse(JSON.stringify(server.getState()));
    render(App, { controller: new Controller({ initialState }), userId: 1 });
    expect(titles()).toEqual(['todo 1', 'todo 3']);
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(fake.requests).toEqual([]);
  });

  it('throws a clear error without a controller in context', () => {
    expect(() => render(NoController)).toThrow(/no Controller in context.*setController/);
  });
});

describe('createQuery in a legacy component (store args, explicit controller)', () => {
  it('renders $store and follows a store of args', async () => {
    const { rerender } = render(LegacyTodo, { controller, id: 1 });
    await screen.findByRole('heading', { name: 'todo 1' });
    await rerender({ id: 2 });
    await screen.findByRole('heading', { name: 'todo 2' });
  });
});

describe('useSuspense(endpoint) without args', () => {
  it("reads an endpoint whose args are optional, as Data Client's useSuspense(endpoint) and createQuery(endpoint)", async () => {
    render(NoArgs, { controller });
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByText('todo 4');
    expect(titles()).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    expect(screen.getByText('4 live')).toBeTruthy();
    expect(fake.requests).toEqual(['GET /todos']); // the same request as useSuspense(endpoint, undefined)
  });
});

describe('createQueryState (runes form)', () => {
  it('exposes reactive getters', async () => {
    const { rerender } = render(RunesState, { controller, id: 3 });
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByRole('heading', { name: 'todo 3' });
    await rerender({ id: 4 });
    await screen.findByRole('heading', { name: 'todo 4' });
  });
});

describe('createQueryState read outside an effect', () => {
  const key = TodoResource.getList.key({ userId: 1 });
  const observers = () => inspectController(controller).query(key).observers;

  it('reads the current state without subscribing; an effect subscribes once, for as long as it lives', async () => {
    const todos = createQueryState(TodoResource.getList, { userId: 1 }, controller);
    const subscribe = vi.spyOn(todos as unknown as Readable<unknown>, 'subscribe');
    for (let i = 0; i < 10; i++) expect([todos.data, todos.loading, todos.error]).toEqual([undefined, true, undefined]);
    expect(subscribe).not.toHaveBeenCalled();
    expect(observers()).toBe(0);
    await controller.fetch(TodoResource.getList, { userId: 1 });
    for (let i = 0; i < 10; i++) expect(todos.data?.map((todo) => todo.title)).toEqual(['todo 1', 'todo 3']);
    expect([todos.loading, todos.fetching, todos.stale, todos.placeholder]).toEqual([false, false, false, false]);
    expect(subscribe).not.toHaveBeenCalled();
    expect(observers()).toBe(0);
    expect(fake.requests).toEqual(['GET /todos?userId=1']); // the reads requested nothing

    const titles = watch(() => todos.data?.map((todo) => todo.title));
    expect(titles.values).toEqual([['todo 1', 'todo 3']]);
    expect(subscribe).toHaveBeenCalledTimes(1);
    expect(observers()).toBe(1);
    for (let i = 0; i < 10; i++) void [todos.data, todos.loading];
    expect(subscribe).toHaveBeenCalledTimes(1); // reads beside the effect: no other subscription
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'renamed' });
    expect(todos.data?.map((todo) => todo.title)).toEqual(['renamed', 'todo 3']); // at once, outside the effect
    flushSync();
    expect(titles.values.at(-1)).toEqual(['renamed', 'todo 3']);
    titles.stop();
    await vi.waitFor(() => expect(observers()).toBe(0)); // the effect's subscription ends with it
    expect(todos.data?.map((todo) => todo.title)).toEqual(['renamed', 'todo 3']);
    expect(subscribe).toHaveBeenCalledTimes(1);
  });

  it('a store subscriber elsewhere: the reads show its state (placeholder too) without subscribing again', async () => {
    const args = writable({ userId: 1 });
    const todos = createQueryState(TodoResource.getList, args, { controller, keepPreviousData: true });
    const store = todos as unknown as Readable<unknown>;
    const stop = store.subscribe(() => {});
    const subscribe = vi.spyOn(store, 'subscribe');
    await vi.waitFor(() => expect(todos.data?.map((todo) => todo.id)).toEqual([1, 3]));
    fake.setLatency(30);
    args.set({ userId: 2 });
    expect([todos.placeholder, todos.data?.map((todo) => todo.id)]).toEqual([true, [1, 3]]);
    await vi.waitFor(() => expect(todos.data?.map((todo) => todo.id)).toEqual([2, 4]));
    expect(todos.placeholder).toBe(false);
    expect(subscribe).not.toHaveBeenCalled();
    stop();
  });

  it("createMutation's getters read its state outside an effect, and follow it inside one", async () => {
    await controller.fetch(TodoResource.getList, { userId: 1 });
    const rename = createMutation(TodoResource.partialUpdate, controller);
    const pending = watch(() => rename.pending);
    const saved = rename.mutate({ id: 1 }, { title: 'renamed' });
    expect(rename.pending).toBe(true);
    flushSync();
    expect(pending.values).toEqual([false, true]);
    await saved;
    expect([rename.pending, rename.data?.title]).toEqual([false, 'renamed']);
    flushSync();
    expect(pending.values).toEqual([false, true, false]);
    pending.stop();
  });
});

describe('unmounting', () => {
  it.each([true, false])('stops polling and leaves no subscription behind (live: %s)', async (live) => {
    const { unmount } = render(Polling, { controller, live });
    await screen.findByText('4'); // all four todos
    if (live) await vi.waitFor(() => expect(fake.requests.length).toBeGreaterThanOrEqual(3));
    await wait(60);
    const before = fake.requests.length;
    if (!live) expect(before).toBe(1); // useSuspense reads without polling
    unmount();
    await wait(80);
    controller.invalidateAll(PollingTodoResource.getList); // an observer would refetch now
    await wait(20);
    expect(fake.requests.length).toBe(before);
  });
});

describe('a real Svelte store', () => {
  it('works with get, derived and fromStore, and subscribe returns a function', async () => {
    await controller.fetch(TodoResource.getList, { userId: 2 });
    const store = createQuery(TodoResource.getList, { userId: 2 }, controller);
    expect(get(store).data?.map((t) => t.id)).toEqual([2, 4]);
    expect(get(derived(store, ($s) => $s.data?.length))).toBe(2);
    expect(fromStore(store).current.loading).toBe(false);
    const seen: boolean[] = [];
    const unsubscribe = store.subscribe((s) => seen.push(s.loading));
    expect(typeof unsubscribe).toBe('function');
    unsubscribe();
    expect(seen).toEqual([false]);
  });

  it('follows a Readable of args, and null is idle', async () => {
    const args = writable<{ userId: number } | null>(null);
    const store = useSuspense(TodoResource.getList, args, controller);
    const states: { loading: boolean; ids?: number[] }[] = [];
    const unsubscribe = store.subscribe((s) => states.push({ loading: s.loading, ids: s.data?.map((t) => t.id) }));
    expect(states).toEqual([{ loading: false, ids: undefined }]);
    args.set({ userId: 1 });
    await vi.waitFor(() => expect(states.at(-1)).toEqual({ loading: false, ids: [1, 3] }));
    expect(states).toContainEqual({ loading: true, ids: undefined });
    unsubscribe();
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });
});
