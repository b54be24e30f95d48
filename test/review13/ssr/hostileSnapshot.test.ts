/**
 * Hostile snapshots handed to `restoreSnapshot` on hydration (a page's state tampered with, or a stale save):
 * nothing reaches Object.prototype or changes an entity's class, a malformed one is a named error, and the
 * store keeps what it held (docs/reference.md, "Server rendering").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot } from '../../../core/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { Todo } from '../../fixtures/entities.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

async function holding() {
  const controller = new Controller({ retry: 0 });
  await controller.fetch(TodoResource.getList, { userId: 1 });
  return controller;
}

const listKey = TodoResource.getList.key({ userId: 1 });

describe('restoreSnapshot of a hostile page state', () => {
  it('__proto__ and constructor as table, pk and field names stay plain data', async () => {
    const controller = await holding();
    const snapshot = JSON.parse(
      `{"entities":{"__proto__":{"x":{"polluted":true}},"Todo":{"__proto__":{"id":9,"polluted":true},"1":{"id":1,"userId":1,"title":"t","completed":false,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}},"endpoints":{"__proto__":["1"]},"meta":{}}`,
    ) as unknown;
    restoreSnapshot(controller, snapshot);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const todo = controller.get(Todo, { id: 1 });
    expect(todo).toBeInstanceOf(Todo);
    expect((todo as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(controller.getResponse(TodoResource.getList, { userId: 1 }).data?.length).toBe(2);
  });

  it.each([
    ['a string', 'state'],
    ['a number', 42],
    ['an array', []],
  ])('a value that is no snapshot (%s) is a TypeError and changes nothing', async (_, value) => {
    const controller = await holding();
    const before = controller.getState();
    expect(() => restoreSnapshot(controller, value)).toThrow(TypeError);
    expect(controller.getState()).toBe(before);
  });

  it('a meta time that is no number is a SnapshotError naming the field, and the store is unchanged', async () => {
    const controller = await holding();
    const before = controller.getState();
    const good = takeSnapshot(controller);
    const bad = JSON.parse(JSON.stringify(good)) as { meta: Record<string, { date: unknown }> };
    bad.meta[listKey]!.date = 'yesterday';
    expect(() => restoreSnapshot(controller, bad)).toThrow(expect.objectContaining({ name: 'SnapshotError' }));
    expect(() => restoreSnapshot(controller, bad)).toThrow(/date/);
    expect(controller.getState()).toBe(before);
  });

  it('malformed parts (a table that is a list, a record that is a string) are dropped, the rest restored', async () => {
    const source = await holding();
    const snapshot = JSON.parse(JSON.stringify(takeSnapshot(source))) as Record<string, Record<string, unknown>>;
    snapshot.entities!.Other = ['x'];
    (snapshot.entities!.Todo as Record<string, unknown>)['7'] = 'not a record';
    const controller = new Controller({ retry: 0 });
    restoreSnapshot(controller, snapshot);
    expect(controller.getResponse(TodoResource.getList, { userId: 1 }).data?.map((t) => t.title)).toEqual([
      'todo 1',
      'todo 3',
    ]);
  });

  it('an old snapshot restored after newer data does not overwrite it', async () => {
    const controller = await holding();
    const old = takeSnapshot(controller);
    (old as { meta: Record<string, { date: number }> }).meta[listKey]!.date -= 10_000;
    controller.set(Todo, { id: 1 }, { id: 1, title: 'renamed' });
    restoreSnapshot(controller, JSON.parse(JSON.stringify(old)));
    expect(controller.get(Todo, { id: 1 })?.title).toBe('renamed');
  });
});
