/**
 * Outside review (takeSnapshot/restoreSnapshot as the sync add-on uses them, API.md "a response, set,
 * invalidation or reset in one tab applies in the others"): marks carried by a snapshot reach live observers.
 */
import { describe, expect, it } from 'vitest';
import { restoreSnapshot, takeSnapshot } from '../../core/index.js';
import { TodoResource, record, settled, useTodoServer } from '../reliability/faultHarness.js';
import { counter, json, useControllers } from './fixtures.js';

const fake = useTodoServer();
const { make } = useControllers();
const count = counter(fake);
const later = () => new Promise((resolve) => setTimeout(resolve, 3));

/** `c` observes todo 1 and has it; then `other` fetches it too, and a few ms pass (later marks are newer). */
async function observedHereFetchedThere() {
  const c = make();
  const other = make();
  const s = record(c.observe(TodoResource.get, { id: 1 }));
  await settled(() => expect(s.last().data?.title).toBe('todo 1'));
  await other.fetch(TodoResource.get, { id: 1 });
  await later();
  return { c, other, s };
}

describe('marks in a restored snapshot', () => {
  it('an invalidation made in another controller after this one fetched: the observer refetches', async () => {
    const { c, other, s } = await observedHereFetchedThere();
    other.invalidate(TodoResource.get, { id: 1 });
    restoreSnapshot(c, json(takeSnapshot(other, { invalid: true })));
    await settled(() => expect(count('GET /todos/1')).toBe(3));
    await settled(() => expect(s.last()).toMatchObject({ fetching: false, loading: false }));
    expect(s.last().data?.title).toBe('todo 1');
    s.unsubscribe();
  });

  it('an expiry made elsewhere: the observer keeps its data and refetches in the background', async () => {
    const { c, other, s } = await observedHereFetchedThere();
    other.expireAll(TodoResource.get);
    restoreSnapshot(c, json(takeSnapshot(other)));
    await settled(() => expect(count('GET /todos/1')).toBe(3));
    await settled(() => expect(s.last()).toMatchObject({ fetching: false, stale: false }));
    expect(s.values.every((v) => v.data !== undefined || v === s.values[0])).toBe(true);
    s.unsubscribe();
  });
});
