/**
 * Lists of several entity types and whole-table reads around the lengths where the read path changes (`LONG_READ`,
 * and 32, from where a list is patched): `schema.Union` lists whose rows switch type, `schema.Values` objects whose
 * entries come and go, `schema.All` and a `schema.Query` over it, written in seeded sequences. After every write
 * each stream shows what a fresh controller reads, emits exactly when its data changed and keeps what did not.
 */
import { describe, expect, it } from 'vitest';
import { controllerInternals } from '../../core/controller/Controller.js';
import { Entity, RestEndpoint, schema } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { seededStreams } from '../fixtures/seededStreams.js';
import { Link, Note, members } from '../fixtures/noteFeed.js';

class Row extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static override key = 'PRow';
}

const API = 'http://poly.test';
const union = new schema.Union(members, 'type');
const feed = new RestEndpoint({
  urlPrefix: API,
  path: '/feed',
  schema: new schema.Collection([new schema.Union(members, 'type')]),
});
const plainFeed = new RestEndpoint({ urlPrefix: API, path: '/plain', schema: new schema.Array(members, 'type') });
const linkRun = new RestEndpoint({ urlPrefix: API, path: '/link-run', schema: new schema.Array(members, 'type') });
const byId = new RestEndpoint({ urlPrefix: API, path: '/by-id', schema: new schema.Values(Row) });
const mixedById = new RestEndpoint({ urlPrefix: API, path: '/mixed', schema: new schema.Values(members, 'type') });
const rows = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: [Row] });
const allRows = new schema.All(Row);
const allMixed = new schema.All(members, 'type');
const doneRows = new schema.Query(allRows, (list) => list.filter((row) => row.done));
const titled = new schema.Query(allRows, (list, prefix: string) => list.filter((row) => row.title.startsWith(prefix)));
const counts = new schema.Query(allRows, (list) => ({
  total: list.length,
  done: list.filter((row) => row.done).length,
}));

const item = (id: string, type: string, step = 0) =>
  type === 'link' ? { id, type, url: `u${id}.${step}` } : { id, type, text: `t${id}.${step}` };
const row = (id: string, step = 0, done = false) => ({ id, title: `r${id}.${step}`, done });

describe('Union, Values, All and Query reads written record by record', () => {
  const runs = [5, 31, 32, 33, LONG_READ - 1, LONG_READ, LONG_READ + 1].flatMap((length) => [
    { length, seed: 1, batch: false },
    { length, seed: 2, batch: false },
    { length, seed: 3, batch: true },
  ]);
  for (const { length, seed, batch } of runs) {
    it(`${length} items, seed ${seed}${batch ? ', two writes per task, batched' : ''}`, { timeout: 60_000 }, () => {
      const h = seededStreams(seed * 1000 + length, { batch });
      const { rnd, controller } = h;
      const types = new Map<string, string>();
      let ids = Array.from({ length }, (_, i) => `${i + 1}`);
      for (const id of ids) types.set(id, rnd.next() < 0.5 ? 'link' : 'note');
      const items = (list: string[], step = 0) => list.map((id) => item(id, types.get(id)!, step));
      let rowIds = Array.from({ length }, (_, i) => `${i + 1}`);
      const entries = (list: string[], step = 0) => Object.fromEntries(list.map((id) => [`k${id}`, row(id, step)]));
      const mixedEntries = (list: string[], step = 0) =>
        Object.fromEntries(list.map((id) => [`k${id}`, item(id, types.get(id)!, step)]));
      controller.setResponse(feed, {}, items(ids));
      controller.setResponse(plainFeed, {}, items(ids));
      controller.setResponse(byId, {}, entries(rowIds));
      controller.setResponse(mixedById, {}, mixedEntries(ids));
      controller.setResponse(
        rows,
        {},
        rowIds.map((id) => row(id)),
      );
      // a long run of one member, then the other (its first table indexed whole from LONG_READ rows on)
      controller.setResponse(linkRun, {}, [...ids.map((id) => item(`L${id}`, 'link')), item('tail', 'note')]);
      h.watch('linkRun', linkRun);
      expect(controllerInternals(controller).cache.byPath.has(Link.key), 'the run indexed by its table').toBe(
        length >= LONG_READ,
      );
      h.watch('feed', feed);
      h.watch('plainFeed', plainFeed);
      h.watch('byId', byId);
      h.watch('mixedById', mixedById);
      h.watch('rows', rows);
      h.watch('All(Row)', allRows);
      h.watch('All(mixed)', allMixed);
      h.watch('Query(done)', doneRows);
      h.watch('Query(counts)', counts);
      h.watch('Query(titled r1)', titled, 'r1');
      h.watch('Query(titled w)', titled, 'w');
      let next = 1000;
      const write = (step: number, op: number, id: string) => {
        switch (op) {
          case 0: {
            const type = types.get(id) ?? 'link';
            controller.set(type === 'link' ? Link : Note, { id }, item(id, type, step));
            break;
          }
          case 1: {
            // the row switches type: the list is answered anew with it as the other member
            const type = types.get(id) === 'link' ? 'note' : 'link';
            types.set(id, type);
            if (!ids.includes(id)) ids = [...ids, id];
            controller.setResponse(rnd.next() < 0.5 ? feed : plainFeed, {}, items(ids, step));
            break;
          }
          case 2: {
            // the record of one member holds the other type's name now (the stored reference still names its table)
            const type = types.get(id) ?? 'link';
            controller.set(type === 'link' ? Link : Note, { id }, { id, type: type === 'link' ? 'note' : 'link' });
            break;
          }
          case 3:
            controller.set(Row, { id }, row(id, step, rnd.next() < 0.5));
            break;
          case 4: {
            if (rnd.next() < 0.5 && rowIds.length > 1) rowIds = rowIds.filter((_, i) => i !== rnd.int(rowIds.length));
            else rowIds = [...rowIds, `${next++}`];
            controller.setResponse(byId, {}, entries(rowIds, step));
            break;
          }
          case 5: {
            if (rnd.next() < 0.5 && ids.length > 1) ids = ids.filter((_, i) => i !== rnd.int(ids.length));
            else {
              const added = `${next++}`;
              types.set(added, rnd.next() < 0.5 ? 'link' : 'note');
              ids = [added, ...ids];
            }
            controller.setResponse(mixedById, {}, mixedEntries(ids, step));
            break;
          }
          case 6:
            // a row another endpoint brings: All and the Query read it
            controller.setResponse(rows, {}, [row(`${next++}`, step), row(id, step, true)]);
            break;
          case 7:
            controller.set(new schema.Invalidate(Row), { id }, { id });
            break;
          case 8: {
            const type = types.get(id) ?? 'note';
            controller.set(new schema.Invalidate(type === 'link' ? Link : Note), { id }, { id });
            break;
          }
          case 9:
            controller.set([Row], [row(id, step, true), row(`${Number(id) + 1}`, step)]);
            break;
          case 12: {
            // a batch of union rows, one of them switching type (its record written into the other table)
            const other = `${Number(id) + 1}`;
            const type = types.get(other) === 'link' ? 'note' : 'link';
            controller.set([union], [item(id, types.get(id) ?? 'link', step), item(other, type, step)]);
            break;
          }
          case 14: {
            // a link of the run, or one it does not hold
            const pk = `L${rnd.int(length + 5) + 1}`;
            if (rnd.next() < 0.3) controller.set(new schema.Invalidate(Link), { id: pk }, { id: pk });
            else controller.set(Link, { id: pk }, item(pk, 'link', step));
            break;
          }
          case 13:
            controller.set(Row, { id }, { id, title: `w${step}` });
            break;
          case 10:
            controller.setResponse(feed, {}, items(ids, step));
            break;
          default: {
            // the same values again
            const stored = controller.getState().entities['PRow']?.[id];
            controller.set(Row, { id }, typeof stored === 'object' && stored !== null ? { ...stored } : row(id));
          }
        }
      };
      const responds = (op: number) => op === 1 || op === 4 || op === 5 || op === 6 || op === 10;
      h.steps(80, 15, () => `${rnd.int(length + 5) + 1}`, write, responds, batch);
      h.dispose();
    });
  }
});

describe('schema.All and a deleted row', () => {
  for (const length of [3, LONG_READ + 1])
    it(`keeps its list (no emission) when a write deletes a row it does not show, ${length} rows`, () => {
      const h = seededStreams(length);
      const { controller } = h;
      controller.set(
        [Row],
        Array.from({ length }, (_, i) => row(`${i + 1}`)),
      );
      h.watch('All(Row)', allRows);
      h.watch('All(mixed)', allMixed);
      controller.set(Link, { id: 'a' }, item('a', 'link'));
      // a row that was never stored, then one stored and deleted twice: its tombstone stays in the table
      h.run('a missing row deleted', () => controller.set(new schema.Invalidate(Row), { id: 'x' }, { id: 'x' }));
      h.run('a missing link deleted', () => controller.set(new schema.Invalidate(Link), { id: 'y' }, { id: 'y' }));
      h.run('a row deleted', () => controller.set(new schema.Invalidate(Row), { id: '2' }, { id: '2' }));
      h.run('the row deleted again', () => controller.set(new schema.Invalidate(Row), { id: '2' }, { id: '2' }));
      h.run('another row written', () => controller.set(Row, { id: '1' }, row('1', 1)));
      h.dispose();
    });
});
