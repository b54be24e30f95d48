/**
 * How the panel writes values as text (`describeValue`): a huge value is cut, and only the part that is
 * shown is read (a selected response of a million rows must not stall the panel's frame).
 */
import { describe, expect, it } from 'vitest';
import { describeValue } from '../../../adapters/devtools/format.js';

describe('describeValue', () => {
  it('a huge list: cut, and only what is shown is read', () => {
    let reads = 0;
    const rows = Array.from({ length: 1_000_000 }, (_, id) => ({ id, title: `row ${id}` }));
    const counted = new Proxy(rows, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const text = describeValue({ results: counted, total: rows.length });
    expect(text.length).toBeLessThan(21_000);
    expect(text).toMatch(/more characters\)$/);
    expect(text).toContain('"title": "row 0"');
    expect(reads).toBeLessThan(20_000);
  });

  it('a wide object: cut, and only what is shown is read', () => {
    let reads = 0;
    const wide = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`key${i}`, i]));
    const counted = new Proxy(wide, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const text = describeValue(counted);
    expect(text.length).toBeLessThan(21_000);
    expect(text).toContain('"key0": 0');
    expect(reads).toBeLessThan(20_000);
  });

  it('small values are written whole', () => {
    expect(describeValue({ a: [1, 2, { b: 'c' }] })).toBe(JSON.stringify({ a: [1, 2, { b: 'c' }] }, null, 2));
  });
});
