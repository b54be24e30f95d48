/**
 * Optimistic mutations on a long list (its rows indexed by their table), against the todo server behind msw: the
 * expected result shows in every list at once, a failure rolls back exactly (every row the instance it was
 * before), and a success leaves what a fresh controller reads from the same state.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Controller, type QueryState } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { createTodoServer } from '../fixtures/todoServer.js';
import { TodoResource } from '../fixtures/todoResource.js';

const fake = createTodoServer(2 * LONG_READ + 6);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => fake.server.resetHandlers());
afterAll(() => fake.server.close());

const json = (value: unknown) => JSON.stringify(value);
const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};
const body = (title: string) => ({ userId: 1, title, completed: false, createdAt: '2024-01-01T00:00:00Z' });

describe('optimistic mutations on long lists', () => {
  for (const userId of [undefined, 1]) {
    it(`show, roll back exactly and then succeed (the list of ${userId === undefined ? 'all todos' : `user ${userId}`})`, async () => {
      const controller = new Controller({ retry: 0, environment: {} });
      const args = userId === undefined ? {} : { userId };
      const mine: QueryState<unknown>[] = [];
      const all: QueryState<unknown>[] = [];
      const subscriptions = [
        controller.observe(TodoResource.getList, args).subscribe((state) => mine.push(state)),
        controller.observe(TodoResource.getList, {}).subscribe((state) => all.push(state)),
      ];
      await flush();
      expect((mine.at(-1)!.data as unknown[]).length).toBeGreaterThanOrEqual(LONG_READ);
      /** Each list shows what `reader` reads (the controller itself while a layer is on, else a fresh one). */
      const expectRead = (what: string, reader: Controller) => {
        expect(json(mine.at(-1)!.data), what).toBe(json(reader.getResponse(TodoResource.getList, args).data));
        expect(json(all.at(-1)!.data), what).toBe(json(reader.getResponse(TodoResource.getList, {}).data));
      };
      const patched = userId ? 9 : 5;
      const deleted = userId ? 11 : 7;
      const mutations = [
        ['PATCH', () => controller.fetch(TodoResource.partialUpdate, { id: patched }, { title: `patched ${userId}` })],
        ['DELETE', () => controller.fetch(TodoResource.delete, { id: deleted })],
        ['POST', () => controller.fetch(TodoResource.getList.push, args, body('pushed'))],
        ['POST', () => controller.fetch(TodoResource.getList.unshift, args, body('unshifted'))],
      ] as const;
      for (const [method, mutate] of mutations) {
        const before = mine.at(-1)!.data as unknown[];
        const beforeAll = all.at(-1)!.data as unknown[];
        fake.fail(method, 500, 1);
        const failed = (mutate as () => Promise<unknown>)().catch(() => undefined);
        expectRead(`${method}, shown`, controller);
        if (method !== 'POST') expect(json(mine.at(-1)!.data), `${method}, shown`).not.toBe(json(before));
        await failed;
        await flush();
        const fresh = new Controller({ initialState: controller.getState() });
        expectRead(`${method}, rolled back`, fresh);
        const after = mine.at(-1)!.data as unknown[];
        expect(after).toHaveLength(before.length);
        after.forEach((row, i) => expect(row, `${method}, rolled back: row ${i}`).toBe(before[i]));
        (all.at(-1)!.data as unknown[]).forEach((row, i) =>
          expect(row, `${method}: row ${i} of all`).toBe(beforeAll[i]),
        );
        await (mutate as () => Promise<unknown>)();
        await flush();
        expectRead(`${method}, done`, new Controller({ initialState: controller.getState() }));
        fresh.dispose();
      }
      for (const subscription of subscriptions) subscription.unsubscribe();
      controller.dispose();
    });
  }
});
