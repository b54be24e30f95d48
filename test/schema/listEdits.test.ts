/**
 * Lists written in parts (core/schema/listEdits.ts): additions and removals are logged with their
 * stamps, and a whole list answered by an older request takes its membership with the later ones
 * replayed; a newer whole list stays.
 */
import { describe, expect, it } from 'vitest';
import { normalize, schema, type NormalizedTables } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';

const todos = new schema.Collection([Todo]);
const todo = (id: number) => ({ id, title: `todo ${id}` });

/** Normalizes `value` with `s` over `state` as a write stamped `at`. */
function write(state: NormalizedTables, s: unknown, value: unknown, at: number, args: unknown[] = [{}]) {
  return normalize(s, value, args, state, { fetchedAt: at, date: at, expiresAt: at + 1000 });
}
const list = (state: NormalizedTables) => state.entities[todos.key]?.['{}'];

describe('a list answered by an older request', () => {
  it('replays the additions and removals made after that request started, in order', () => {
    let state: NormalizedTables = write({ entities: {}, entitiesMeta: {} }, todos, [todo(1), todo(2)], 10);
    state = write(state, todos.push, todo(5), 30, [{}, todo(5)]);
    state = write(state, todos.unshift, todo(6), 31, [{}, todo(6)]);
    state = write(state, todos.remove, todo(1), 32, [{}, todo(1)]);
    // a request started at 20 (after the list was loaded, before the changes) answers [1, 2, 3]
    const answered = write(state, todos, [todo(1), todo(2), todo(3)], 20);
    expect(list(answered)).toEqual(['6', '2', '3', '5']);
    expect(answered.keptNewerList).toBe(false);
    // one started at 31.5 already saw the first two changes: only the removal is replayed
    expect(list(write(state, todos, [todo(1), todo(2), todo(5)], 31.5))).toEqual(['2', '5']);
  });

  it('keeps a whole list written after the request started, and says so', () => {
    let state: NormalizedTables = write({ entities: {}, entitiesMeta: {} }, todos, [todo(1)], 10);
    state = write(state, todos, [todo(2)], 30);
    const answered = write(state, todos, [todo(1), todo(3)], 20);
    expect(list(answered)).toEqual(['2']);
    expect(answered.keptNewerList).toBe(true);
  });

  it('keeps the last 64 changes: an answer older than the ones folded away keeps the stored list', () => {
    let state: NormalizedTables = write({ entities: {}, entitiesMeta: {} }, todos, [todo(1)], 10);
    for (let i = 0; i < 70; i++) state = write(state, todos.push, todo(100 + i), 100 + i, [{}, todo(100 + i)]);
    const meta = state.entitiesMeta[todos.key]?.['{}'];
    expect(meta?.edits).toHaveLength(64);
    expect(meta?.base).toBe(105); // the newest of the six folded away
    expect(write(state, todos, [todo(1)], 50).keptNewerList).toBe(true);
    const recent = write(state, todos, [todo(1), todo(2)], 150);
    expect(recent.keptNewerList).toBe(false);
    expect(list(recent)).toEqual(['1', '2', ...Array.from({ length: 19 }, (_, i) => `${151 + i}`)]);
  });
});
