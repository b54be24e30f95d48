/**
 * `loadController` on a server-rendered page holds its hydration (the add-ons wait); an app that passes
 * the controller to its queries explicitly, without `setController`, releases it too once its first
 * component mounted. HTTP through the msw todo server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { isHydrating, takeSnapshot, Controller } from '../../../core/index.js';
import { createQuery, loadController } from '../../../adapters/svelte/index.js';
import { persist, type PersistedState } from '../../../adapters/persist/index.js';
import { Todo } from '../../fixtures/entities.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../resources.js';
import ExplicitController from './ExplicitController.svelte';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

describe('loadController with the controller passed explicitly (no setController)', () => {
  it('releases the hydration hold once the component mounted: persist restores its save', async () => {
    const source = new Controller();
    await source.fetch(TodoResource.get, { id: 2 });
    localStorage.setItem(
      'rx-rest',
      JSON.stringify({ format: 'rx-rest', savedAt: Date.now(), state: takeSnapshot(source) } satisfies PersistedState),
    );
    source.dispose();
    document.body.innerHTML = '<!--[--><p>server-rendered</p><!--]-->';
    let restored: Promise<boolean> | undefined;
    const controller = loadController(
      { fetch: (input, init) => fetch(input, init) },
      { managers: [(c) => ((restored = persist(c, { storage: localStorage }).restored), () => undefined)] },
    );
    expect(isHydrating()).toBe(true);
    expect(createQuery(TodoResource.get, { id: 1 }, { controller })).toBeDefined(); // outside a component: no throw
    expect(controller.get(Todo, { id: 2 })).toBeUndefined(); // held during the hydration
    render(ExplicitController, { controller });
    expect(isHydrating()).toBe(false);
    expect(await restored).toBe(true);
    expect(controller.get(Todo, { id: 2 })?.title).toBe('todo 2');
    await screen.findByText('todo 1');
  });

  it("after the tab's controller was disposed, the new one takes no hold: the page hydrated already", async () => {
    document.body.innerHTML = '<!--[--><p>server-rendered</p><!--]-->';
    const first = loadController({ fetch: (input, init) => fetch(input, init) });
    render(ExplicitController, { controller: first }); // mounted: the page is hydrated (its markers stay)
    expect(isHydrating()).toBe(false);
    first.dispose();
    const next = loadController({ fetch: (input, init) => fetch(input, init) });
    expect(next).not.toBe(first);
    expect(isHydrating()).toBe(false); // a persisted save or another tab's state would apply at once
    render(ExplicitController, { controller: next });
    await screen.findAllByText('todo 1');
  });
});
