/**
 * Svelte `reconcile: true` over a long list the core patches, through seeded sequences of writes: single writes,
 * several in one task, writes another reader reads in between (the list patched more often than the rows see it),
 * rows invalidated and added. After every task the rows show the store's data, as a fresh controller reads it.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { Controller, schema } from '../../../core/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';
import ReconcileList from './ReconcileList.svelte';
import { seeded } from '../../fixtures/random.js';
import { todoRow as row } from '../../fixtures/todoResource.js';

const titles = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const task = () => new Promise((resolve) => setTimeout(resolve, 0));

describe.each(['state', 'store'] as const)(
  'Svelte reconcile over sequences of writes on a long list (%s form)',
  (form) => {
    it("shows the store's data after every task", { timeout: 60_000 }, async () => {
      const N = 80;
      const int = seeded(form === 'state' ? 1 : 2).int;
      const controller = new Controller();
      controller.setResponse(
        TodoResource.getList,
        { userId: 1 },
        Array.from({ length: N }, (_, i) => row(i + 1)),
      );
      const view = render(ReconcileList, { controller, form, label: (todo: Todo) => todo.title });
      flushSync();
      const read = () => controller.getResponse(TodoResource.getList, { userId: 1 }).data;
      let next = N + 1;
      for (let step = 0; step < 30; step++) {
        const writes = int(2) === 0 ? 1 : 2 + int(4);
        for (let w = 0; w < writes; w++) {
          const id = 1 + int(N + 5);
          const op = int(10);
          if (op < 6) controller.set(Todo, { id }, { id, title: `s${step} w${w}` });
          else if (op < 8) controller.set(new schema.Invalidate(Todo), { id }, { id });
          else if (op === 8)
            read(); // another reader: the list patched without the rows seeing it
          else controller.set(Todo, { id: next }, row(next++)); // a todo the list does not hold
        }
        await task();
        flushSync();
        const fresh = new Controller({ initialState: controller.getState() });
        const expected = fresh.getResponse(TodoResource.getList, { userId: 1 }).data!.map((todo) => todo.title);
        expect(titles(), `step ${step}`).toEqual(expected);
        fresh.dispose();
      }
      view.unmount();
      controller.dispose();
    });
  },
);
