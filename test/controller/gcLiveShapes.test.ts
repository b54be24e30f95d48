/**
 * The collector and what live streams show of several shapes: long `schema.Union` lists (rows of one member in long
 * runs, and alternating), `schema.Values` objects, and the store's own queries observed live (`schema.All`,
 * `schema.Query`, an Entity by pk), and records of them deleted and buried by the sweep. A collection, after seeded writes of other keys that then fall due, drops
 * nothing any of them shows: no stream changes or emits, and each still shows what a fresh controller reads.
 */
import { describe, expect, it } from 'vitest';
import { Entity, RestEndpoint, schema } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { seededStreams } from '../fixtures/seededStreams.js';
import { Link, Note, members } from '../fixtures/noteFeed.js';

class Row extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'GcShapeRow';
}

const API = 'http://gc-shapes.test';
const feed = new RestEndpoint({
  urlPrefix: API,
  path: '/feed',
  schema: new schema.Collection([new schema.Union(members, 'type')]),
});
const links = new RestEndpoint({ urlPrefix: API, path: '/links', schema: new schema.Collection([Link]) });
const mixed = new RestEndpoint({ urlPrefix: API, path: '/mixed', schema: new schema.Array(members, 'type') });
const byId = new RestEndpoint({ urlPrefix: API, path: '/by-id', schema: new schema.Values(members, 'type') });
const other = new RestEndpoint({ urlPrefix: API, path: '/other/:step', schema: new schema.Array(members, 'type') });
const rows = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: [Row] });
const allRows = new schema.All(Row);
const rowCount = new schema.Query(allRows, (list) => list.length);

const item = (id: string, type: string, step = 0) =>
  type === 'link' ? { id, type, url: `u${id}.${step}` } : { id, type, text: `t${id}.${step}` };

describe('a collection and what live streams show', () => {
  for (const length of [5, LONG_READ + 1])
    for (const seed of [1, 2])
      it(`drops nothing a Union list, a Values object or a live store query shows (${length} items, seed ${seed})`, () => {
        const clock = { now: 1_000_000 };
        const h = seededStreams(seed * 31 + length, { gcTime: 60_000, now: () => clock.now });
        const { rnd, controller } = h;
        // the feed: a long run of links, then notes; the mixed list alternates
        const feedItems = Array.from({ length }, (_, i) => item(`f${i}`, 'link')).concat(
          Array.from({ length: 3 }, (_, i) => item(`n${i}`, 'note')),
        );
        const mixedItems = Array.from({ length }, (_, i) => item(`m${i}`, i % 2 ? 'link' : 'note'));
        controller.setResponse(feed, {}, feedItems);
        controller.setResponse(mixed, {}, mixedItems);
        controller.setResponse(byId, {}, Object.fromEntries(mixedItems.map((value) => [value.id, value])));
        // rows no kept result holds: only the live queries show them
        controller.setResponse(
          rows,
          {},
          Array.from({ length }, (_, i) => ({ id: `${i}`, title: `r${i}` })),
        );
        h.watch('feed', feed);
        h.watch('mixed', mixed);
        h.watch('byId', byId);
        h.watch('All(Row)', allRows);
        h.watch('Query(count)', rowCount);
        h.watch('Row 1', Row, { id: '1' });
        for (let step = 0; step < 30; step++) {
          const op = rnd.int(6);
          // past the sweep's interval now and then: deleted records are buried at the next write
          if (rnd.next() < 0.3) clock.now += 20_000;
          h.run(
            `step ${step} op ${op}`,
            () => {
              if (op === 0)
                controller.setResponse(other, { step: String(step) }, [
                  item(rnd.pick(feedItems).id, 'link', step),
                  item(`o${step}`, 'note', step),
                ]);
              else if (op === 1) controller.set(Note, { id: 'n0' }, item('n0', 'note', step));
              else if (op === 2) {
                const id = `${rnd.int(length)}`;
                controller.set(Row, { id }, { id, title: `w${step}` });
              } else if (op === 3) controller.set(new schema.Invalidate(Link), { id: `o${step}` }, { id: `o${step}` });
              else if (op === 4) {
                // an item the lists show deleted: dropped from them, then buried by a sweep without a word
                const { id, type } = rnd.pick([...feedItems, ...mixedItems]);
                controller.set(new schema.Invalidate(type === 'link' ? Link : Note), { id }, { id });
              } else {
                const id = `${rnd.int(length)}`;
                controller.set(new schema.Invalidate(Row), { id }, { id });
              }
            },
            op === 0,
          );
          if (step % 10 === 9) {
            clock.now += 120_000;
            const before = h.watched.map((w) => [w.states.length, w.states.at(-1)!.data] as const);
            h.run(`the collection after step ${step}`, () => controller.gc());
            h.watched.forEach((w, i) => {
              expect(w.states.length, `${w.name}: no emission`).toBe(before[i]![0]);
              expect(w.states.at(-1)!.data, `${w.name}: the same data`).toBe(before[i]![1]);
            });
          }
        }
        h.dispose();
      });
});

describe('a list a sweep rewrote', () => {
  for (const union of [false, true])
    it(`stays the same list on the next write that reaches it (a Collection of ${union ? 'a Union' : 'rows'}, ${LONG_READ + 1} items)`, () => {
      const clock = { now: 1_000_000 };
      const h = seededStreams(7, { gcTime: 60_000, now: () => clock.now });
      const { controller } = h;
      const items = Array.from({ length: LONG_READ + 1 }, (_, i) => item(`f${i}`, 'link'));
      if (union) controller.setResponse(feed, {}, items);
      else controller.setResponse(links, {}, items);
      h.watch('list', union ? feed : links);
      h.run('an item deleted', () => controller.set(new schema.Invalidate(Link), { id: 'f3' }, { id: 'f3' }));
      clock.now += 20_000;
      // the tombstone buried and the list written without it: no read changes
      h.run('a response past the sweep interval', () =>
        controller.setResponse(other, { step: 'x' }, [item('x', 'note')]),
      );
      expect(controller.getState().entities[Link.key]?.['f3']).toBeUndefined();
      // a link the list does not hold: its table's write reaches the list, which is as it was
      h.run('another link written', () => controller.set(Link, { id: 'y' }, item('y', 'link')));
      h.run('a link of the list written', () => controller.set(Link, { id: 'f5' }, item('f5', 'link', 1)));
      h.dispose();
    });
});
