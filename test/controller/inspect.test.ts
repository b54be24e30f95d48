/**
 * inspectController: the request keys a controller knows, the app's observer counts, each key's request
 * and the records it reads, the keys that read a record, and removing a key. HTTP goes through msw.
 */
import { describe, expect, it } from 'vitest';
import { Controller, inspectController, type ControllerAction } from '../../core/index.js';
import { TodoResource, settled, useTodoServer } from '../reliability/faultHarness.js';

useTodoServer();

const controllerWithLists = async () => {
  const controller = new Controller({ retry: 0, environment: {} });
  const a = controller.observe(TodoResource.getList, {}).subscribe();
  const b = controller.observe(TodoResource.getList, {}).subscribe();
  const c = controller.observe(TodoResource.get, { id: 1 }).subscribe();
  await settled(() => expect(controller.getResponse(TodoResource.getList, {}).data).toHaveLength(4));
  await settled(() => expect(controller.getResponse(TodoResource.get, { id: 1 }).data).toBeDefined());
  return { controller, subscriptions: [a, b, c] };
};

describe('inspectController', () => {
  it('lists every key the controller knows, with its endpoint, arguments and the app’s observer count', async () => {
    const { controller, subscriptions } = await controllerWithLists();
    await controller.fetch(TodoResource.get, { id: 2 });
    const inspector = inspectController(controller);
    const listKey = TodoResource.getList.key({});
    const oneKey = TodoResource.get.key({ id: 1 });
    const twoKey = TodoResource.get.key({ id: 2 });
    expect(inspector.keys()).toEqual([listKey, oneKey, twoKey].sort());
    expect(inspector.query(listKey)).toMatchObject({ observers: 2, fetching: false, paused: false, args: [{}] });
    expect(inspector.query(listKey).endpoint).toBe(TodoResource.getList);
    expect(inspector.query(oneKey).observers).toBe(1);
    expect(inspector.query(twoKey).observers).toBe(0);
    subscriptions[0]!.unsubscribe();
    expect(inspector.query(listKey).observers).toBe(1);
    expect(inspector.query('GET nothing')).toMatchObject({ endpoint: undefined, observers: 0 });
    for (const s of subscriptions) s.unsubscribe();
  });

  it('tells the records a key reads and the keys that read a record, live or not', async () => {
    const { controller, subscriptions } = await controllerWithLists();
    await controller.fetch(TodoResource.get, { id: 2 });
    const inspector = inspectController(controller);
    const listKey = TodoResource.getList.key({});
    expect(
      inspector
        .reads(listKey)
        ?.map(([entity, pk]) => `${entity}:${pk}`)
        .sort(),
    ).toEqual([
      'Todo:1',
      'Todo:2',
      'Todo:3',
      'Todo:4',
      '[Todo]:{}', // the collection, stored as a record too
    ]);
    expect(inspector.reads(TodoResource.get.key({ id: 2 }))).toEqual([['Todo', '2']]);
    expect(inspector.readers('Todo', '2')).toEqual([listKey, TodoResource.get.key({ id: 2 })].sort());
    expect(inspector.readers('Todo', '1')).toEqual([listKey, TodoResource.get.key({ id: 1 })].sort());
    expect(inspector.reads('GET unknown')).toBeUndefined();
    for (const s of subscriptions) s.unsubscribe();
  });

  it('state() reads the current state without handing it out', async () => {
    const { controller, subscriptions } = await controllerWithLists();
    const inspector = inspectController(controller);
    expect(inspector.state()).toBe(controller.getState());
    controller.set(TodoResource.get.schema, { id: 1 }, { id: 1, title: 'renamed' });
    expect((inspector.state().entities.Todo!['1'] as { title: string }).title).toBe('renamed');
    for (const s of subscriptions) s.unsubscribe();
  });

  it('counts no subscriber of its own and reads without fetching', async () => {
    const { controller, subscriptions } = await controllerWithLists();
    const before = controller.getState();
    const inspector = inspectController(controller);
    for (const key of inspector.keys()) inspector.reads(key);
    inspector.readers('Todo', '1');
    expect(controller.getState()).toBe(before);
    expect(inspector.query(TodoResource.getList.key({})).observers).toBe(2);
    for (const s of subscriptions) s.unsubscribe();
  });

  it('remove drops the key’s result and meta, reports a gc action, and a live key fetches again', async () => {
    const { controller, subscriptions } = await controllerWithLists();
    const inspector = inspectController(controller);
    const actions: ControllerAction[] = [];
    controller.actions$.subscribe((action) => actions.push(action));
    await controller.fetch(TodoResource.get, { id: 3 });
    const idle = TodoResource.get.key({ id: 3 });
    inspector.remove(idle);
    expect(controller.getState().endpoints[idle]).toBeUndefined();
    expect(controller.getState().meta[idle]).toBeUndefined();
    expect(controller.getState().entities.Todo?.['3']).toBeDefined(); // records go at a collection
    expect(inspector.keys()).not.toContain(idle);
    expect(actions.at(-1)).toMatchObject({ type: 'gc', key: idle, keys: [idle] });
    const count = actions.length;
    inspector.remove(idle); // nothing stored: nothing to report
    expect(actions).toHaveLength(count);

    const live = TodoResource.getList.key({});
    inspector.remove(live);
    expect(inspector.query(live).fetching).toBe(true);
    await settled(() => expect(controller.getState().endpoints[live]).toBeDefined());
    for (const s of subscriptions) s.unsubscribe();
  });

  it('refuses what is not a controller, and remove on a disposed controller', () => {
    expect(() => inspectController({} as Controller)).toThrow(TypeError);
    const controller = new Controller();
    controller.dispose();
    expect(() => inspectController(controller).remove('x')).toThrow(/disposed/);
  });
});
