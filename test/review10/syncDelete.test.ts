/**
 * Outside review (API.md rx-rest/sync: "a response, set, invalidation or reset in one tab applies in the
 * others"): a deletion made in a tab that never read the record still reaches the tabs that show it.
 */
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, type ControllerOptions } from '../../core/index.js';
import { syncTabs } from '../../adapters/sync/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, record, settled, useTodoServer } from '../reliability/faultHarness.js';

useTodoServer();
let channel = 0;
let name = '';
const tabs: Controller[] = [];
beforeEach(() => {
  name = `review10-sync-${++channel}`;
  vi.stubGlobal('document', {}); // tabs of a browser: without a document syncTabs does nothing
});
afterEach(() => {
  for (const t of tabs.splice(0)) t.dispose();
  vi.unstubAllGlobals();
});
const tab = (options: ControllerOptions = {}) => {
  const c = new Controller({ retry: 0, managers: [(c) => syncTabs(c, { channel: name })], ...options });
  tabs.push(c);
  return c;
};
const restored = (c: Controller) => firstValueFrom(c.actions$.pipe(filter((a) => a.type === 'restore')));

describe('a deletion from a tab that never read the record', () => {
  for (const gcTime of [Infinity, undefined]) {
    it(`the other tab drops it from its list (gcTime ${gcTime})`, async () => {
      const a = tab({ gcTime });
      const b = tab({ gcTime });
      const list = record(a.observe(TodoResource.getList, undefined));
      await settled(() => expect(list.last().data).toHaveLength(4));
      await new Promise((resolve) => setTimeout(resolve, 3));
      const heard = restored(a);
      await b.fetch(TodoResource.delete, { id: 2 });
      await heard;
      await settled(() => expect(list.last().data?.map((t) => t.id)).toEqual([1, 3, 4]));
      expect(a.get(Todo, { id: 2 })).toBeUndefined();
      list.unsubscribe();
    });
  }
});
