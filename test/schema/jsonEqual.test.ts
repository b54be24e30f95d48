/**
 * `jsonEqual`, the structural equality a write uses to keep what it did not change: own keys only, in any
 * order, the same count on both sides.
 */
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../core/schema/index.js';

describe('jsonEqual', () => {
  it('is true for the same fields in another order, nested objects and arrays alike', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, { d: 'x' }] } }, { b: { c: [1, { d: 'x' }] }, a: 1 })).toBe(true);
    expect(jsonEqual({ n: NaN }, { n: NaN })).toBe(true);
  });

  it('is false when one side has a field more, or another field in its place', () => {
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
    expect(jsonEqual({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
  });

  it('compares prototype-free objects with plain ones by their own fields', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [2] });
    expect(jsonEqual(bare, { b: [2], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, bare)).toBe(false);
  });

  it('counts own fields only, also when Object.prototype holds an enumerable one', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 1;
    try {
      expect(jsonEqual({ a: 1 }, { a: 1 })).toBe(true);
      expect(jsonEqual({ a: 1 }, { a: 1, polluted: 1 })).toBe(false);
      expect(jsonEqual({ a: 1, polluted: 1 }, { a: 1 })).toBe(false);
    } finally {
      delete proto.polluted;
    }
  });

  it('reads an own `__proto__` field as a field', () => {
    const a = JSON.parse('{"__proto__": {"x": 1}, "b": 2}') as unknown;
    expect(jsonEqual(a, JSON.parse('{"b": 2, "__proto__": {"x": 1}}'))).toBe(true);
    expect(jsonEqual(a, JSON.parse('{"b": 2, "__proto__": {"x": 2}}'))).toBe(false);
  });
});
