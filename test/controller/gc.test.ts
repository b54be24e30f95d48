/**
 * Garbage collection: results and meta go `gcTime` after their last subscriber left; entities go
 * when no kept result, live stream or optimistic layer reaches them. A clock of our own drives time
 * (the collector has no timer); HTTP goes through msw.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  Controller,
  Entity,
  INVALID,
  RestEndpoint,
  schema,
  type ControllerOptions,
  type QueryState,
  type State,
} from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, flush, record, settled, useTodoServer } from '../reliability/faultHarness.js';

const fake = useTodoServer();

function clocked(options: ControllerOptions = {}) {
  const clock = { now: 1_000_000 };
  const controller = new Controller({ retry: 0, environment: {}, now: () => clock.now, ...options });
  return { controller, clock };
}

const todoPks = (state: State) => Object.keys(state.entities.Todo ?? {}).sort();

describe('garbage collection', () => {
  it('drops a result, its meta and its entities gcTime after the last subscriber left', async () => {
    const { controller, clock } = clocked({ gcTime: 1_000 });
    const subscription = controller.observe(TodoResource.get, { id: 1 }).subscribe();
    await settled(() => expect(todoPks(controller.getState())).toEqual(['1']));
    subscription.unsubscribe();
    clock.now += 500;
    controller.gc();
    expect(controller.getState().endpoints['GET http://api.test/todos/1']).toBeDefined();
    clock.now += 600;
    controller.gc();
    expect(controller.getState().endpoints).toEqual({});
    expect(controller.getState().meta).toEqual({});
    expect(todoPks(controller.getState())).toEqual([]);
  });

  it('keeps entities that a kept result or a live stream reads, and everything a live stream reads', async () => {
    const { controller, clock } = clocked({ gcTime: 10 });
    const list = controller.observe(TodoResource.getList, { userId: 1 }).subscribe(); // todos 1 and 3
    await controller.fetch(TodoResource.get, { id: 2 });
    await controller.fetch(TodoResource.get, { id: 3 });
    await settled(() => expect(todoPks(controller.getState())).toEqual(['1', '2', '3']));
    clock.now += 10;
    controller.gc();
    expect(todoPks(controller.getState())).toEqual(['1', '3']);
    expect(Object.keys(controller.getState().endpoints)).toEqual(['GET http://api.test/todos?userId=1']);
    list.unsubscribe();
    clock.now += 10;
    controller.gc();
    expect(todoPks(controller.getState())).toEqual([]);
  });

  it('runs by itself at the next release or write after a key fell due', async () => {
    const { controller, clock } = clocked({ gcTime: 1_000 });
    await controller.fetch(TodoResource.get, { id: 1 });
    clock.now += 2_000;
    await controller.fetch(TodoResource.get, { id: 2 });
    expect(todoPks(controller.getState())).toEqual(['2']);
  });

  it('keeps a key prefetched again after its gcTime passed: the collection its own write runs does not drop it', async () => {
    const { controller, clock } = clocked({ gcTime: 1_000 });
    await controller.fetch(TodoResource.get, { id: 1 }); // a loader prefetches
    clock.now += 2_000; // the user comes back later: the key fell due
    await controller.fetch(TodoResource.get, { id: 1 }); // the loader prefetches again
    expect(todoPks(controller.getState())).toEqual(['1']);
    fake.requests.length = 0;
    const states: boolean[] = [];
    const subscription = controller
      .observe(TodoResource.get, { id: 1 })
      .subscribe((state) => states.push(state.loading));
    subscription.unsubscribe();
    expect(states).toEqual([false]); // the page that mounts shows the data, no Loading
    expect(fake.requests).toEqual([]);
  });

  it('keeps a key written by setResponse or fetchIfStale at least gcTime from that write', () => {
    const { controller, clock } = clocked({ gcTime: 1_000 });
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, userId: 1, title: 'a', completed: false });
    clock.now += 2_000;
    controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, userId: 1, title: 'b', completed: false });
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('b');
    clock.now += 999;
    controller.gc();
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('b');
    clock.now += 1;
    controller.gc();
    expect(controller.getResponse(TodoResource.get, { id: 1 }).data).toBeUndefined();
  });

  it('gcTime: Infinity keeps everything', async () => {
    const { controller, clock } = clocked({ gcTime: Number.POSITIVE_INFINITY });
    await controller.fetch(TodoResource.get, { id: 1 });
    clock.now += 1e12;
    controller.gc();
    expect(todoPks(controller.getState())).toEqual(['1']);
  });

  it('reports what it collected on actions$', async () => {
    const { controller, clock } = clocked({ gcTime: 10 });
    await controller.fetch(TodoResource.get, { id: 4 });
    const types: string[] = [];
    const subscription = controller.actions$.subscribe((action) => types.push(`${action.type} ${action.keys}`));
    clock.now += 10;
    controller.gc();
    expect(types).toEqual(['gc GET http://api.test/todos/4']);
    subscription.unsubscribe();
  });
});

describe('a long session (soak)', () => {
  it.each([
    ['between 200 keys', (step: number) => (step * 7919) % 200],
    // a detail page per id: every key is new (the memo once kept a result per id ever read)
    ['each to a new key', (step: number) => step],
  ])(
    '10,000 navigations %s with gcTime 1 s keep the entity count and the heap bounded',
    async (_, idAt) => {
      const gc =
        (globalThis as { gc?: () => void }).gc ?? (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc'));
      // answered in memory through the endpoint's own fetchResponse hook: 10,000 requests without a network
      const Page = new RestEndpoint({
        urlPrefix: 'http://pages.test',
        path: '/todos/:id',
        schema: Todo,
        fetchResponse: async (url: string) => {
          const id = Number(url.split('/').pop());
          return Response.json({ id, userId: 1, title: `page ${id} ${'x'.repeat(200)}`, completed: false });
        },
      });
      const { controller, clock } = clocked({ gcTime: 1_000 });
      let current = controller.observe(Page, { id: 0 }).subscribe();
      let maxEntities = 0;
      let heapAt2000 = 0;
      for (let step = 1; step <= 10_000; step++) {
        const next = controller.observe(Page, { id: idAt(step) }).subscribe();
        current.unsubscribe();
        current = next;
        await flush(1);
        clock.now += 100;
        maxEntities = Math.max(maxEntities, Object.keys(controller.getState().entities.Todo ?? {}).length);
        if (step === 2_000) {
          gc();
          heapAt2000 = process.memoryUsage().heapUsed;
        }
      }
      gc();
      const growth = process.memoryUsage().heapUsed - heapAt2000;
      current.unsubscribe();
      // at 100 ms per navigation and gcTime 1 s, about ten released keys are kept at any time
      expect(maxEntities).toBeLessThanOrEqual(15);
      expect(Object.keys(controller.getState().endpoints).length).toBeLessThanOrEqual(15);
      expect(growth).toBeLessThan(4 * 1024 * 1024);
      expect(fake.requests).toEqual([]);
    },
    120_000,
  );
});

describe('what a reset or a collection leaves in memory', () => {
  const collect = () =>
    ((globalThis as { gc?: () => void }).gc ?? (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc')))();

  /** Reads todo 1 through the store read and the store query; returns weak references to what they returned. */
  async function readAndForget(controller: Controller) {
    await controller.fetch(TodoResource.get, { id: 1 });
    const read = controller.getResponse(TodoResource.get, { id: 1 }).data;
    const queried = controller.get(Todo, { id: 1 });
    expect(read?.title).toBe(fake.todos.get(1)?.title);
    expect(queried).toBe(read);
    return { read: new WeakRef(read!), record: new WeakRef(controller.getState().entities.Todo!['1']!) };
  }

  it('keeps nothing of the data read before resetEntireStore reachable from the controller', async () => {
    const { controller } = clocked();
    const refs = await readAndForget(controller);
    controller.resetEntireStore();
    await flush(1);
    collect();
    expect(refs.record.deref()).toBeUndefined();
    expect(refs.read.deref()).toBeUndefined();
    expect(controller.getState().entities).toEqual({});
  });

  it('keeps nothing of a record that gc collected reachable from the controller', async () => {
    const { controller, clock } = clocked({ gcTime: 10 });
    const refs = await readAndForget(controller);
    const old = new WeakRef(controller.getState().entities);
    clock.now += 10;
    controller.gc();
    expect(controller.getState().entities.Todo?.['1']).toBeUndefined();
    await flush(1);
    collect();
    expect(refs.record.deref()).toBeUndefined();
    expect(refs.read.deref()).toBeUndefined();
    expect(old.deref()).toBeUndefined();
  });

  it('keeps the instances of the records a collection leaves, through later writes to their table', async () => {
    const { controller, clock } = clocked({ gcTime: 10 });
    let observed: Todo | undefined;
    const subscription = controller.observe(TodoResource.get, { id: 2 }).subscribe((s) => (observed = s.data));
    await settled(() => expect(observed).toBeDefined());
    const kept = observed;
    await controller.fetch(TodoResource.get, { id: 1 });
    clock.now += 10;
    controller.gc();
    expect(Object.keys(controller.getState().entities.Todo ?? {})).toEqual(['2']);
    expect(controller.get(Todo, { id: 2 })).toBe(kept);
    await controller.fetch(TodoResource.get, { id: 3 }); // a newer version of the Todo table
    expect(controller.get(Todo, { id: 2 })).toBe(kept);
    expect(observed).toBe(kept);
    subscription.unsubscribe();
  });

  it('gives getResponse, get and a live observer one instance per record, kept across writes of others', async () => {
    const { controller } = clocked();
    let observed: Todo | undefined;
    const subscription = controller.observe(TodoResource.get, { id: 2 }).subscribe((s) => (observed = s.data));
    await settled(() => expect(observed).toBeDefined());
    expect(controller.getResponse(TodoResource.get, { id: 2 }).data).toBe(observed);
    expect(controller.get(Todo, { id: 2 })).toBe(observed);
    const before = observed;
    await controller.fetch(TodoResource.get, { id: 3 });
    expect(controller.get(Todo, { id: 2 })).toBe(before);
    expect(observed).toBe(before);
    subscription.unsubscribe();
  });
});

describe('garbage collection of deleted entities', () => {
  const LIST = 'GET http://api.test/todos';
  const titles = (state: QueryState<Todo[]> | undefined) => state?.data?.map((todo) => todo.title);

  it('2,000 deletes with a page open: a collection drops the INVALID records, their meta and their pks in the lists; the store returns to its size before them', async () => {
    const { controller, clock } = clocked({ gcTime: 60_000 });
    const page = record(controller.observe(TodoResource.getList, {}));
    await settled(() => expect(titles(page.last())).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']));
    const size = () => JSON.stringify(controller.getState()).length;
    const baseline = size();
    for (let id = 100; id < 2_100; id++) {
      clock.now += 1;
      controller.setResponse(TodoResource.getList.push, {}, { title: `todo ${id}` }, { id, userId: 1, title: 'new' });
      clock.now += 1;
      controller.setResponse(TodoResource.delete, { id }, { id });
    }
    const grown = size();
    expect(Object.keys(controller.getState().entities.Todo!)).toHaveLength(2_004);
    clock.now += 60_000;
    controller.gc();
    const collected = size();
    console.log(
      `store size (JSON.stringify(getState())): ${baseline} B with the page open, ${grown} B after 2,000 ` +
        `creates and deletes, ${collected} B after gc()`,
    );
    expect(Object.keys(controller.getState().entities.Todo!)).toEqual(['1', '2', '3', '4']);
    expect(Object.keys(controller.getState().entitiesMeta.Todo!)).toEqual(['1', '2', '3', '4']);
    expect(controller.getState().entities['[Todo]']).toEqual({ '{}': ['1', '2', '3', '4'] });
    expect(Object.keys(controller.getState().meta)).toEqual([LIST]);
    expect(collected).toBe(baseline);
    expect(titles(page.last())).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    page.unsubscribe();
  }, 60_000);

  it('a deleted record is kept while a request that started before the deletion runs, so its response cannot bring it back', async () => {
    const { controller, clock } = clocked({ gcTime: 10_000 });
    const page = record(controller.observe(TodoResource.getList, {}));
    await settled(() => expect(titles(page.last())).toHaveLength(4));
    fake.setLatency(30);
    clock.now += 1;
    const refresh = controller.fetch(TodoResource.getList, {}); // started before the deletion: answers with todo 2
    clock.now += 1;
    controller.setResponse(TodoResource.delete, { id: 2 }, { id: 2 });
    expect(titles(page.last())).toEqual(['todo 1', 'todo 3', 'todo 4']);
    clock.now += 2_000;
    controller.gc();
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID); // the refresh still needs it
    await refresh;
    expect(titles(page.last())).toEqual(['todo 1', 'todo 3', 'todo 4']);
    controller.gc();
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    expect(controller.getState().entities['[Todo]']).toEqual({ '{}': ['1', '3', '4'] });
    expect(titles(page.last())).toEqual(['todo 1', 'todo 3', 'todo 4']);
    page.unsubscribe();
  });

  it('collects deleted records by itself while every result stays observed (no key ever falls due)', async () => {
    // the demo apps: pushed creates and deletes, each delete marking the lists stale (a refetch), pages open for good
    const { controller, clock } = clocked({ gcTime: 60_000 });
    const page = record(controller.observe(TodoResource.getList, {}));
    await settled(() => expect(titles(page.last())).toHaveLength(4));
    const tombstones = () =>
      Object.values(controller.getState().entities.Todo ?? {}).filter((todo) => todo === INVALID).length;
    let most = 0;
    for (let id = 100; id < 250; id++) {
      clock.now += 1_000;
      const created = { id, userId: 1, title: `pushed ${id}` };
      controller.set(TodoResource.getList.schema.push, {}, created, created);
      clock.now += 1;
      controller.set(TodoResource.delete.schema, { id });
      controller.expireAll(TodoResource.getList);
      await settled(() => expect(page.last()?.fetching).toBe(false));
      most = Math.max(most, tombstones());
    }
    // deleted records no request needs go within a bounded time (10 s here: 10 deletes), not gcTime
    expect(most).toBeLessThanOrEqual(11);
    expect(tombstones()).toBeLessThanOrEqual(11);
    expect(titles(page.last())).toEqual(['todo 1', 'todo 2', 'todo 3', 'todo 4']);
    page.unsubscribe();
  }, 60_000);

  it('a request that never ends pins deleted records for gcTime at most; its late answer, which could bring one back, is not written and its key refetches', async () => {
    const { controller, clock } = clocked({ gcTime: 1_000 });
    const page = record(controller.observe(TodoResource.getList, {}));
    await settled(() => expect(titles(page.last())).toHaveLength(4));
    let answer!: () => void;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const old = [...fake.todos.values()].map((todo) => ({ ...todo }));
    fake.server.use(
      http.get(
        'http://api.test/todos',
        async () => {
          await gate;
          return HttpResponse.json(old);
        },
        { once: true },
      ),
    );
    clock.now += 1;
    const hung = controller.fetch(TodoResource.getList, {}); // answers with todo 2, much later
    await flush();
    clock.now += 1;
    await controller.fetch(TodoResource.delete, { id: 2 });
    expect(titles(page.last())).toEqual(['todo 1', 'todo 3', 'todo 4']);
    controller.gc();
    expect(controller.getState().entities.Todo?.['2']).toBe(INVALID); // the request in flight may still need it
    clock.now += 2_000; // past gcTime: the request no longer holds the deleted record
    controller.gc();
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    const requests = fake.requests.length;
    answer();
    const own = (await hung) as Todo[];
    expect(own.map((todo) => todo.title)).toContain('todo 2'); // the fetch resolves its own response
    // not written: the list refetches instead, and the server's answer has no todo 2
    await settled(() => expect(fake.requests.slice(requests)).toEqual(['GET /todos']));
    await settled(() => expect(page.last()?.fetching).toBe(false));
    expect(titles(page.last())).toEqual(['todo 1', 'todo 3', 'todo 4']);
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    page.unsubscribe();
  });

  it('a request that runs longer than gcTime with no deletion meanwhile: its answer is written as usual', async () => {
    const { controller, clock } = clocked({ gcTime: 1_000 });
    const page = record(controller.observe(TodoResource.getList, {}));
    await settled(() => expect(titles(page.last())).toHaveLength(4));
    let answer!: () => void;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    fake.server.use(
      http.get(
        'http://api.test/todos',
        async () => {
          await gate;
          return HttpResponse.json([{ id: 1, userId: 1, title: 'slow answer', completed: false }]);
        },
        { once: true },
      ),
    );
    clock.now += 1;
    const slow = controller.fetch(TodoResource.getList, {});
    await flush();
    clock.now += 2_000;
    controller.gc(); // the request loses its pin, but no tombstone went
    const requests = fake.requests.length;
    answer();
    expect(((await slow) as Todo[]).map((todo) => todo.title)).toEqual(['slow answer']);
    expect(titles(page.last())).toEqual(['slow answer']);
    await flush();
    expect(fake.requests.length).toBe(requests); // written, not refetched
    page.unsubscribe();
  });

  it('a page of the deleted todo itself: collecting it changes nothing it shows and sends no request', async () => {
    const { controller, clock } = clocked({ gcTime: 1_000 });
    const detail = record(controller.observe(TodoResource.get, { id: 2 }));
    await settled(() => expect(detail.last().data?.title).toBe('todo 2'));
    fake.todos.delete(2);
    controller.setResponse(TodoResource.delete, { id: 2 }, { id: 2 }); // deleted elsewhere, pushed here
    await settled(() => expect(detail.last()).toMatchObject({ data: undefined, loading: false, fetching: false }));
    expect(detail.last().error).toMatchObject({ status: 404 });
    const [shown, requests] = [detail.values.length, fake.requests.length];
    const before = detail.last();
    clock.now += 2_000;
    controller.gc();
    await flush();
    expect(controller.getState().entities.Todo?.['2']).toBeUndefined();
    expect(detail.values.length).toBe(shown);
    expect(detail.last()).toBe(before);
    expect(fake.requests.length).toBe(requests);
    detail.unsubscribe();
  });
});

describe('garbage collection: lists of a Union', () => {
  class Person extends Entity {
    id = '';
    type = 'people';
    name = '';
    pk() {
      return this.id;
    }
    static override key = 'Person';
  }
  class Team extends Entity {
    id = 0;
    type = 'teams';
    name = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'Team';
  }
  const members = new schema.Union({ people: Person, teams: Team }, 'type');
  const feed = new RestEndpoint({
    urlPrefix: 'http://api.test',
    path: '/members',
    schema: new schema.Collection([members]),
    name: 'members',
  });

  it('takes the collected members of a Union out of its lists, whatever type their pk has', async () => {
    fake.server.use(
      http.get('http://api.test/members', () =>
        HttpResponse.json([
          { id: 'a', type: 'people', name: 'Ada' },
          { id: 1, type: 'teams', name: 'core' },
          { id: 'b', type: 'people', name: 'Bob' },
          { id: 2, type: 'teams', name: 'docs' },
        ]),
      ),
    );
    const { controller, clock } = clocked({ gcTime: 1_000 });
    const page = record(controller.observe(feed));
    const names = () => page.last()?.data?.map((item) => item.name);
    await settled(() => expect(names()).toEqual(['Ada', 'core', 'Bob', 'docs']));
    clock.now += 1;
    controller.set(new schema.Invalidate(Person), { id: 'a' });
    controller.set(new schema.Invalidate(Team), { id: 2 });
    expect(names()).toEqual(['core', 'Bob']);
    clock.now += 2_000;
    controller.gc();
    const state = controller.getState();
    expect(state.entities.Person).toEqual({ b: expect.objectContaining({ name: 'Bob' }) });
    expect(Object.keys(state.entities.Team ?? {})).toEqual(['1']);
    expect(Object.keys(state.entitiesMeta.Person ?? {})).toEqual(['b']);
    expect(Object.keys(state.entitiesMeta.Team ?? {})).toEqual(['1']);
    expect(state.entities['[Person;Team]']).toEqual({
      '{}': [
        { id: '1', schema: 'teams' },
        { id: 'b', schema: 'people' },
      ],
    });
    expect(names()).toEqual(['core', 'Bob']);
    page.unsubscribe();
  });
});
