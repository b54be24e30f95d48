/**
 * Outside review (API.md's "Adapters, next"; TanStack Query's useMutation/useInfiniteQuery where it is silent):
 * rx-rest/svelte's createMutation with overlapping calls and a component unmounted mid-call, and
 * createInfiniteQuery whose runes args change while a page is out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { get } from 'svelte/store';
import { Controller } from '../../../../core/index.js';
import { createMutation } from '../../../../adapters/svelte/index.js';
import { TodoResource, flush, todo, useLiveServer } from '../harness.js';
import Live from './Live.svelte';

const live = useLiveServer();
const controllers: Controller[] = [];
const make = () => {
  const c = new Controller({ retry: 0 });
  controllers.push(c);
  return c;
};
afterEach(() => {
  controllers.splice(0).forEach((c) => c.dispose());
  vi.restoreAllMocks();
});
const text = (id: string) => screen.getByTestId(id).textContent?.trim();

interface Parts {
  rename: ReturnType<typeof createMutation<typeof TodoResource.partialUpdate>>;
  feed: { loadNext(): Promise<void> };
  setUser(id: number): void;
}
const mount = (controller: Controller) => {
  let parts!: Parts;
  const view = render(Live, { controller, expose: (given: object) => (parts = given as Parts) });
  return { view, parts };
};

describe('createMutation', () => {
  it('overlapping calls: each resolves its own value; the store, the getters and the markup follow the latest', async () => {
    const c = make();
    live.todos.set(1, todo(1));
    await c.fetch(TodoResource.get, { id: 1 });
    live.hold.on = true;
    const rename = createMutation(TodoResource.partialUpdate, { controller: c });
    const first = rename.mutate({ id: 1 }, { title: 'first' });
    const second = rename.mutate({ id: 1 }, { title: 'second' });
    await vi.waitFor(() => expect(live.held).toHaveLength(2));
    live.held[1]!.json(todo(1, 'second'));
    await expect(second).resolves.toMatchObject({ title: 'second' });
    live.held[0]!.json(todo(1, 'first'));
    await expect(first).resolves.toMatchObject({ title: 'first' });
    await flush();
    expect([rename.pending, rename.data?.title]).toEqual([false, 'second']);
    expect(get(rename).data?.title).toBe('second');
  });

  it('its component unmounted mid-call: no error, the call resolves, the store has it', async () => {
    const c = make();
    live.todos.set(1, todo(1));
    live.todos.set(2, todo(2));
    await c.fetch(TodoResource.get, { id: 1 });
    const error = vi.spyOn(console, 'error');
    const { view, parts } = mount(c);
    await vi.waitFor(() => expect(text('feed')).toBe('1,2||next'));
    live.hold.on = true;
    const call = parts.rename.mutate({ id: 1 }, { title: 'saved after unmount' });
    await vi.waitFor(() => expect(text('pending')).toBe('pending'));
    await vi.waitFor(() => expect(live.held).toHaveLength(1));
    view.unmount();
    live.held[0]!.json(todo(1, 'saved after unmount'));
    await expect(call).resolves.toMatchObject({ title: 'saved after unmount' });
    await flush();
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('saved after unmount');
    expect(error).not.toHaveBeenCalled();
  });

  it('a failing latest call shows its named error in the markup', async () => {
    const c = make();
    live.todos.set(1, todo(1));
    const { parts } = mount(c);
    live.hold.on = true;
    const call = parts.rename.mutate({ id: 1 }, { title: 'x' }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(live.held.some((h) => h.method === 'PATCH')).toBe(true));
    live.held
      .find((h) => h.method === 'PATCH')!
      .raw('{"id": 1,', {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    expect(await call).toMatchObject({ name: 'ParseError' });
    await vi.waitFor(() => expect(text('pending')).toBe('error ParseError'));
  });
});

describe('createInfiniteQuery', () => {
  it('runes args change while a page is out: the new list shows its own pages; the old page joins only the old list', async () => {
    const c = make();
    for (let id = 1; id <= 6; id++) live.todos.set(id, todo(id));
    const { parts } = mount(c);
    await vi.waitFor(() => expect(text('feed')).toBe('1,2||next'));
    live.hold.on = true;
    const out = parts.feed.loadNext();
    await vi.waitFor(() => expect(text('feed')).toBe('1,2|more|next'));
    parts.setUser(2);
    await vi.waitFor(() => expect(live.held).toHaveLength(2));
    await vi.waitFor(() => expect(text('feed')).toBe('||end'));
    live.held[0]!.json([todo(3), todo(4)]);
    await out;
    live.held[1]!.json([todo(5), todo(6)]);
    await vi.waitFor(() => expect(text('feed')).toBe('5,6||next'));
    live.hold.on = false;
    await parts.feed.loadNext();
    expect(live.requests.at(-1)).toBe('GET /todos?page=2&userId=2');
    // the server's pages ignore userId: its page 2 is todos 3 and 4, which join the list of user 2 only now
    await vi.waitFor(() => expect(text('feed')).toBe('5,6,3,4||next'));
  });
});
