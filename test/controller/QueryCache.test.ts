/**
 * QueryCache: the streams by key and the path index, seen through the interfaces its parts use: what
 * the garbage collector sees of it (`CollectorView`: the records live streams read, the records a stored
 * result reaches, the keys it collected) and what the requests tell it (`RequestListener`). Then the
 * garbage collector on its own, with a view of three methods and nothing else of the cache.
 */
import { describe, expect, it } from 'vitest';
import { Controller, type QueryState } from '../../core/index.js';
import { ActionLog } from '../../core/controller/ActionLog.js';
import { controllerInternals } from '../../core/controller/Controller.js';
import { GarbageCollector, type CollectorView } from '../../core/controller/GarbageCollector.js';
import { Store, initialState } from '../../core/store/index.js';
import { TodoResource, record, settled, useTodoServer } from '../reliability/faultHarness.js';

useTodoServer();

const path = (pk: number) => `Todo\u0000${pk}`;
/** The records of the list of todos 1 and 2: its own (the collection's) and the todos'. */
const everything: ReadonlySet<string> = new Set(['[Todo]\u0000{}', path(1), path(2)]);

describe('QueryCache as the garbage collector sees it (CollectorView)', () => {
  it("liveRecords: the records live streams read (the list's own record and its todos), none once they left", async () => {
    const controller = new Controller({ retry: 0, environment: {} });
    const { cache } = controllerInternals(controller);
    const list = record(controller.observe(TodoResource.getList));
    await settled(() => expect(list.last().data).toHaveLength(4));
    expect([...cache.liveRecords()].sort()).toEqual([...[1, 2, 3, 4].map(path), '[Todo]\u0000{}'].sort());
    list.unsubscribe();
    expect([...cache.liveRecords()]).toEqual([]);
  });

  it('pathsOf: the records a stored result reaches; undefined for a key the cache never saw', async () => {
    const controller = new Controller({ retry: 0, environment: {} });
    const { cache } = controllerInternals(controller);
    await controller.fetch(TodoResource.get, { id: 2 });
    expect([...cache.pathsOf(TodoResource.get.key({ id: 2 }))!]).toEqual([path(2)]);
    expect(cache.pathsOf('GET http://api.test/unknown')).toBeUndefined();
  });

  it('collected: the keys are forgotten (invalidateAll no longer reaches them)', async () => {
    const controller = new Controller({ retry: 0, environment: {} });
    const { cache } = controllerInternals(controller);
    await controller.fetch(TodoResource.get, { id: 2 });
    const key = TodoResource.get.key({ id: 2 });
    expect([...cache.keysOf(TodoResource.get)]).toEqual([key]);
    cache.collected([key]);
    expect([...cache.keysOf(TodoResource.get)]).toEqual([]);
  });
});

describe('QueryCache as the requests tell it (RequestListener)', () => {
  it('onFetchingChange re-reads the stream of the key (and makes none for a key nobody observes)', async () => {
    const controller = new Controller({ retry: 0, environment: {} });
    const { cache } = controllerInternals(controller);
    const seen: QueryState<unknown>[] = [];
    const subscription = controller.observe(TodoResource.get, { id: 1 }).subscribe((state) => seen.push(state));
    await settled(() => expect(seen.at(-1)?.data).toBeDefined());
    const emitted = seen.length;
    cache.onFetchingChange(TodoResource.get.key({ id: 1 })); // nothing changed: the stream re-reads, emits nothing
    expect(seen).toHaveLength(emitted);
    cache.onFetchingChange(TodoResource.get.key({ id: 3 }));
    expect(cache.streams.get(TodoResource.get.key({ id: 3 }))).toBeUndefined();
    subscription.unsubscribe();
  });
});

describe('GarbageCollector with a view of three methods', () => {
  /** A store holding todos 1 and 2 under `key`, a collector over it with `view`, and the keys it reported collected. */
  function collector(view: Omit<CollectorView, 'collected'>, gcTime = 100) {
    const store = new Store(initialState());
    const key = TodoResource.getList.key();
    const todos = [1, 2].map((id) => ({ id, userId: 1, title: `todo ${id}`, completed: false, createdAt: '' }));
    store.dispatch({
      type: 'response',
      key,
      schema: TodoResource.getList.schema,
      args: [],
      response: todos,
      fetchedAt: 0,
      date: 0,
      expiresAt: 60_000,
    });
    const clock = { now: 0 };
    const reported: (readonly string[])[] = [];
    const gc = new GarbageCollector({ ...view, collected: (keys) => reported.push(keys) }, store, new ActionLog(), {
      gcTime,
      now: () => clock.now,
      oldestStart: () => Number.POSITIVE_INFINITY,
      buried: () => {},
    });
    return { store, key, clock, gc, reported };
  }

  it('a released key falls due after gcTime; the records only a live stream reads stay, the rest go', () => {
    const { store, key, clock, gc, reported } = collector({
      liveRecords: () => [path(1)],
      pathsOf: () => everything, // while kept, the list's result reaches every record
    });
    gc.release(key, 0);
    clock.now = 99;
    gc.collect();
    expect(store.current.endpoints[key]).toBeDefined();
    expect(reported).toEqual([]);
    clock.now = 100;
    gc.collect();
    expect(store.current.endpoints[key]).toBeUndefined();
    expect(Object.keys(store.current.entities.Todo ?? {})).toEqual(['1']);
    expect(reported).toEqual([[key]]);
  });

  it('a retained key is never due', () => {
    const { store, key, clock, gc, reported } = collector({ liveRecords: () => [], pathsOf: () => everything });
    gc.release(key, 0);
    gc.retain(key);
    clock.now = 1_000;
    gc.collect();
    expect(store.current.endpoints[key]).toBeDefined();
    expect(reported).toEqual([]);
  });

  it('a kept result it cannot trace (pathsOf undefined) keeps every record', () => {
    const { store, clock, gc } = collector({ liveRecords: () => [], pathsOf: () => undefined });
    clock.now = 1_000;
    gc.collect();
    expect(Object.keys(store.current.entities.Todo ?? {}).sort()).toEqual(['1', '2']);
  });
});
