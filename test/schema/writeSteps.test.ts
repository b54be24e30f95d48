/**
 * writeSteps: the record of what each write changed, by the tables it made. Writes that nothing read between
 * them make one step; the joined steps share one array, and each step still says exactly what its own writes
 * (and those it joined) changed.
 */
import { describe, expect, it } from 'vitest';
import type { EntityTables } from '../../core/schema/types.js';
import { recordStep, stepOf, versionOf } from '../../core/schema/writeSteps.js';

/** A new version of the tables (only its identity matters here). */
const tables = () => ({}) as EntityTables;
const rec = (pk: string) => ['Todo', pk] as const;

describe('write steps', () => {
  it('a write read before the next: each step is its own write', () => {
    const t0 = tables();
    const t1 = tables();
    recordStep(t1, t0, [rec('1')]);
    versionOf(t1); // read
    const t2 = tables();
    recordStep(t2, t1, [rec('2')]);
    expect(stepOf(t1)?.base).toBe(versionOf(t0));
    expect(stepOf(t1)?.changed).toEqual([rec('1')]);
    expect(stepOf(t2)?.base).toBe(versionOf(t1));
    expect(stepOf(t2)?.changed).toEqual([rec('2')]);
  });

  it('writes nothing read between: one step from the first write’s tables, with every record in order', () => {
    const t0 = tables();
    versionOf(t0);
    let last = t0;
    const made: EntityTables[] = [];
    for (let i = 1; i <= 5; i++) {
      const next = tables();
      recordStep(next, last, [rec(String(i))]);
      made.push((last = next));
    }
    const step = stepOf(last)!;
    expect(step.base).toBe(versionOf(t0));
    expect(step.changed).toEqual([1, 2, 3, 4, 5].map((i) => rec(String(i))));
    // an earlier step of the burst, read after later writes extended it: only its own writes
    expect(stepOf(made[1]!)?.changed).toEqual([rec('1'), rec('2')]);
    expect(stepOf(made[0]!)?.changed).toEqual([rec('1')]);
    expect(stepOf(made[3]!)?.changed).toEqual([1, 2, 3, 4].map((i) => rec(String(i))));
    expect(stepOf(last)?.changed).toEqual([1, 2, 3, 4, 5].map((i) => rec(String(i))));
  });

  it('two writes from the same unread tables: neither step holds the other’s records', () => {
    const t0 = tables();
    versionOf(t0);
    const t1 = tables();
    recordStep(t1, t0, [rec('1')]);
    const t2 = tables();
    recordStep(t2, t1, [rec('2')]);
    // another write from t2 (nothing read t2), then one from t1 again (a write over an older state)
    const a = tables();
    recordStep(a, t2, [rec('a')]);
    const b = tables();
    recordStep(b, t2, [rec('b')]);
    const c = tables();
    recordStep(c, t1, [rec('c')]);
    expect(stepOf(a)?.changed).toEqual([rec('1'), rec('2'), rec('a')]);
    expect(stepOf(b)?.changed).toEqual([rec('1'), rec('2'), rec('b')]);
    expect(stepOf(c)?.changed).toEqual([rec('1'), rec('c')]);
    expect(stepOf(t2)?.changed).toEqual([rec('1'), rec('2')]);
    for (const t of [a, b, c]) expect(stepOf(t)?.base).toBe(versionOf(t0));
  });

  it('does not change the array a write handed in', () => {
    const t0 = tables();
    versionOf(t0);
    const first = [rec('1')];
    const t1 = tables();
    recordStep(t1, t0, first);
    const t2 = tables();
    recordStep(t2, t1, [rec('2')]);
    expect(first).toEqual([rec('1')]);
    expect(stepOf(t2)?.changed).toEqual([rec('1'), rec('2')]);
  });

  it('past 512 records a write starts a step of its own', () => {
    const t0 = tables();
    versionOf(t0);
    const t1 = tables();
    recordStep(
      t1,
      t0,
      Array.from({ length: 510 }, (_, i) => rec(String(i))),
    );
    const t2 = tables();
    recordStep(t2, t1, [rec('x'), rec('y')]);
    expect(stepOf(t2)?.changed).toHaveLength(512);
    const t3 = tables();
    recordStep(t3, t2, [rec('z')]);
    expect(stepOf(t3)?.base).toBe(versionOf(t2));
    expect(stepOf(t3)?.changed).toEqual([rec('z')]);
  });
});
