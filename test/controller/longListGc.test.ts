/**
 * The collector and a long list (its rows indexed by their table): a deleted row's tombstone is buried by a sweep
 * without a re-emission, a collection keeps every row the list reads and drops the rest, a snapshot of the list's
 * key and the inspector see its rows, and once the list is released its rows go.
 */
import { describe, expect, it } from 'vitest';
import {
  Controller,
  Entity,
  RestEndpoint,
  inspectController,
  schema,
  takeSnapshot,
  type QueryState,
} from '../../core/index.js';
import { controllerInternals } from '../../core/controller/Controller.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';

class Row extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'GcRow';
}

const API = 'http://gc.test';
const json = (value: unknown) => JSON.stringify(value);
const other = new RestEndpoint({ urlPrefix: API, path: '/other', schema: [Row] });

describe('the collector and a long list', () => {
  for (const n of [10, LONG_READ + 6])
    for (const collection of [true, false])
      it(`keeps what a list of ${n} reads, buries its deleted row, lets go once released (${collection ? 'a Collection' : '[Row]'})`, () => {
        const clock = { now: 1_000_000 };
        // one type for both (they read and write the same JSON)
        const list = (collection
          ? new RestEndpoint({ urlPrefix: API, path: '/collection', schema: new schema.Collection([Row]) })
          : new RestEndpoint({ urlPrefix: API, path: '/rows', schema: [Row] })) as unknown as typeof other;
        const controller = new Controller({ retry: 0, environment: {}, now: () => clock.now, gcTime: 60_000 });
        controller.setResponse(
          list,
          {},
          Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `r${i + 1}` })),
        );
        controller.setResponse(other, {}, [
          { id: 500, title: 'x' },
          { id: 1, title: 'r1' },
        ]);
        const states: QueryState<unknown>[] = [];
        const subscription = controller.observe(list, {}).subscribe((state) => states.push(state));
        const expectFresh = (what: string) => {
          const fresh = new Controller({ initialState: controller.getState(), now: () => clock.now });
          expect(json(states.at(-1)!.data), what).toBe(json(fresh.getResponse(list, {}).data));
          fresh.dispose();
        };
        for (let k = 0; k < 3; k++) controller.set(Row, { id: 2 + k }, { id: 2 + k, title: `w${k}` });
        controller.set(new schema.Invalidate(Row), { id: 3 }, { id: 3 });
        expectFresh('a row deleted');

        // a write past the sweep's interval buries the tombstone: the list tells nothing of it
        clock.now += 20_000;
        const emitted = states.length;
        const data = states.at(-1)!.data;
        controller.setResponse(other, {}, [
          { id: 500, title: 'y' },
          { id: 1, title: 'r1' },
        ]);
        expect(controller.getState().entities['GcRow']?.['3']).toBeUndefined();
        expect(states).toHaveLength(emitted);
        expect(states.at(-1)!.data).toBe(data);
        controller.set(Row, { id: 5 }, { id: 5, title: 'after the sweep' });
        expect(states).toHaveLength(emitted + 1);
        expectFresh('a write after the sweep');

        // the other key falls due: its own row goes, every row of the list stays
        clock.now += 120_000;
        controller.gc();
        const table = controller.getState().entities['GcRow']!;
        for (let id = 1; id <= n; id++) if (id !== 3) expect(table[String(id)], `row ${id}`).toBeDefined();
        expect(table['500']).toBeUndefined();
        expectFresh('after a collection');
        const key = list.key({});
        expect(Object.keys(takeSnapshot(controller, { keys: [key] }).entities['GcRow'] ?? {})).toHaveLength(n - 1);
        controller.set(Row, { id: 6 }, { id: 6, title: 'after the collection' });
        expectFresh('a write after the collection');
        expect(inspectController(controller).readers('GcRow', '6')).toEqual([key]);

        // released: its rows go at the next collection
        subscription.unsubscribe();
        expect(controllerInternals(controller).cache.byPath.size).toBe(0);
        clock.now += 120_000;
        controller.gc();
        expect(Object.keys(controller.getState().entities['GcRow'] ?? {})).toHaveLength(0);
        controller.dispose();
      });
});
