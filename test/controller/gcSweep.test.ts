/**
 * The sweep of deleted records between collections looks only at what may be buried: the records deleted
 * and the lists edited since the last pass (an index the writes keep), and what that pass left (pinned by
 * a running request); it walks every table only after a whole-state change. The passes are counted through
 * the tombstone module's own function (called through), with the records each one looked at.
 */
import { describe, expect, it, vi } from 'vitest';
import { Controller, INVALID, schema, takeSnapshot, restoreSnapshot } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';

const walks = vi.hoisted(() => ({ passes: 0, looked: [] as (readonly string[] | 'every record')[] }));
vi.mock('../../core/controller/tombstones.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../core/controller/tombstones.js')>();
  return {
    ...actual,
    toBury: (...args: Parameters<typeof actual.toBury>) => {
      walks.passes++;
      const only = args[4];
      walks.looked.push(
        only === undefined ? 'every record' : [...only].map((path) => path.replace('\u0000', ' ')).sort(),
      );
      return actual.toBury(...args);
    },
  };
});

const fake = useTodoServer();
const LIST_META = (controller: Controller) => controller.getState().entitiesMeta['[Todo]']?.['{}'];

/** A controller on a clock of our own (no key falls due within the test), the todo list observed, a first sweep run (nothing to bury). */
async function listPage() {
  const clock = { now: 1_000_000 };
  const controller = new Controller({ retry: 0, environment: {}, now: () => clock.now, gcTime: 600_000 });
  const page = record(controller.observe(TodoResource.getList, {}));
  await settled(() => expect(page.last()?.data).toHaveLength(4));
  await flush();
  /** A write that is no deletion (a response for todo 1), `ms` later. */
  const write = (ms = 10_000, title = `at ${clock.now + ms}`) => {
    clock.now += ms;
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, userId: 1, title, completed: false });
  };
  write(); // the first sweep walks every table (the controller may start from a hydrated state)
  walks.passes = 0;
  walks.looked = [];
  return { controller, clock, page, write };
}

describe('the sweep of deleted records', () => {
  it('does not walk the tables on writes that delete nothing and edit no list', async () => {
    const { controller, page, write } = await listPage();
    for (let i = 0; i < 6; i++) write(); // a minute of writes, one every 10 s
    expect(walks.passes).toBe(0);
    expect(controller.getState().entities.Todo?.['1']).toMatchObject({ title: expect.stringMatching(/^at /) });
    page.unsubscribe();
  });

  it('buries a record deleted after a pass that found nothing, at the next sweep', async () => {
    const { controller, clock, page, write } = await listPage();
    write();
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 2 }, { id: 2 });
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID);
    write(1_000); // not yet 10 s since the last sweep
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID);
    write(); // the next sweep
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    expect(controller.getState().entities['[Todo]']).toEqual({ '{}': ['1', '3', '4'] });
    expect(walks.passes).toBe(1);
    write(); // buried: the flag is clear again
    expect(walks.passes).toBe(1);
    page.unsubscribe();
  });

  it('buries a record deleted by controller.set(schema.Invalidate), which runs no sweep itself', async () => {
    const { controller, clock, page, write } = await listPage();
    clock.now += 1;
    controller.set(new schema.Invalidate(Todo), { id: 3 });
    expect(page.last()?.data?.map((todo) => todo.id)).toEqual([1, 2, 4]);
    write();
    expect(controller.getState().entities.Todo?.['3']).toBeUndefined();
    expect(page.last()?.data?.map((todo) => todo.id)).toEqual([1, 2, 4]);
    page.unsubscribe();
  });

  it('keeps walking while a request that started before the deletion pins its tombstone, and buries it once that request ended', async () => {
    const { controller, clock, page, write } = await listPage();
    fake.setLatency(30);
    clock.now += 1;
    const refresh = controller.fetch(TodoResource.getList, {}); // started before the deletion
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 2 }, { id: 2 });
    write();
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID); // the refresh still needs it
    expect(walks.passes).toBe(1);
    await refresh;
    fake.setLatency(0);
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID); // the request ended within 10 s of the sweep
    write(); // nothing was written meanwhile that deletes: the pinned tombstone keeps the flag set
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    expect(walks.passes).toBe(2);
    expect(page.last()?.data?.map((todo) => todo.id)).toEqual([1, 3, 4]);
    page.unsubscribe();
  });

  it('folds the edits a pushed create logs in its list, later when a running request pins them', async () => {
    const { controller, clock, page, write } = await listPage();
    fake.setLatency(30);
    clock.now += 1;
    const refresh = controller.fetch(TodoResource.getList, {}); // started before the push
    clock.now += 1;
    const created = { id: 9, userId: 1, title: 'pushed', completed: false };
    controller.set(TodoResource.getList.schema.push, {}, created, created);
    expect(LIST_META(controller)?.edits).toHaveLength(1);
    write();
    expect(walks.passes).toBe(1);
    expect(LIST_META(controller)?.edits).toHaveLength(1); // the refresh's answer is replayed with it
    await refresh;
    fake.setLatency(0);
    write();
    expect(walks.passes).toBe(2);
    expect(LIST_META(controller)?.edits).toBeUndefined();
    write();
    expect(walks.passes).toBe(2);
    page.unsubscribe();
  });

  it('folds the edits of a push written after a pass that found nothing', async () => {
    const { controller, page, write } = await listPage();
    const created = { id: 9, userId: 1, title: 'pushed', completed: false };
    controller.set(TodoResource.getList.schema.push, {}, created, created);
    expect(LIST_META(controller)?.edits).toHaveLength(1);
    write();
    expect(LIST_META(controller)?.edits).toBeUndefined();
    expect(page.last()?.data?.map((todo) => todo.id)).toEqual([1, 2, 3, 4, 9]);
    page.unsubscribe();
  });

  it.each([
    ['replaces the state', true],
    ['merges into the state', false],
  ])('buries the tombstones of a snapshot restored after a pass that found nothing (it %s)', async (_, replace) => {
    const other = new Controller({ retry: 0, environment: {}, gcTime: 60_000 });
    await other.fetch(TodoResource.getList, {});
    other.set(new schema.Invalidate(Todo), { id: 4 });
    const snapshot = JSON.parse(JSON.stringify(takeSnapshot(other, { invalid: true })));
    const { controller, page, write } = await listPage();
    restoreSnapshot(controller, snapshot, { replace });
    expect(controller.getState().entities.Todo?.['4']).toBe(INVALID);
    write();
    expect(controller.getState().entities.Todo?.['4']).toBeUndefined();
    page.unsubscribe();
  });

  it('a full collection keeps a tombstone a running request pins even when nothing reaches it, so its answer does not bring the record back', async () => {
    const clock = { now: 1_000_000 };
    const controller = new Controller({ retry: 0, environment: {}, now: () => clock.now, gcTime: 600_000 });
    controller.set(Todo, { id: 1, userId: 1, title: 'todo 1', completed: false }); // no result reaches it
    fake.setLatency(30);
    clock.now += 1;
    const refresh = controller.fetch(TodoResource.getList, {}); // started before the deletion
    clock.now += 1;
    controller.set(new schema.Invalidate(Todo), { id: 1 });
    controller.gc();
    expect(controller.getState().entities.Todo?.['1']).toBe(INVALID); // the refresh still needs it
    await refresh;
    fake.setLatency(0);
    expect(controller.get(Todo, { id: 1 })).toBeUndefined();
    expect(controller.getResponse(TodoResource.getList, {}).data?.map((todo) => todo.id)).toEqual([2, 3, 4]);
  });

  it('a full collection clears the flag when it buried everything, and keeps it when a request pins a tombstone', async () => {
    const { controller, clock, page, write } = await listPage();
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 1 }, { id: 1 });
    controller.gc();
    expect(controller.getState().entities.Todo?.['1']).toBeUndefined();
    const walked = walks.passes;
    write();
    expect(walks.passes).toBe(walked); // gc() buried it: no walk
    fake.setLatency(30);
    clock.now += 1;
    const refresh = controller.fetch(TodoResource.getList, {});
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 3 }, { id: 3 });
    controller.gc();
    expect(controller.getState().entities.Todo?.['3']).toBe(INVALID);
    await refresh;
    fake.setLatency(0);
    write(); // gc() left it: the next sweep walks and buries it
    expect(controller.getState().entities.Todo?.['3']).toBeUndefined();
    page.unsubscribe();
  });
});

describe('the index of what a sweep may bury', () => {
  const todo = (id: number, title = `todo ${id}`) => ({ id, userId: 1, title, completed: false });

  it('looks at the records deleted since the last pass, not at the tables', async () => {
    const { controller, clock, page, write } = await listPage();
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 2 }, { id: 2 });
    controller.set(new schema.Invalidate(Todo), { id: 3 });
    write();
    expect(walks.looked).toEqual([['Todo 2', 'Todo 3']]);
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    expect(controller.getState().entities.Todo?.['3']).toBeUndefined();
    expect(controller.getState().entities['[Todo]']).toEqual({ '{}': ['1', '4'] });
    write();
    expect(walks.passes).toBe(1);
    page.unsubscribe();
  });

  it('keeps a pinned tombstone indexed across sweeps, with the deletions written meanwhile', async () => {
    const { controller, clock, page, write } = await listPage();
    fake.setLatency(30);
    clock.now += 1;
    const refresh = controller.fetch(TodoResource.getList, {}); // started before both deletions
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 2 }, { id: 2 });
    write();
    controller.setResponse(TodoResource.delete, { id: 4 }, { id: 4 });
    write();
    expect(walks.looked).toEqual([['Todo 2'], ['Todo 2', 'Todo 4']]);
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID);
    expect(controller.getState().entities.Todo?.['4']).toBe(INVALID);
    await refresh;
    fake.setLatency(0);
    write();
    expect(walks.looked[2]).toEqual(['Todo 2', 'Todo 4']);
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    expect(controller.getState().entities.Todo?.['4']).toBeUndefined();
    expect(page.last()?.data?.map((todo) => todo.id)).toEqual([1, 3]);
    write();
    expect(walks.passes).toBe(3);
    page.unsubscribe();
  });

  it.each([
    ['replaces the state: every table is walked once', true],
    ['merges into the state: its records are indexed as written', false],
  ])('finds the tombstones of a restored snapshot (it %s), then looks at the index', async (_, replace) => {
    const other = new Controller({ retry: 0, environment: {}, gcTime: 60_000 });
    await other.fetch(TodoResource.getList, {});
    other.set(new schema.Invalidate(Todo), { id: 4 });
    const snapshot = JSON.parse(JSON.stringify(takeSnapshot(other, { invalid: true })));
    const { controller, clock, page, write } = await listPage();
    controller.set(new schema.Invalidate(Todo), { id: 1 }); // indexed before the restore
    restoreSnapshot(controller, snapshot, { replace });
    write();
    expect(walks.looked).toEqual([replace ? 'every record' : ['Todo 1', 'Todo 4']]);
    expect(controller.getState().entities.Todo?.['4']).toBeUndefined();
    clock.now += 1;
    controller.set(new schema.Invalidate(Todo), { id: 3 });
    write();
    expect(walks.looked[1]).toEqual(['Todo 3']);
    expect(controller.getState().entities.Todo?.['3']).toBeUndefined();
    page.unsubscribe();
  });

  it('drops a deleted record written again before the sweep from the index, and keeps it', async () => {
    const { controller, clock, page, write } = await listPage();
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 2 }, { id: 2 });
    clock.now += 1;
    controller.setResponse(TodoResource.get, { id: 2 }, todo(2, 'back'));
    write();
    expect(walks.looked).toEqual([['Todo 2']]);
    expect(controller.getState().entities.Todo?.['2']).toMatchObject({ title: 'back' });
    expect(page.last()?.data?.map((todo) => todo.id)).toEqual([1, 2, 3, 4]);
    write();
    expect(walks.passes).toBe(1);
    page.unsubscribe();
  });
});
