/**
 * A list the memo set out to patch after a write and then read whole (a touched row became INVALID or missing):
 * the whole read is compared with the list's previous reads, which must be left as they were, so that a row the
 * write dropped leaves the list, as a fresh controller reads it.
 */
import { describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint, schema, type QueryState } from '../../core/index.js';

class Row extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'FallbackRow';
}

const API = 'http://fallback.test';
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `row ${i + 1}` }));
const ids = (data: unknown) => (data as Row[]).map((row) => row.id);

describe('a patched list read whole after all', () => {
  for (const n of [40, 70]) {
    it(`drops a Collection's row of ${n} invalidated after a write, as a fresh controller does`, () => {
      const list = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: new schema.Collection([Row]) });
      const controller = new Controller({ retry: 0, environment: {}, now: () => 1_000 });
      controller.setResponse(list, {}, rows(n));
      const states: QueryState<unknown>[] = [];
      const subscription = controller.observe(list, {}).subscribe((state) => states.push(state));
      controller.set(Row, { id: 1 }, { id: 1, title: 'one' }); // the readers index starts
      controller.set(Row, { id: 2 }, { id: 2, title: 'two' }); // patched from here on
      const emitted = states.length;
      controller.set(new schema.Invalidate(Row), { id: 3 }, { id: 3 });
      const fresh = new Controller({ initialState: controller.getState(), now: () => 1_000 });
      expect(ids(fresh.getResponse(list, {}).data)).not.toContain(3);
      expect(ids(states.at(-1)!.data)).toEqual(ids(fresh.getResponse(list, {}).data));
      expect(states).toHaveLength(emitted + 1);
      // and the list goes on following its rows
      controller.set(Row, { id: 4 }, { id: 4, title: 'four' });
      expect((states.at(-1)!.data as Row[])[2]!.title).toBe('four');
      subscription.unsubscribe();
      controller.dispose();
    });
  }

  it('shows a row changed and drops a row invalidated by one write', () => {
    const list = new RestEndpoint({ urlPrefix: API, path: '/more', schema: new schema.Collection([Row]) });
    const both = new RestEndpoint({
      urlPrefix: API,
      path: '/both',
      schema: { changed: Row, gone: new schema.Invalidate(Row) },
    });
    const controller = new Controller({ retry: 0, environment: {}, now: () => 1_000 });
    controller.setResponse(list, {}, rows(50));
    const states: QueryState<unknown>[] = [];
    const subscription = controller.observe(list, {}).subscribe((state) => states.push(state));
    controller.set(Row, { id: 1 }, { id: 1, title: 'one' });
    controller.set(Row, { id: 2 }, { id: 2, title: 'two' });
    const emitted = states.length;
    controller.setResponse(both, {}, { changed: { id: 5, title: 'five' }, gone: { id: 9 } });
    const data = states.at(-1)!.data as Row[];
    expect(states).toHaveLength(emitted + 1);
    expect(ids(data)).not.toContain(9);
    expect(data[4]!.title).toBe('five');
    expect(ids(data)).toEqual(ids(new Controller({ initialState: controller.getState() }).getResponse(list, {}).data));
    subscription.unsubscribe();
    controller.dispose();
  });
});
