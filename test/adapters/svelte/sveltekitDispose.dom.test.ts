/**
 * An app that disposes the browser tab's controller (a sign-out): `loadController` makes a new one when
 * the root load runs again (SvelteKit's `invalidateAll()`), and a root layout that keys its children on
 * the load's controller (docs/ssr.md) puts that one in context; one that called `setController` once
 * keeps the disposed one. HTTP through the msw todo server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { Todo } from '../../fixtures/entities.js';
import { loadController } from '../../../adapters/svelte/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import KeyedLayout from './KeyedLayout.svelte';
import PlainLayout from './PlainLayout.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
beforeEach(() => {
  fake.requests.length = 0;
});

/** The root `+layout.ts` load: its data. */
const load = () => ({ controller: loadController({ fetch: (input, init) => fetch(input, init) }) });
const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);

describe("a root layout after the tab's controller was disposed", () => {
  it("keyed on the load's controller, puts the new one in context once the load ran again", async () => {
    const first = load();
    const { rerender } = render(KeyedLayout, { data: first, userId: 1 });
    await screen.findByText('todo 1');
    first.controller.dispose();
    const again = load(); // the root load run again (invalidateAll)
    expect(again.controller).not.toBe(first.controller);
    await rerender({ data: again, userId: 2 });
    await screen.findByText('todo 2');
    expect(titles()).toEqual(['todo 2', 'todo 4']);
    expect(again.controller.get(Todo, { id: 2 })?.title).toBe('todo 2');
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=2']);
  });

  it('that called setController once, keeps the disposed one: a new query there throws that it was disposed', async () => {
    const first = load();
    const { rerender } = render(PlainLayout, { data: first, userId: 1 });
    await screen.findByText('todo 1');
    first.controller.dispose();
    const again = load();
    await expect(rerender({ data: again, userId: 2 })).rejects.toThrow(
      /createQuery\(\) was called after controller\.dispose\(\)/,
    );
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });
});
