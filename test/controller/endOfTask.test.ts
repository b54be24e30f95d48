/**
 * The end-of-task batching (`watchQuery(..., { batch: true })`, `afterQueries`, `flushQueries`) probed from
 * outside: several writes of a task give one re-read and one emission of the final state, and every stream's
 * last state is what a fresh controller reads from the same state; subscribers that write, throw, unsubscribe
 * or subscribe during the end of the task; a subscribe or a read in the middle of a task sees its writes;
 * `resetEntireStore`, `dispose` and `invalidate` in the middle; `await` between writes; fake timers.
 * No HTTP: every key is written before it is observed, and an invalidated key is answered by `setResponse`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from 'rxjs';
import { Controller, peekQuery, watchQuery, type QueryState } from '../../core/index.js';
import { afterQueries, flushQueries } from '../../core/internal.js';
import { patches } from '../../core/schema/memo/patchList.js';
import { Todo } from '../fixtures/entities.js';
import { TodoResource, datedTodoRow as row } from '../fixtures/todoResource.js';
import { record } from '../fixtures/streams.js';
import { seeded } from '../fixtures/random.js';

const microtask = () => Promise.resolve();
const titles = (state: QueryState<Todo[]> | undefined) => state?.data?.map((todo) => todo.title);

let controllers: Controller[] = [];
afterEach(() => {
  for (const c of controllers) c.dispose();
  controllers = [];
});

/** A controller with a list of three todos and each todo's own result, nothing to fetch for an hour. */
function setup(): Controller {
  const c = new Controller();
  controllers.push(c);
  c.setResponse(TodoResource.getList, {}, [row(1), row(2), row(3)]);
  for (const id of [1, 2, 3]) c.setResponse(TodoResource.get, { id }, row(id));
  return c;
}

/** The list's states through a batching subscriber (what the adapters subscribe with). */
const list = (c: Controller) =>
  record<QueryState<Todo[]>>(watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }));
const one = (c: Controller, id: number) =>
  record<QueryState<Todo>>(watchQuery(c, TodoResource.get, [{ id }], { poll: false, batch: true }));

/** What a fresh controller restored from `c`'s state reads for the list, as JSON. */
function freshList(c: Controller): unknown {
  const fresh = new Controller({ initialState: c.getState() });
  const state = peekQuery(fresh, TodoResource.getList, {});
  fresh.dispose();
  return JSON.parse(JSON.stringify(state.data));
}
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('the end of the task: one re-read, the final state', () => {
  it('set, set([Todo]), setResponse and set again in one task: one emission per stream, of the final state', async () => {
    const c = setup();
    const all = list(c);
    const two = one(c, 2);
    const three = one(c, 3);
    const first = all.last().data!;
    c.set(Todo, { id: 2 }, { id: 2, title: 'a' });
    c.set(
      [Todo],
      [
        { id: 2, title: 'b' },
        { id: 1, completed: true },
      ],
    );
    c.setResponse(TodoResource.getList, {}, [row(2, 'c'), row(1), row(3)]);
    c.set(Todo, { id: 1 }, { id: 1, completed: false });
    expect(all.values).toHaveLength(1);
    await microtask();
    expect(all.values.map(titles)).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['c', 'todo 1', 'todo 3'],
    ]);
    expect(two.values.map((state) => state.data?.title)).toEqual(['todo 2', 'c']);
    expect(three.values).toHaveLength(1); // nothing it reads changed
    expect(all.last().data![2]).toBe(first[2]); // an unchanged row keeps its object
    expect(json(all.last().data)).toEqual(freshList(c));
  });

  it("a task's one-record writes on a long list: its end reads again only the rows they wrote, the others kept", async () => {
    const c = new Controller();
    controllers.push(c);
    c.setResponse(
      TodoResource.getList,
      {},
      Array.from({ length: 100 }, (_, i) => row(i + 1)),
    );
    const all = list(c);
    await microtask();
    // two tasks of one write each: from then on the store's writes are followed record by record
    for (const id of [1, 2]) {
      c.set(Todo, { id }, { id, title: `first ${id}` });
      await microtask();
    }
    const before = all.last().data!;
    for (const id of [7, 50, 7, 90]) c.set(Todo, { id }, { id, title: `burst ${id}` });
    await microtask();
    const after = all.last().data!;
    expect(patches.get(after)?.at).toEqual([6, 49, 89]);
    expect(json(after)).toEqual(freshList(c));
    expect(after.filter((todo, i) => todo !== before[i]).map((todo) => todo.id)).toEqual([7, 50, 90]);
  });

  it('writes with an await between them: one emission per task', async () => {
    const c = setup();
    const all = list(c);
    c.set(Todo, { id: 1 }, { id: 1, title: 'a' });
    await microtask();
    c.set(Todo, { id: 1 }, { id: 1, title: 'b' });
    c.set(Todo, { id: 3 }, { id: 3, title: 'c' });
    await new Promise((resolve) => setTimeout(resolve, 0)); // a macrotask boundary
    expect(all.values.map(titles)).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['a', 'todo 2', 'todo 3'],
      ['b', 'todo 2', 'c'],
    ]);
  });

  it('with fake timers the end of the task still comes in a microtask', async () => {
    vi.useFakeTimers();
    try {
      const c = setup();
      const all = list(c);
      c.set(Todo, { id: 1 }, { id: 1, title: 'faked' });
      await microtask();
      expect(titles(all.last())).toEqual(['faked', 'todo 2', 'todo 3']);
    } finally {
      vi.useRealTimers();
    }
  });
  it('with queueMicrotask faked too, the end of the task comes when the test runs the ticks', async () => {
    vi.useFakeTimers({ toFake: ['queueMicrotask', 'setTimeout'] });
    try {
      const c = setup();
      const all = list(c);
      c.set(Todo, { id: 1 }, { id: 1, title: 'faked' });
      await microtask();
      expect(all.values).toHaveLength(1);
      vi.runAllTicks();
      expect(titles(all.last())).toEqual(['faked', 'todo 2', 'todo 3']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the middle of a task sees its writes', () => {
  it('a subscriber arriving after a write gets the written state at once, and the other subscribers too', async () => {
    const c = setup();
    const early = list(c);
    c.set(Todo, { id: 2 }, { id: 2, title: 'written' });
    const late = list(c);
    expect(titles(late.values[0])).toEqual(['todo 1', 'written', 'todo 3']);
    const eager = record<QueryState<Todo[]>>(c.observe(TodoResource.getList, {}));
    expect(titles(eager.values[0])).toEqual(['todo 1', 'written', 'todo 3']);
    await microtask();
    expect(early.values.map(titles)).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['todo 1', 'written', 'todo 3'],
    ]);
    expect(late.values).toHaveLength(1);
    eager.unsubscribe();
  });

  it('getResponse, peekQuery and get read the writes before the end of the task', () => {
    const c = setup();
    const all = list(c);
    c.set([Todo], [{ id: 3, title: 'now' }]);
    expect(c.getResponse(TodoResource.getList, {}).data?.map((todo) => todo.title)).toEqual([
      'todo 1',
      'todo 2',
      'now',
    ]);
    expect(titles(peekQuery(c, TodoResource.getList, {}))).toEqual(['todo 1', 'todo 2', 'now']);
    expect(c.get(Todo, { id: 3 })?.title).toBe('now');
    expect(all.values).toHaveLength(1); // the batching stream itself waits
  });
});

describe('subscribers during the end of the task', () => {
  it('flushQueries in the middle of a task re-reads at once, with what a subscriber writes during it', async () => {
    const c = setup();
    const all = list(c);
    const subscription = watchQuery(c, TodoResource.get, [{ id: 1 }], { poll: false, batch: true }).subscribe(
      (state) => {
        if (state.data?.title === 'a') c.set(Todo, { id: 3 }, { id: 3, title: 'written while flushing' });
      },
    );
    c.set(Todo, { id: 1 }, { id: 1, title: 'a' });
    flushQueries();
    expect(titles(all.last())).toEqual(['a', 'todo 2', 'written while flushing']);
    const emitted = all.values.length;
    await microtask();
    expect(all.values).toHaveLength(emitted); // nothing was left for the end of the task
    subscription.unsubscribe();
  });

  it('a subscriber that writes: the other streams end on the state after its write, in the same task', async () => {
    const c = setup();
    const before = list(c);
    const subscription = watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }).subscribe((state) => {
      if (state.data?.[0]?.title === 'a')
        c.set(
          [Todo],
          [
            { id: 1, title: 'b' },
            { id: 2, title: 'b' },
          ],
        );
    });
    const after = list(c);
    const two = one(c, 2);
    c.set(Todo, { id: 1 }, { id: 1, title: 'a' });
    await microtask();
    for (const states of [before, after]) expect(titles(states.last())).toEqual(['b', 'b', 'todo 3']);
    expect(two.values.map((state) => state.data?.title)).toEqual(['todo 2', 'b']);
    expect(json(after.last().data)).toEqual(freshList(c));
    subscription.unsubscribe();
  });

  it('a subscriber that throws: the error is reported, the others still get the state', async () => {
    const reported: unknown[] = [];
    const onUnhandledError = config.onUnhandledError;
    config.onUnhandledError = (error) => reported.push(error);
    try {
      const c = setup();
      const subscription = watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }).subscribe(
        (state) => {
          if (state.data?.[0]?.title === 'a') throw new Error('render failed');
        },
      );
      const all = list(c);
      const first = one(c, 1);
      c.set(Todo, { id: 1 }, { id: 1, title: 'a' });
      await microtask();
      expect(titles(all.last())).toEqual(['a', 'todo 2', 'todo 3']);
      expect(first.last().data?.title).toBe('a');
      await vi.waitFor(() => expect(reported).toHaveLength(1));
      subscription.unsubscribe();
    } finally {
      config.onUnhandledError = onUnhandledError;
    }
  });

  it('a subscriber that unsubscribes itself and another stream: the other gets nothing more, the rest flush', async () => {
    const c = setup();
    const seen: string[] = [];
    let two: { unsubscribe(): void } | undefined;
    // subscribed first, so re-read first at the end of the task
    const self = watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }).subscribe((state) => {
      seen.push(`list ${titles(state)?.join()}`);
      if (state.data?.[1]?.title === 'x') {
        self.unsubscribe();
        two?.unsubscribe();
      }
    });
    two = watchQuery(c, TodoResource.get, [{ id: 2 }], { poll: false, batch: true }).subscribe((state) =>
      seen.push(`two ${state.data?.title}`),
    );
    const three = one(c, 3);
    c.set(
      [Todo],
      [
        { id: 2, title: 'x' },
        { id: 3, title: 'y' },
      ],
    );
    c.set(
      [Todo],
      [
        { id: 2, title: 'x' },
        { id: 3, title: 'y' },
      ],
    );
    await microtask();
    expect(seen).toEqual(['list todo 1,todo 2,todo 3', 'two todo 2', 'list todo 1,x,y']);
    expect(three.values.map((state) => state.data?.title)).toEqual(['todo 3', 'y']);
    c.set(Todo, { id: 2 }, { id: 2, title: 'z' });
    await microtask();
    expect(seen).toHaveLength(3);
  });

  it('a subscriber that subscribes a new stream: it starts from the current state', async () => {
    const c = setup();
    let late: ReturnType<typeof one> | undefined;
    const subscription = watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }).subscribe((state) => {
      if (state.data?.[0]?.title === 'a' && !late) late = one(c, 1);
    });
    c.set(Todo, { id: 1 }, { id: 1, title: 'a' });
    await microtask();
    expect(late?.values.map((state) => state.data?.title)).toEqual(['a']);
    c.set(Todo, { id: 1 }, { id: 1, title: 'b' });
    await microtask();
    expect(late?.values.map((state) => state.data?.title)).toEqual(['a', 'b']);
    subscription.unsubscribe();
  });

  it('what runs after the re-reads (afterQueries) all runs in the task, though one of them throws', async () => {
    const c = setup();
    const ran: string[] = [];
    const thrown: unknown[] = [];
    const onError = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', onError);
    try {
      const first = watchQuery(c, TodoResource.getList, [{}], { poll: false, batch: true }).subscribe((state) => {
        if (state.data?.[0]?.title === 'a')
          afterQueries(() => {
            ran.push('list');
            throw new Error('commit failed');
          });
      });
      const second = watchQuery(c, TodoResource.get, [{ id: 1 }], { poll: false, batch: true }).subscribe((state) => {
        if (state.data?.title === 'a') afterQueries(() => ran.push('one'));
      });
      c.set(Todo, { id: 1 }, { id: 1, title: 'a' });
      await microtask();
      expect(ran).toEqual(['list', 'one']);
      await vi.waitFor(() => expect(thrown).toHaveLength(1));
      expect((thrown[0] as Error).message).toBe('commit failed');
      first.unsubscribe();
      second.unsubscribe();
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});

describe('resetEntireStore, dispose and invalidate in the middle of a task', () => {
  it('resetEntireStore after a write: the streams show the empty store, and a write after it, once the task ends', async () => {
    const c = setup();
    const all = list(c);
    const two = one(c, 2);
    c.set(Todo, { id: 2 }, { id: 2, title: 'lost' });
    c.resetEntireStore();
    c.setResponse(TodoResource.get, { id: 2 }, row(2, 'after the reset'));
    await microtask();
    expect(all.last().data).toBeUndefined();
    expect(two.last().data?.title).toBe('after the reset');
    expect(c.getState().entities.Todo?.['2']).toMatchObject({ title: 'after the reset' });
  });

  it('dispose after a write: the streams complete and emit nothing at the end of the task', async () => {
    const c = setup();
    const all = list(c);
    let completed = false;
    watchQuery(c, TodoResource.get, [{ id: 1 }], { poll: false, batch: true }).subscribe({
      complete: () => (completed = true),
    });
    c.set(Todo, { id: 1 }, { id: 1, title: 'then disposed' });
    c.dispose();
    await microtask();
    expect(all.values).toHaveLength(1);
    expect(completed).toBe(true);
  });

  it('invalidate then the answer in the same task: the stream shows the answer, fresh', async () => {
    const c = setup();
    const all = list(c);
    c.invalidate(TodoResource.getList, {});
    c.setResponse(TodoResource.getList, {}, [row(3), row(1)]);
    await microtask();
    expect(all.values.map(titles)).toEqual([
      ['todo 1', 'todo 2', 'todo 3'],
      ['todo 3', 'todo 1'],
    ]);
    expect(all.last()).toMatchObject({ stale: false, fetching: false, error: undefined });
  });
});

describe('seeded tasks of writes', () => {
  it('each stream emits at most once per task, and ends each task on what a fresh controller reads', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = seeded(seed);
      const c = setup();
      const all = list(c);
      const rows = [1, 2, 3].map((id) => one(c, id));
      for (let task = 0; task < 30; task++) {
        const counts = [all, ...rows].map((states) => states.values.length);
        const writes = 1 + random.int(4);
        for (let w = 0; w < writes; w++) {
          const id = 1 + random.int(4);
          const title = random.pick(['todo 1', 'todo 2', 'x', 'y']);
          const kind = random.int(4);
          if (kind === 0) c.set(Todo, { id }, { id, title });
          else if (kind === 1)
            c.set(
              [Todo],
              [
                { id, title },
                { id: 1 + random.int(3), completed: random.next() < 0.5 },
              ],
            );
          else if (kind === 2)
            c.setResponse(
              TodoResource.getList,
              {},
              random.next() < 0.5 ? [row(1), row(2), row(3)] : [row(3), row(id, title)],
            );
          else c.setResponse(TodoResource.get, { id: 1 + random.int(3) }, row(1 + random.int(3), title));
        }
        await microtask();
        [all, ...rows].forEach((states, i) => expect(states.values.length - counts[i]!).toBeLessThanOrEqual(1));
        expect(json(all.last().data)).toEqual(freshList(c));
        for (const [i, states] of rows.entries()) {
          const fresh = new Controller({ initialState: c.getState() });
          expect(json(states.last().data)).toEqual(json(peekQuery(fresh, TodoResource.get, { id: i + 1 }).data));
          fresh.dispose();
        }
      }
    }
  });
});
