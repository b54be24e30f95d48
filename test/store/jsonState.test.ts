/**
 * Values JSON cannot write (a `bigint`, a function, a symbol) in stored records: the store keeps them (the
 * app's own reads see them, nothing else is lost), and `assertJsonSafe` (what the add-ons that write the state as
 * JSON or send it elsewhere check with) throws a `SnapshotError` naming the entity and field of any of them.
 */
import { describe, expect, it } from 'vitest';
import { Controller, SnapshotError, takeSnapshot } from '../../core/index.js';
import { assertJsonSafe } from '../../core/internal.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('a bigint in a stored record', () => {
  it('stays in the store and is read; assertJsonSafe names the entity and field; nothing is lost', () => {
    const c = new Controller();
    c.setResponse(TodoResource.getList, {}, [row(1), row(2)]);
    c.set(Todo, { id: 2 }, { id: 2, amount: 10n });
    const before = c.getState();
    const error = caught(() => assertJsonSafe(c.getState(), 'persist(controller)'));
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as SnapshotError).name).toBe('SnapshotError');
    expect((error as SnapshotError).path).toBe('entities.Todo.2.amount');
    expect((error as Error).message).toMatch(/^persist\(controller\): entities\.Todo\.2\.amount: a bigint/);
    expect(c.getState()).toBe(before);
    expect((c.get(Todo, { id: 2 }) as unknown as { amount: bigint }).amount).toBe(10n);
    expect(c.getResponse(TodoResource.getList, {}).data?.map((todo) => todo.id)).toEqual([1, 2]);
    // once the value is replaced by one JSON holds, the state writes and restores again
    c.set(Todo, { id: 2 }, { id: 2, amount: '10' });
    const copy = new Controller({ initialState: JSON.parse(JSON.stringify(c.getState())) });
    expect(copy.getResponse(TodoResource.getList, {}).data?.[1]).toMatchObject({ id: 2, amount: '10' });
    c.dispose();
    copy.dispose();
  });

  it('JSON.stringify of getState(), state$ or takeSnapshot throws a SnapshotError naming the entity, pk and field', () => {
    const c = new Controller();
    const emitted: unknown[] = [];
    c.state$.subscribe((state) => emitted.push(state));
    c.setResponse(TodoResource.getList, {}, [row(1), row(2)]);
    c.set(Todo, { id: 2 }, { id: 2, amount: 10n });
    const before = c.getState();
    for (const [value, source] of [
      [c.getState(), 'JSON.stringify(getState())'],
      [emitted.at(-1), 'JSON.stringify(getState())'],
      [{ saved: c.getState() }, 'JSON.stringify(getState())'],
      [takeSnapshot(c), 'JSON.stringify(takeSnapshot())'],
    ] as const) {
      const error = caught(() => JSON.stringify(value));
      expect(error).toBeInstanceOf(SnapshotError);
      expect((error as SnapshotError).path).toBe('entities.Todo.2.amount');
      expect((error as Error).message).toBe(
        `${source}: entities.Todo.2.amount: a bigint cannot be written as JSON (JSON.stringify throws on it)`,
      );
    }
    // nothing is lost, and structured clone (postMessage) still takes a snapshot with its bigint
    expect(c.getState()).toBe(before);
    expect((c.get(Todo, { id: 2 }) as unknown as { amount: bigint }).amount).toBe(10n);
    expect(structuredClone(takeSnapshot(c)).entities.Todo?.['2']).toMatchObject({ amount: 10n });
    // the check adds no key: the state and a snapshot write as they did once the value is JSON again
    c.set(Todo, { id: 2 }, { id: 2, amount: '10' });
    expect(Object.keys(c.getState())).toEqual(Object.keys(JSON.parse(JSON.stringify(c.getState())) as object));
    expect(JSON.parse(JSON.stringify(takeSnapshot(c)))).toEqual(takeSnapshot(c));
    c.dispose();
  });

  it('a bigint in a response result (not a record) is named by its request key', () => {
    const c = new Controller();
    c.setResponse(TodoResource.get.extend({ schema: undefined }), { id: 7 }, { count: 1n } as never);
    const error = caught(() => assertJsonSafe(c.getState(), 'dehydrate')) as SnapshotError;
    expect(error.name).toBe('SnapshotError');
    expect(error.path).toBe(`endpoints.${TodoResource.get.key({ id: 7 })}.count`);
    c.dispose();
  });

  it('getState() of JSON values writes as before: the same JSON, every state', () => {
    const c = new Controller();
    const states: string[] = [];
    c.state$.subscribe((state) => states.push(JSON.stringify(state)));
    c.setResponse(TodoResource.getList, {}, [row(1)]);
    const json = JSON.parse(JSON.stringify(c.getState())) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual([
      'endpoints',
      'entities',
      'entitiesMeta',
      'lastReset',
      'meta',
      'optimistic',
    ]);
    expect(states.at(-1)).toBe(JSON.stringify(c.getState()));
    expect(JSON.parse(states.at(-1)!)).toEqual(json);
    c.dispose();
  });
});

describe('a function in a stored record', () => {
  it('stays in the store; JSON leaves it out as it does everywhere; assertJsonSafe names it', () => {
    const c = new Controller();
    const onClick = () => 'not data';
    c.set(Todo, { id: 1 }, { id: 1, title: 'with a function', onClick });
    expect((c.get(Todo, { id: 1 }) as unknown as { onClick: unknown }).onClick).toBe(onClick);
    expect(JSON.parse(JSON.stringify(c.getState())).entities.Todo['1']).toEqual({ id: 1, title: 'with a function' });
    const error = caught(() => assertJsonSafe(takeSnapshot(c), 'persist(controller)')) as SnapshotError;
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error.path).toBe('entities.Todo.1.onClick');
    expect(error.message).toMatch(/^persist\(controller\): entities\.Todo\.1\.onClick: a function/);
    expect((c.get(Todo, { id: 1 }) as unknown as { onClick: unknown }).onClick).toBe(onClick);
    c.dispose();
  });

  it('assertJsonSafe passes JSON values, dates and nested lists, and names a symbol in a list by its index', () => {
    expect(() => assertJsonSafe({ a: [1, 'x', null, { b: new Date(0) }], c: undefined }, 'test')).not.toThrow();
    const error = caught(() => assertJsonSafe({ a: [1, { b: [Symbol('s')] }] }, 'test')) as SnapshotError;
    expect(error.path).toBe('a.1.b.0');
    expect(error.message).toMatch(/a symbol/);
  });
});
