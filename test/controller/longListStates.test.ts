/**
 * The states of a long list (its rows indexed by their table): a write to a row of the table it does not hold
 * re-reads it, and tells nothing when its state would be the same, as for a short list (which that write does not
 * reach), whether the list shows data, an error of its request, or an error of its stored value.
 */
import { describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint, type QueryState } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';

class Reading extends Entity {
  id = 0;
  value = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'StatesReading';
  static override schema = {
    value: (raw: unknown) => {
      if (raw === 'bad') throw new Error('unreadable value');
      return raw;
    },
  };
}

const API = 'http://states.test';
const readings = new RestEndpoint({ urlPrefix: API, path: '/readings', schema: [Reading] });
const list = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, value: 'ok' }));

describe('a long list that cannot be read', () => {
  for (const n of [5, LONG_READ + 6]) {
    it(`tells nothing of a write to a row it does not hold (${n} rows), and recovers once its row is fixed`, () => {
      const controller = new Controller({ retry: 0, environment: {}, now: () => 1_000 });
      controller.setResponse(readings, {}, list(n));
      const states: QueryState<unknown>[] = [];
      const subscription = controller.observe(readings, {}).subscribe((state) => states.push(state));
      controller.set(Reading, { id: 2 }, { id: 2, value: 'bad' });
      expect(states.at(-1)!.error?.message).toMatch(/unreadable value/);
      expect(states.at(-1)!.data).toBeUndefined();
      const emitted = states.length;
      controller.set(Reading, { id: 1000 }, { id: 1000, value: 'ok' });
      controller.set(Reading, { id: 1001 }, { id: 1001, value: 'ok' });
      expect(states).toHaveLength(emitted);
      controller.set(Reading, { id: 2 }, { id: 2, value: 'fixed' });
      expect(states).toHaveLength(emitted + 1);
      expect(states.at(-1)!.error).toBeUndefined();
      expect((states.at(-1)!.data as Reading[]).map((reading) => reading.value)[1]).toBe('fixed');
      subscription.unsubscribe();
      controller.dispose();
    });
  }
});
