/**
 * Writes into a Collection of `schema.Values` (assign, remove, move) cost in proportion to what they change:
 * the merge already says whether it changed the stored object, so no equality walk over the unchanged entries
 * follows it (the one copy of the object, which a changed collection needs, reads each entry once). And the
 * identity rules hold: an unchanged collection keeps its object, a changed one is a new object, and the
 * entries that did not change read back as the same instances.
 */
import { describe, expect, it } from 'vitest';
import { Entity, RestEndpoint, schema } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';

const API = 'http://r12v.test';
const { make } = useControllers({ retry: 0, environment: {} });

class Row extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'R12Row';
}
class Note extends Entity {
  id = '';
  kind = 'note';
  pk() {
    return this.id;
  }
  static override key = 'R12Note';
}

const byId = new schema.Collection(new schema.Values(Row));
const map = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: byId });
const assign = new RestEndpoint({ urlPrefix: API, path: '/rows', method: 'POST', schema: byId.assign });
const remove = new RestEndpoint({ urlPrefix: API, path: '/rows/:id', method: 'DELETE', schema: byId.remove });

const mixed = new schema.Collection(new schema.Values({ row: Row, note: Note }, 'kind'));
const mixedMap = new RestEndpoint({ urlPrefix: API, path: '/mixed', schema: mixed });
const mixedAssign = new RestEndpoint({ urlPrefix: API, path: '/mixed', method: 'POST', schema: mixed.assign });

const rows = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { id: `r${i}`, name: `row ${i}` }]));

/** The stored object of the Values collection of `{}` (its `pk` is the arguments key). */
const stored = (c: ReturnType<typeof make>, table = byId.key) =>
  c.getState().entities[table]!['{}'] as Record<string, unknown>;

/**
 * A controller whose stored Values collection of n entries is a Proxy counting every look at it (its keys,
 * descriptors, values): what a write reads of the unchanged entries.
 */
function counted(n: number) {
  const c = make();
  c.setResponse(map, {}, rows(n));
  const target = { ...stored(c) };
  let looks = 0;
  const proxy = new Proxy(target, {
    get: (t, key, receiver) => (looks++, Reflect.get(t, key, receiver)),
    has: (t, key) => (looks++, Reflect.has(t, key)),
    ownKeys: (t) => (looks++, Reflect.ownKeys(t)),
    getOwnPropertyDescriptor: (t, key) => (looks++, Reflect.getOwnPropertyDescriptor(t, key)),
  });
  const state = c.getState();
  const restored = make({
    initialState: JSON.parse(JSON.stringify({ ...state, entities: { ...state.entities, [byId.key]: {} } })),
  });
  // the restored state with the counting object in place of the stored collection
  (restored.getState().entities[byId.key] as Record<string, unknown>)['{}'] = proxy;
  return { c: restored, looks: () => looks, reset: () => (looks = 0) };
}

describe('a write into a large Collection of Values reads each unchanged entry at most once (the copy)', () => {
  const n = 2_000;

  it('assign of one new entry', () => {
    const { c, looks, reset } = counted(n);
    expect(Object.keys(c.getResponse(map, {}).data!)).toHaveLength(n);
    reset();
    c.setResponse(assign, {}, { added: { id: 'added', name: 'new' } });
    // one copy of the object: its keys once, each entry's descriptor and value once
    expect(looks()).toBeLessThanOrEqual(2 * n + 20);
    expect(stored(c).added).toBe('added');
    expect(Object.keys(stored(c))).toHaveLength(n + 1);
  });

  it('remove of one entry', () => {
    const { c, looks, reset } = counted(n);
    reset();
    c.setResponse(remove, { id: 'r7' }, { r7: { id: 'r7' } });
    expect(looks()).toBeLessThanOrEqual(4 * n + 20);
    expect(stored(c).r7).toBeUndefined();
    expect(Object.keys(stored(c))).toHaveLength(n - 1);
  });

  it('assign or remove that changes nothing reads no unchanged entry and keeps the object', () => {
    const { c, looks, reset } = counted(n);
    const before = stored(c);
    reset();
    c.setResponse(assign, {}, { r3: { id: 'r3', name: 'row 3' } });
    expect(looks()).toBeLessThanOrEqual(20);
    expect(stored(c)).toBe(before);
  });
});

describe('identity through Values collection writes', () => {
  it('assign: a new collection object and a new read; the other entries keep their instances', () => {
    const c = make();
    c.setResponse(map, {}, rows(5));
    const emitted: Record<string, Row>[] = [];
    const sub = c.observe(map, {}).subscribe((s) => s.data && emitted.push(s.data as Record<string, Row>));
    const storedBefore = stored(c);
    c.setResponse(assign, {}, { r9: { id: 'r9', name: 'nine' } });
    expect(stored(c)).not.toBe(storedBefore);
    expect(storedBefore).not.toHaveProperty('r9'); // the old state is untouched
    expect(emitted).toHaveLength(2);
    const [first, second] = emitted as [Record<string, Row>, Record<string, Row>];
    expect(second).not.toBe(first);
    expect(Object.keys(second)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r9']);
    for (const key of Object.keys(first)) expect(second[key]).toBe(first[key]);
    sub.unsubscribe();
  });

  it('assign of an entry already there (same reference) emits nothing and keeps the stored object', () => {
    const c = make();
    c.setResponse(map, {}, rows(3));
    const values: unknown[] = [];
    const sub = c.observe(map, {}).subscribe((s) => values.push(s.data));
    const before = stored(c);
    c.setResponse(assign, {}, { r1: { id: 'r1', name: 'row 1' } });
    expect(stored(c)).toBe(before);
    expect(values).toHaveLength(1);
    sub.unsubscribe();
  });

  it('assign of an entry whose record changed keeps the collection object, and only that entry is new', () => {
    const c = make();
    c.setResponse(map, {}, rows(3));
    const values: Record<string, Row>[] = [];
    const sub = c.observe(map, {}).subscribe((s) => values.push(s.data as Record<string, Row>));
    const before = stored(c);
    c.setResponse(assign, {}, { r1: { id: 'r1', name: 'renamed' } });
    expect(stored(c)).toBe(before); // the same references: only the entity changed
    expect(values).toHaveLength(2);
    expect(values[1]!.r1!.name).toBe('renamed');
    expect(values[1]!.r0).toBe(values[0]!.r0);
    expect(values[1]!.r2).toBe(values[0]!.r2);
    sub.unsubscribe();
  });

  it('a Values of a Union: assigning a member already there keeps the stored object', () => {
    const c = make();
    c.setResponse(mixedMap, {}, { a: { id: 'a', kind: 'row' }, b: { id: 'b', kind: 'note' } });
    const record = stored(c, mixed.key);
    c.setResponse(mixedAssign, {}, { b: { id: 'b', kind: 'note' } });
    expect(stored(c, mixed.key)).toBe(record);
    c.setResponse(mixedAssign, {}, { c: { id: 'c', kind: 'row' } });
    const after = stored(c, mixed.key);
    expect(after).not.toBe(record);
    expect(after.a).toBe(record.a); // unchanged references keep their objects
    expect(Object.keys(c.getResponse(mixedMap, {}).data!)).toEqual(['a', 'b', 'c']);
  });

  it('remove given one item (not an object of entries) is a type error: its fields would be read as entries', () => {
    const c = make();
    c.setResponse(map, {}, rows(2));
    // @ts-expect-error one item: remove of a Values collection takes an object of entries, as assign does
    const single: Parameters<typeof c.setResponse<typeof remove>>[2] = { id: 'r1', name: 'row 1' };
    expect(single).toBeDefined();
    c.setResponse(remove, { id: 'r1' }, { r1: { id: 'r1', name: 'row 1' } });
    expect(Object.keys(stored(c))).toEqual(['r0']);
  });

  it('remove of an entry not there keeps the object; of one there, a new object without it (a __proto__ key stays)', () => {
    const c = make();
    c.setResponse(map, {}, JSON.parse('{"__proto__":{"id":"p","name":"proto"},"r1":{"id":"r1","name":"one"}}'));
    const before = stored(c);
    c.setResponse(remove, { id: 'zz' }, { zz: { id: 'zz' } });
    expect(stored(c)).toBe(before);
    c.setResponse(remove, { id: 'r1' }, { r1: { id: 'r1' } });
    expect(stored(c)).not.toBe(before);
    expect(Object.keys(stored(c))).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(stored(c))).toBe(Object.getPrototypeOf(before));
    expect(before).toHaveProperty('r1');
  });
});
