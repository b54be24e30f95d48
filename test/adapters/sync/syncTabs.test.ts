/**
 * rx-rest/sync: controllers in one process stand for the tabs of an app, each with its own
 * `BroadcastChannel` of one name (Node's, delivered asynchronously as in a browser), answering through
 * msw. Waits are on events (an action, a message), never on fixed sleeps.
 */
import { firstValueFrom, filter } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpResponse, http } from 'msw';
import {
  Controller,
  Entity,
  INVALID,
  type ControllerAction,
  type ControllerOptions,
  type QueryState,
} from '../../../core/index.js';
import { syncTabs, type SyncChannel } from '../../../adapters/sync/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { API, createTodoServer } from '../../fixtures/todoServer.js';

/** A record the tests write only to know that a tab has read everything another posted before it. */
class Marker extends Entity {
  id = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Marker';
}

const fake = createTodoServer();
const seed = structuredClone([...fake.todos.values()]);
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());

let channelName: string;
let names = 0;
const cleanups: (() => void)[] = [];
let warn: ReturnType<typeof vi.fn<(...args: unknown[]) => void>>;

beforeEach(() => {
  channelName = `rx-rest-sync-test-${++names}`; // a channel per test: nothing crosses between tests
  vi.stubGlobal('document', {}); // tabs of a browser (without a document, syncTabs does nothing)
  warn = vi.fn();
  // the add-on's warnings (the core's own development warnings on writes, `controller.set: ...`, are not counted)
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith('controller.')) warn(...args);
  });
});

afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  fake.server.resetHandlers();
  fake.requests.length = 0;
  fake.todos.clear();
  for (const todo of structuredClone(seed)) fake.todos.set(todo.id, todo);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A tab: a controller synced on this test's channel (disposed after the test). */
function tab(options: ControllerOptions = {}): Controller {
  const controller = new Controller({
    retry: 0,
    gcTime: Infinity,
    managers: [(c) => syncTabs(c, { channel: channelName })],
    ...options,
  });
  cleanups.push(() => controller.dispose());
  return controller;
}

/** A controller on a clock the test sets. */
function clockedTab(now: number) {
  const clock = { now };
  return { clock, controller: tab({ now: () => clock.now }) };
}

/** The next action of `type` in `controller` (listening from now on). */
const next = (controller: Controller, type: ControllerAction['type'] = 'restore') =>
  firstValueFrom(controller.actions$.pipe(filter((action) => action.type === type)));

let markers = 0;
/** Resolves once `to` has read everything `from` posted before now (one sender's messages arrive in order). */
async function delivered(from: Controller, to: Controller): Promise<void> {
  const id = `${++markers}`;
  const applied = firstValueFrom(
    to.actions$.pipe(
      filter(
        (action) =>
          action.type === 'restore' &&
          Array.isArray(action.changes?.entities) &&
          action.changes.entities.some(([key, pk]) => key === 'Marker' && pk === id),
      ),
    ),
  );
  from.set(Marker, { id: Number(id) });
  await applied;
}

/** A real `BroadcastChannel` of this test's name, handed over as a channel-like object that logs what is posted. */
function logged(): { channel: SyncChannel; posted: Record<string, unknown>[]; closed: () => boolean } {
  const real = new BroadcastChannel(channelName);
  const posted: Record<string, unknown>[] = [];
  let closed = false;
  cleanups.push(() => real.close());
  return {
    posted,
    closed: () => closed,
    channel: {
      postMessage: (message) => {
        posted.push(message as Record<string, unknown>);
        real.postMessage(message);
      },
      addEventListener: (type, listener) => real.addEventListener(type, listener as unknown as (event: Event) => void),
      removeEventListener: (type, listener) =>
        real.removeEventListener(type, listener as unknown as (event: Event) => void),
      close: () => {
        closed = true;
        real.close();
      },
    },
  };
}

interface Spy {
  /** Every message seen on the channel, in order. */
  readonly messages: Record<string, unknown>[];
  /** Resolves with the `count`-th message (already seen or to come) that `match` accepts. */
  until(match: (message: Record<string, unknown>) => boolean, count?: number): Promise<Record<string, unknown>>;
  /** Posts as a foreign sender would. */
  post(message: unknown): void;
}

/** A plain `BroadcastChannel` on this test's channel that records what the tabs post. */
function spy(): Spy {
  const channel = new BroadcastChannel(channelName);
  cleanups.push(() => channel.close());
  const messages: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  channel.onmessage = (event) => {
    messages.push(event.data as Record<string, unknown>);
    for (const check of [...waiting]) check();
  };
  return {
    messages,
    until: (match, count = 1) =>
      new Promise((resolve) => {
        const check = () => {
          const found = messages.filter(match)[count - 1];
          if (found === undefined) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
      }),
    post: (message) => channel.postMessage(message),
  };
}

const userOne = { userId: 1 };
const listKey = TodoResource.getList.key(userOne);
const titlesOf = (state: QueryState<Todo[]> | undefined) => state?.data?.map((todo) => todo.title);

/** The latest state of an observed query (subscribed until the test ends). */
function watch<T>(source: { subscribe(next: (value: T) => void): { unsubscribe(): void } }) {
  const seen: T[] = [];
  const subscription = source.subscribe((value) => seen.push(value));
  cleanups.push(() => subscription.unsubscribe());
  return { seen, latest: () => seen.at(-1) };
}

describe('syncTabs: what one tab learns, the others have', () => {
  it('a response: the other tab holds it without a request of its own', async () => {
    const [a, b] = [tab(), tab()];
    const restored = next(b);
    const todos = await a.fetch(TodoResource.getList, userOne);
    await restored;
    expect(b.getResponse(TodoResource.getList, userOne).data?.map((todo) => todo.title)).toEqual(
      todos.map((todo) => todo.title),
    );
    expect(b.getResponse(TodoResource.getList, userOne).data?.[0]).toBeInstanceOf(Todo);
    expect(b.getState().meta[listKey]?.fetchedAt).toBe(a.getState().meta[listKey]?.fetchedAt);
    // the other tab's observer reads it from the store: no request
    const list = watch(b.observe(TodoResource.getList, userOne));
    expect(titlesOf(list.latest())).toEqual(['todo 1', 'todo 3']);
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('set: the other tab’s observers show the change', async () => {
    const [a, b] = [tab(), tab()];
    let restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    const list = watch(b.observe(TodoResource.getList, userOne));
    restored = next(b);
    a.set(Todo, { id: 3, title: 'renamed in tab A' });
    await restored;
    expect(titlesOf(list.latest())).toEqual(['todo 1', 'renamed in tab A']);
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('set([Todo], rows): the batch goes out as one message, applies as one write, and keeps its stamps', async () => {
    const [a, b] = [tab(), tab()];
    const channel = spy();
    let restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    const list = watch(b.observe(TodoResource.getList, userOne));
    const before = list.seen.length;
    restored = next(b);
    a.set(
      [Todo],
      [
        { id: 1, title: 'batch 1' },
        { id: 3, completed: true },
        { id: 9, userId: 2, title: 'new in the batch' },
      ],
    );
    const action = await restored;
    const tables = (message: Record<string, unknown>) =>
      (message.snapshot as { entities?: Record<string, Record<string, unknown>> } | undefined)?.entities?.Todo;
    const batch = await channel.until((message) => tables(message)?.['9'] !== undefined);
    expect(Object.keys(tables(batch) ?? {}).sort()).toEqual(['1', '3', '9']); // one message holds the three rows
    await delivered(a, b);
    expect(channel.messages.filter((message) => tables(message)?.['9'] !== undefined)).toHaveLength(1);
    expect(action.changes?.entities).toEqual(
      expect.arrayContaining([
        ['Todo', '1'],
        ['Todo', '3'],
        ['Todo', '9'],
      ]),
    );
    expect(list.seen.length - before).toBe(1); // the list read two of the rows: one emission
    expect(titlesOf(list.latest())).toEqual(['batch 1', 'todo 3']);
    expect(list.latest()?.data?.[1]?.completed).toBe(true);
    expect(b.get(Todo, { id: 9 })?.title).toBe('new in the batch');
    for (const pk of ['1', '3', '9'])
      expect(b.getState().entitiesMeta.Todo?.[pk]?.fetchedAt).toBe(a.getState().entitiesMeta.Todo?.[pk]?.fetchedAt);
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
  });

  it('invalidate: the other tab’s observer refetches, and its response comes back', async () => {
    const [a, b] = [tab(), tab()];
    let restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    const list = watch(b.observe(TodoResource.getList, userOne));
    fake.todos.get(1)!.title = 'changed on the server';
    const refetched = next(b, 'fetch');
    restored = next(a);
    a.invalidate(TodoResource.getList, userOne);
    await refetched;
    expect(titlesOf(list.latest())).toEqual(['changed on the server', 'todo 3']);
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'GET /todos?userId=1']);
    await restored; // tab B's response, merged in tab A (which does not observe the list)
    expect(a.getResponse(TodoResource.getList, userOne)).toMatchObject({ invalid: false, stale: false });
    expect(a.getResponse(TodoResource.getList, userOne).data?.[0]?.title).toBe('changed on the server');
  });

  it('an error and an expiry', async () => {
    const [a, b] = [tab(), tab()];
    let restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    restored = next(b);
    a.expireAll(TodoResource.getList);
    await restored;
    expect(b.getResponse(TodoResource.getList, userOne)).toMatchObject({ stale: true, invalid: false });

    restored = next(b);
    a.setError(TodoResource.get, { id: 9 }, Object.assign(new Error('not there'), { status: 404 }));
    await restored;
    const error = b.getState().meta[TodoResource.get.key({ id: 9 })]?.error;
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message: 'not there', status: 404 });
  });

  it('reset: the other tab empties its store too', async () => {
    const [a, b] = [tab(), tab()];
    const restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    const reset = next(b, 'reset');
    a.resetEntireStore();
    await reset;
    expect(b.getState().entities).toEqual({});
    expect(b.getState().endpoints).toEqual({});
    expect(b.getResponse(TodoResource.getList, userOne).data).toBeUndefined();
  });

  it('reset, then a response at once: the other tab, reading the reset a few ms later, holds the response too', async () => {
    const clock = { now: 1_000_000 };
    const [a, b] = [tab({ now: () => clock.now }), tab({ now: () => clock.now })];
    await a.fetch(TodoResource.getList, userOne);
    await delivered(a, b);
    a.resetEntireStore();
    const answered = a.fetch(TodoResource.get, { id: 2 }); // started right after the reset
    clock.now += 5; // the other tab reads the reset 5 ms later
    await answered;
    await delivered(a, b);
    const todo2 = TodoResource.get.key({ id: 2 });
    expect(b.get(Todo, { id: 2 })?.title).toBe('todo 2');
    expect(Object.keys(b.getState().meta)).toEqual([todo2]);
    expect(b.getResponse(TodoResource.get, { id: 2 }).data?.title).toBe('todo 2');
    expect(b.getState().entities).toEqual(a.getState().entities);
    expect(Object.keys(a.getState().meta)).toEqual([todo2]);
  });

  it('reset while the other tab writes: both tabs keep what was written after the reset, and nothing before it', async () => {
    const { controller: a } = clockedTab(1_000);
    const { controller: b } = clockedTab(1_000);
    await delivered(a, b);
    await delivered(b, a);
    a.set(Todo, { id: 1, title: 'before the reset' });
    await delivered(a, b);
    for (let id = 10; id < 13; id++) b.set(Todo, { id, title: `B ${id}` }); // before B reads the reset
    a.resetEntireStore(); // before A reads B's writes: they come after the reset
    a.set(Todo, { id: 2, title: 'A after the reset' });
    await delivered(a, b);
    await delivered(b, a);
    const titles = (c: Controller) =>
      Object.values(c.getState().entities.Todo ?? {})
        .map((todo) => (todo as { title: string }).title)
        .sort();
    expect(titles(a)).toEqual(['A after the reset', 'B 10', 'B 11', 'B 12']);
    expect(titles(b)).toEqual(titles(a));
  });

  it('reset: a request the other tab started before it settles there without writing; its observer loads again', async () => {
    const [a, b] = [tab(), tab()];
    await delivered(a, b);
    fake.setLatency(40);
    const states = watch(b.observe(TodoResource.get, { id: 3 }));
    expect(states.latest()?.loading).toBe(true);
    const reset = next(b, 'reset');
    a.resetEntireStore(); // while B's request is on its way
    await reset;
    fake.setLatency(0);
    const requestsBefore = fake.requests.length;
    await firstValueFrom(b.observe(TodoResource.get, { id: 3 }).pipe(filter((state) => state.data !== undefined)));
    expect(fake.requests.length).toBeGreaterThan(requestsBefore); // a request of its own after the reset
    expect(states.latest()?.data?.title).toBe('todo 3');
    expect(b.getState().lastReset).toBe(a.getState().lastReset);
  });

  it('reset: an optimistic mutation in flight in the other tab loses its layer there, and its answer writes nothing', async () => {
    const [a, b] = [tab(), tab()];
    await b.fetch(TodoResource.get, { id: 1 });
    await delivered(b, a);
    fake.setLatency(40);
    const mutation = b.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'optimistic' });
    expect(b.get(Todo, { id: 1 })?.title).toBe('optimistic');
    const reset = next(b, 'reset');
    a.resetEntireStore();
    await reset;
    expect(b.getState().optimistic).toEqual([]);
    expect(b.get(Todo, { id: 1 })).toBeUndefined();
    await mutation;
    expect(b.getState().optimistic).toEqual([]);
    expect(b.get(Todo, { id: 1 })).toBeUndefined(); // as after its own reset: the answer is not written
  });

  it('reset from a tab whose clock is ahead: the other tab’s later set and fetch are written and shown', async () => {
    const { controller: a } = clockedTab(60_000);
    const { controller: b } = clockedTab(1_000); // a minute behind
    await delivered(b, a); // both listen; B has seen no stamp of A's
    const reset = next(b, 'reset');
    a.resetEntireStore();
    await reset;
    b.set(Todo, { id: 1, title: 'set after the reset' });
    expect(b.get(Todo, { id: 1 })?.title).toBe('set after the reset');
    expect((await b.fetch(TodoResource.get, { id: 2 })).title).toBe('todo 2');
    expect(b.getResponse(TodoResource.get, { id: 2 }).data?.title).toBe('todo 2');
    await delivered(b, a);
    expect(a.get(Todo, { id: 1 })?.title).toBe('set after the reset');
    expect(a.get(Todo, { id: 2 })?.title).toBe('todo 2');
  });

  it('a reset message whose stamp is not a time is ignored with a warning naming lastReset; the store is unchanged', async () => {
    const channel = spy();
    const b = tab();
    const hello = await channel.until((message) => message.kind === 'hello');
    b.set(Todo, { id: 1, title: 'kept' });
    const before = b.getState();
    const applied = new Promise<void>((resolve) => warn.mockImplementation(() => resolve()));
    channel.post({ ...hello, from: 'elsewhere', kind: 'reset', at: Number.MAX_VALUE });
    await applied;
    expect(String(warn.mock.calls[0]?.[1])).toMatch(/lastReset: number 1\.797\d*e\+308 is not a time/);
    expect(b.getState()).toBe(before);
  });

  it('a created todo joins the other tab’s list (the response, not the optimistic guess)', async () => {
    const [a, b] = [tab(), tab()];
    let restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    const list = watch(b.observe(TodoResource.getList, userOne));
    restored = next(b);
    const created = await a.fetch(TodoResource.getList.push, userOne, { title: 'made in tab A' });
    await restored;
    expect(titlesOf(list.latest())).toEqual(['todo 1', 'todo 3', 'made in tab A']);
    expect(b.get(Todo, { id: created.id })?.title).toBe('made in tab A');
    expect(b.getState().optimistic).toEqual([]);
    expect(fake.requests).toEqual(['GET /todos?userId=1', 'POST /todos?userId=1']);
  });

  it('a deletion: the record is INVALID in the other tab and leaves its list', async () => {
    const [a, b] = [tab(), tab()];
    let restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    const list = watch(b.observe(TodoResource.getList, userOne));
    restored = next(b);
    await a.fetch(TodoResource.delete, { id: 1 });
    await restored;
    expect(b.getState().entities.Todo?.['1']).toBe(INVALID);
    expect(b.get(Todo, { id: 1 })).toBeUndefined();
    expect(titlesOf(list.latest())).toEqual(['todo 3']);
  });
});

describe('syncTabs: no lost update, no echo', () => {
  it('two tabs setting one record at once: the later start wins in both', async () => {
    const { controller: a } = clockedTab(1_000);
    const { controller: b } = clockedTab(2_000);
    const restored = next(a);
    a.set(Todo, { id: 1, title: 'from A (earlier)' });
    b.set(Todo, { id: 1, title: 'from B (later)' }); // before either message arrived
    await restored;
    await delivered(a, b);
    expect(a.get(Todo, { id: 1 })?.title).toBe('from B (later)');
    expect(b.get(Todo, { id: 1 })?.title).toBe('from B (later)');
  });

  it('a burst of set within one millisecond ends at the last value in both tabs', async () => {
    const { controller: a } = clockedTab(1_000);
    const { controller: b } = clockedTab(1_000);
    await delivered(b, a); // both tabs are listening
    for (const title of ['first', 'second', 'third']) a.set(Todo, { id: 1, title });
    expect(a.get(Todo, { id: 1 })?.title).toBe('third');
    await delivered(a, b);
    expect(b.get(Todo, { id: 1 })?.title).toBe('third');
    // and B's own write in that millisecond, made after it saw A's, is the newer one in both tabs
    b.set(Todo, { id: 1, title: 'from B, after' });
    await delivered(b, a);
    expect(a.get(Todo, { id: 1 })?.title).toBe('from B, after');
    expect(b.get(Todo, { id: 1 })?.title).toBe('from B, after');
  });

  it('two tabs writing one record with the same stamp and arrival end at the same value', async () => {
    // two tabs on one clock, each writing first in that millisecond: equal stamps, equal dates
    const { controller: a } = clockedTab(1_000);
    const { controller: b } = clockedTab(1_000);
    a.set(Todo, { id: 1, title: 'from A' });
    b.set(Todo, { id: 1, title: 'from B' }); // before either message arrived
    await delivered(a, b); // each has read what the other wrote
    await delivered(b, a);
    expect(a.get(Todo, { id: 1 })?.title).toBe(b.get(Todo, { id: 1 })?.title);
    expect(a.getState().entitiesMeta.Todo?.['1']).toEqual(b.getState().entitiesMeta.Todo?.['1']);
  });

  it('two tabs deleting and writing one record with the same stamp and arrival agree', async () => {
    const { controller: a } = clockedTab(1_000);
    const { controller: b } = clockedTab(1_000);
    b.set(TodoResource.delete.schema, { id: 1 });
    a.set(Todo, { id: 1, title: 'from A' });
    await delivered(a, b); // each has read what the other wrote
    await delivered(b, a);
    expect(a.getState().entities.Todo?.['1']).toBe(b.getState().entities.Todo?.['1']);
  });

  it('two tabs setting one list with the same stamp and arrival end with the same list', async () => {
    const { controller: a } = clockedTab(1_000);
    const { controller: b } = clockedTab(1_000);
    a.setResponse(TodoResource.getList, {}, [{ id: 1, title: 'one' }]);
    b.setResponse(TodoResource.getList, {}, [{ id: 2, title: 'two' }]);
    await delivered(a, b); // each has read what the other wrote
    await delivered(b, a);
    const list = (controller: Controller) => controller.getState().entities['[Todo]'];
    expect(list(a)).toEqual(list(b));
    const key = TodoResource.getList.key({});
    expect(a.getState().meta[key]).toEqual(b.getState().meta[key]);
  });

  it('two tabs fetching one record at once, answered out of order: the later request wins in both', async () => {
    const { controller: a } = clockedTab(1_000);
    const { controller: b } = clockedTab(2_000);
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    let calls = 0;
    fake.server.use(
      http.get(`${API}/todos/1`, async () => {
        const call = ++calls;
        if (call === 1) {
          firstArrived();
          await firstHeld;
        }
        return HttpResponse.json({ id: 1, title: call === 1 ? 'older read' : 'newer read' });
      }),
    );
    const older = a.fetch(TodoResource.get, { id: 1 });
    await arrived;
    const restored = next(a);
    await b.fetch(TodoResource.get, { id: 1 });
    await restored; // B's newer read is in A while A's own request is still out
    expect(a.get(Todo, { id: 1 })?.title).toBe('newer read');
    releaseFirst();
    expect((await older).title).toBe('older read'); // A's fetch resolves its own response...
    await delivered(a, b);
    expect(a.get(Todo, { id: 1 })?.title).toBe('newer read'); // ...but the store keeps the newer one
    expect(b.get(Todo, { id: 1 })?.title).toBe('newer read');
  });

  it('what a tab applies is never posted again (three tabs, every kind of change)', async () => {
    const logs = [logged(), logged(), logged()];
    const [a, b, c] = logs.map(({ channel }) => tab({ managers: [(controller) => syncTabs(controller, { channel })] }));
    // what each tab posted, but its answers to the hellos of the others (they depend on when a hello arrives)
    const posted = () =>
      logs.map((log) => log.posted.filter((message) => message.to === undefined).map((message) => message.kind));
    expect(posted()).toEqual([['hello'], ['hello'], ['hello']]);
    const inBoth = (type: ControllerAction['type'] = 'restore') => Promise.all([next(b!, type), next(c!, type)]);

    let applied = inBoth();
    a!.set(Todo, { id: 1, title: 'once' });
    await applied;
    applied = inBoth();
    a!.invalidate(TodoResource.get, { id: 1 });
    await applied;
    applied = inBoth('reset');
    a!.resetEntireStore();
    await applied;
    // a tab posts while it applies or not at all: each apply above is over
    expect(posted()).toEqual([['hello', 'snapshot', 'snapshot', 'reset'], ['hello'], ['hello']]);

    applied = Promise.all([next(a!), next(c!)]);
    b!.set(Todo, { id: 2, title: 'from B' });
    await applied;
    expect(posted()).toEqual([['hello', 'snapshot', 'snapshot', 'reset'], ['hello', 'snapshot'], ['hello']]);
    expect(c!.get(Todo, { id: 2 })?.title).toBe('from B');
    const hellos = new Set(logs.map((log) => log.posted[0]!.from));
    for (const log of logs) for (const { to } of log.posted) if (to !== undefined) expect(hellos).toContain(to);
  });

  it('a tab that opens later asks once and starts with what the others know (the newer of each)', async () => {
    const [a, b] = [tab(), tab()];
    const channel = spy();
    let restored = next(b);
    await a.fetch(TodoResource.getList, userOne);
    await restored;
    restored = next(a);
    b.set(Todo, { id: 2, title: 'set in tab B' });
    await restored;

    const late = new Controller({ retry: 0, gcTime: Infinity, now: () => 1 }); // its own data is old
    cleanups.push(() => late.dispose());
    late.set(Todo, { id: 1, title: 'stale in the late tab' });
    const answered = next(late);
    syncTabs(late, { channel: channelName });
    await answered;
    const hello = await channel.until((message) => message.kind === 'hello');
    await channel.until((message) => message.to === hello.from, 2); // both answers are out
    await delivered(a, late);
    await delivered(b, late);
    expect(late.getResponse(TodoResource.getList, userOne).data?.map((todo) => todo.title)).toEqual([
      'todo 1',
      'todo 3',
    ]);
    expect(late.get(Todo, { id: 2 })?.title).toBe('set in tab B');
    expect(fake.requests).toEqual(['GET /todos?userId=1']);
    // one hello, answered once by each tab
    expect(channel.messages.filter((message) => message.kind === 'hello')).toHaveLength(1);
    const answers = channel.messages.filter((message) => message.to === hello.from);
    expect(answers).toHaveLength(2);
    expect(answers[0]!.from).not.toBe(answers[1]!.from);
  });
});

describe('syncTabs: bad input', () => {
  /**
   * Tab A sets todo 1 and tab B takes in its message, then tab A closes: B alone reads what follows. The
   * genuine message, its snapshot and the times of todo 1 in it, for the test to forge others from.
   */
  async function heardFromA() {
    const [a, b] = [tab(), tab()];
    const channel = spy();
    const restored = next(b);
    a.set(Todo, { id: 1, title: 'kept' });
    await restored;
    const genuine = await channel.until((message) => message.kind === 'snapshot');
    a.dispose();
    const snapshot = genuine.snapshot as { entitiesMeta: { Todo: Record<string, Record<string, number>> } };
    const times = snapshot.entitiesMeta.Todo['1']!;
    return { b, channel, genuine, snapshot, times };
  }

  it("ignores what is not one of its messages (another app, a wrong shape) with a warning (another app's: once), and goes on", async () => {
    const { b, channel, genuine } = await heardFromA();
    const before = b.getState();
    const snapshot = genuine.snapshot as Record<string, unknown>;
    const bad: unknown[] = [
      'hello',
      null,
      { type: 'chat', text: 'another app on the same channel name' },
      { ...genuine, format: 'rx-rest/sync@0' },
      { ...genuine, from: 7 },
      { ...genuine, kind: 'drop-tables' },
      { ...genuine, snapshot: 'everything' },
      { ...genuine, snapshot: { ...snapshot, entities: { Todo: { 1: 'not a record' } } } },
      { ...genuine, snapshot: { ...snapshot, meta: { key: { date: 'soon' } } } },
      { ...genuine, snapshot: { ...snapshot, invalid: [['Todo']] } },
      // (keys such as __proto__ and constructor are data, not hostile: test/review14/addons/syncDataKeys.test.ts)
    ];
    for (const message of bad) channel.post(message);
    // then a well-formed message from the same sender: read after all of the above
    const restored = next(b);
    channel.post({
      ...genuine,
      from: 'another tab',
      snapshot: {
        ...snapshot,
        entities: { Todo: { 2: { id: 2, title: 'well formed' } } },
        entitiesMeta: { Todo: { 2: { date: 1, fetchedAt: 1, expiresAt: 2 } } },
      },
    });
    await restored;
    // the messages without the marker (another app sharing the channel) are said once, the first of them
    const warned = bad.filter((_, i) => i === 0 || i > 3);
    expect(warn).toHaveBeenCalledTimes(warned.length);
    for (const [prefix, text] of warn.mock.calls) {
      expect(prefix).toBe('rx-rest/sync:');
      expect(text).toMatch(/^ignored a message with .*:$/);
    }
    expect(warn.mock.calls.map((call) => call[2])).toEqual(warned);
    expect(warn.mock.calls.map(([, text]) => (text as string).replace(/^ignored a message with (.*):$/, '$1'))).toEqual(
      [
        'no rx-rest/sync@1 format marker (said once: later ones are ignored silently)',
        'no sender id',
        'unknown kind "drop-tables"',
        'a malformed snapshot',
        'a malformed snapshot',
        'a malformed snapshot',
        'a malformed snapshot',
      ],
    );
    expect(Object.prototype).not.toHaveProperty('id');
    expect(b.get(Todo, { id: 1 })?.title).toBe('kept');
    expect(b.get(Todo, { id: 2 })?.title).toBe('well formed');
    expect(Object.keys(b.getState().entities)).toEqual(Object.keys(before.entities));
    expect(b.getState().entities.Todo?.['9']).toBeUndefined();
  });

  it('refuses NaN-dated (or otherwise hostile-timed) data from another tab with a report naming the field; the store is unchanged and never frozen', async () => {
    const { b, channel, genuine, snapshot, times } = await heardFromA();
    const hostile = [Number.NaN, Number.POSITIVE_INFINITY, -1, 1e300];
    const before = b.getState();
    for (const value of hostile) {
      channel.post({
        ...genuine,
        from: 'a hostile tab',
        snapshot: {
          ...snapshot,
          entities: { Todo: { 1: { id: 1, title: 'hostile' } } },
          entitiesMeta: { Todo: { 1: { ...times, fetchedAt: value } } },
        },
      });
    }
    const restored = next(b);
    channel.post({
      ...genuine,
      from: 'another tab',
      snapshot: {
        ...snapshot,
        entities: { Todo: { 1: { id: 1, title: 'a later write' } } },
        entitiesMeta: { Todo: { 1: { ...times, fetchedAt: times.fetchedAt! + 1, date: times.date! + 1 } } },
      },
    });
    await restored;
    expect(warn).toHaveBeenCalledTimes(hostile.length);
    for (const [index, value] of hostile.entries()) {
      const [prefix, text, message] = warn.mock.calls[index]!;
      expect(prefix).toBe('rx-rest/sync:');
      expect(text).toBe(
        `ignored a message with a snapshot it cannot restore (entitiesMeta.Todo.1.fetchedAt: number ${String(value)} is not a time):`,
      );
      expect((message as { from: string }).from).toBe('a hostile tab');
    }
    expect(b.get(Todo, { id: 1 })?.title).toBe('a later write');
    expect(b.getState().entitiesMeta.Todo?.['1']?.fetchedAt).toBe(times.fetchedAt! + 1);
    expect(before.entities.Todo?.['1']).toMatchObject({ title: 'kept' });
  });

  it('drops a message with malformed deletion marks with a warning, learns none of them, and loses nothing', async () => {
    const { b, channel, genuine, times } = await heardFromA();
    let restored: Promise<unknown>;
    const marked = (invalid: unknown, meta: unknown) => ({
      ...genuine,
      from: 'a hostile tab',
      snapshot: { entities: {}, endpoints: {}, meta: {}, entitiesMeta: { Todo: { 1: meta } }, invalid },
    });
    const later = { ...times, fetchedAt: times.fetchedAt! + 10, date: times.date! + 10 };
    const bad: unknown[] = [
      marked('all', later),
      marked([['Todo', 1]], later),
      marked([['Todo', '1']], 'later'),
      marked([['Todo', '1']], { ...later, fetchedAt: Number.NaN }),
      marked([['Todo', '1']], { ...later, fetchedAt: 1e300 }),
    ];
    for (const message of bad) channel.post(message);
    // well formed, and applied (a mark of a record B does not hold), but its meta is no time of its own
    restored = next(b);
    channel.post(marked([['Todo', 'toString']], later));
    await restored;
    restored = next(b);
    channel.post({
      ...genuine,
      from: 'another tab',
      snapshot: {
        entities: { Todo: { 1: { id: 1, title: 'a later write' } } },
        entitiesMeta: { Todo: { 1: { ...times, fetchedAt: times.fetchedAt! + 1, date: times.date! + 1 } } },
        endpoints: {},
        meta: {},
      },
    });
    await restored;
    expect(warn).toHaveBeenCalledTimes(bad.length);
    expect(warn.mock.calls.map((call) => call[2])).toEqual(bad);
    expect(warn.mock.calls.slice(0, 3).map((call) => call[1])).toEqual(
      Array(3).fill('ignored a message with a malformed snapshot:'),
    );
    expect(Object.prototype).not.toHaveProperty('fetchedAt');
    expect(b.get(Todo, { id: 1 })?.title).toBe('a later write'); // no mark of the dropped messages refused it
    b.gc(); // B's store lets go of what nothing reads (the mark for the pk toString too): what B remembers stays
    b.set(Todo, { id: 2, title: 'set after the collection' });
    // a tab that opens now is answered (nothing uncloneable in it), and with no mark of the dropped messages
    const late = tab();
    const hello = await channel.until((message) => message.kind === 'hello');
    const answer = await channel.until((message) => message.to === hello.from);
    await delivered(b, late);
    expect((answer.snapshot as { invalid?: unknown[] }).invalid ?? []).not.toContainEqual(['Todo', '1']);
    expect(late.get(Todo, { id: 2 })?.title).toBe('set after the collection');
    expect(warn).toHaveBeenCalledTimes(bad.length);
  });

  it('a change that cannot be posted (a value structured clone refuses) is reported, naming the entity and field, and skipped', async () => {
    const [a, b] = [tab(), tab()];
    a.set(Todo, { id: 1, title: 'with a function', onClick: () => 'not data' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe('rx-rest/sync:');
    expect(warn.mock.calls[0]![1]).toBe(
      "a snapshot message could not be posted (skipped): entities.Todo.1.onClick is a function, which cannot be sent to another tab (this tab's store keeps it):",
    );
    expect((warn.mock.calls[0]![2] as Error).name).toBe('DataCloneError');
    expect(a.get(Todo, { id: 1 })?.title).toBe('with a function'); // the tab's own store keeps it
    const restored = next(b);
    a.set(Todo, { id: 2, title: 'plain' });
    await restored;
    expect(b.get(Todo, { id: 2 })?.title).toBe('plain');
    expect(b.get(Todo, { id: 1 })).toBeUndefined();
  });

  it('refuses a channel option that is no channel, with a TypeError that says what it takes', () => {
    const controller = tab({ managers: [] });
    expect(() => syncTabs(controller, { channel: 42 as never })).toThrow(TypeError);
    expect(() => syncTabs(controller, { channel: { postMessage() {} } as never })).toThrow(
      /syncTabs\(controller, \{ channel \}\): channel must be a BroadcastChannel name or an object with postMessage, close and addEventListener or onmessage, got object/,
    );
  });

  it('refuses a first argument that is no Controller, with a TypeError naming it', () => {
    for (const given of [undefined, {}, { actions$: null }]) {
      expect(() => syncTabs(given as never, { channel: channelName })).toThrow(TypeError);
      expect(() => syncTabs(given as never, { channel: channelName })).toThrow(
        /^syncTabs\(controller, options\) expects a Controller as its first argument, got (undefined|object)/,
      );
    }
  });

  it('does nothing where BroadcastChannel does not exist, with one warning', () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    const controller = tab({ managers: [] });
    const stop = syncTabs(controller);
    controller.set(Todo, { id: 1, title: 'local only' });
    controller.resetEntireStore();
    stop();
    expect(warn.mock.calls).toEqual([
      ['rx-rest/sync:', 'there is no BroadcastChannel here: this tab is not synced with others.'],
    ]);
  });
});

describe('syncTabs: channels and teardown', () => {
  it('the teardown stops posting and reading, and closes the channel it opened', async () => {
    const close = vi.spyOn(BroadcastChannel.prototype, 'close');
    const [a, b] = [tab({ managers: [] }), tab()];
    const stop = syncTabs(a, { channel: channelName });
    const restored = next(b);
    a.set(Todo, { id: 1, title: 'synced' });
    await restored;
    expect(close).not.toHaveBeenCalled();
    stop();
    expect(close).toHaveBeenCalledTimes(1);
    stop(); // twice is harmless
    expect(close).toHaveBeenCalledTimes(1);

    const channel = spy();
    a.set(Todo, { id: 1, title: 'not synced any more' });
    b.set(Todo, { id: 2, title: 'from B' });
    await channel.until((message) => message.kind === 'snapshot');
    expect(channel.messages).toHaveLength(1); // B's, and nothing from A
    expect(a.get(Todo, { id: 2 })).toBeUndefined();
    expect(b.get(Todo, { id: 1 })?.title).toBe('synced');
  });

  it('as a manager it ends with dispose(); a channel it was given stays open, without its listener', async () => {
    const given = logged();
    const removed = vi.spyOn(given.channel, 'removeEventListener');
    const a = new Controller({ managers: [(controller) => syncTabs(controller, { channel: given.channel })] });
    const b = tab();
    const restored = next(b);
    a.set(Todo, { id: 1, title: 'synced' });
    await restored;
    a.dispose();
    expect(removed).toHaveBeenCalledTimes(1);
    expect(given.closed()).toBe(false);
    const posts = given.posted.length;
    // the channel still delivers (to a listener added now), but no longer to the disposed tab
    const arrived = new Promise((resolve) => given.channel.addEventListener!('message', resolve));
    b.set(Todo, { id: 2, title: 'after dispose' });
    await arrived;
    expect(a.getState().entities.Todo?.['2']).toBeUndefined();
    expect(given.posted).toHaveLength(posts);
  });

  it("without a channel option it uses the BroadcastChannel named 'rx-rest'", async () => {
    channelName = 'rx-rest';
    const channel = spy();
    const a = tab({ managers: [(controller) => syncTabs(controller)] });
    const b = tab(); // { channel: 'rx-rest' }
    const restored = next(b);
    a.set(Todo, { id: 1, title: 'on the default channel' });
    await restored;
    expect(b.get(Todo, { id: 1 })?.title).toBe('on the default channel');
    await channel.until((message) => message.kind === 'snapshot');
  });

  it('on a disposed controller it does nothing', () => {
    const close = vi.spyOn(BroadcastChannel.prototype, 'close');
    const post = vi.spyOn(BroadcastChannel.prototype, 'postMessage');
    const controller = new Controller();
    controller.dispose();
    const stop = syncTabs(controller, { channel: channelName });
    expect(post).not.toHaveBeenCalled();
    expect(close).toHaveBeenCalledTimes(1);
    stop();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('another transport: two tabs over a MessageChannel, through onmessage', async () => {
    const { port1, port2 } = new MessageChannel();
    cleanups.push(() => port1.close());
    /** A port as a channel with `onmessage` only. */
    const through = (port: MessagePort): SyncChannel => {
      const channel: SyncChannel = {
        onmessage: null,
        postMessage: (message) => port.postMessage(message),
        close: () => port.close(),
      };
      port.onmessage = (event) => channel.onmessage?.(event);
      return channel;
    };
    const [one, two] = [through(port1), through(port2)];
    const a = tab({ managers: [(controller) => syncTabs(controller, { channel: one })] });
    const b = tab({ managers: [] });
    const stop = syncTabs(b, { channel: two });
    expect(typeof two.onmessage).toBe('function');
    let restored = next(b);
    a.set(Todo, { id: 1, title: 'over a port' });
    await restored;
    expect(b.get(Todo, { id: 1 })?.title).toBe('over a port');
    const reset = next(a, 'reset');
    b.resetEntireStore();
    await reset;
    expect(a.get(Todo, { id: 1 })).toBeUndefined();
    restored = next(a);
    b.set(Todo, { id: 2, title: 'back' });
    await restored;
    expect(a.get(Todo, { id: 2 })?.title).toBe('back');
    stop();
    expect(two.onmessage).toBeNull();
  });
});

/**
 * A tab whose incoming messages wait (from `hold()` on) until the test delivers them: a tab that has not
 * read yet what others posted (busy, or a channel that delivers out of order).
 */
function slowTab(options: ControllerOptions = {}) {
  const real = new BroadcastChannel(channelName);
  cleanups.push(() => real.close());
  let listener: ((event: { readonly data: unknown }) => void) | undefined;
  let holding = false;
  const held: { readonly data: unknown }[] = [];
  real.onmessage = (event) => (holding ? held.push({ data: event.data }) : listener?.({ data: event.data }));
  const channel: SyncChannel = {
    postMessage: (message) => real.postMessage(message),
    addEventListener: (_type, added) => (listener = added),
    removeEventListener: () => (listener = undefined),
    close: () => real.close(),
  };
  const controller = tab({ ...options, managers: [(c) => syncTabs(c, { channel })] });
  return {
    controller,
    hold: () => (holding = true),
    /** Delivers the held messages `match` accepts (and keeps holding the others). */
    deliver(match: (message: Record<string, unknown>) => boolean) {
      for (const event of held.filter((e) => match(e.data as Record<string, unknown>))) {
        held.splice(held.indexOf(event), 1);
        listener?.(event);
      }
    },
    /** Delivers every held message, and the next ones as they come. */
    release() {
      holding = false;
      for (const event of held.splice(0)) listener?.(event);
    },
  };
}

describe('syncTabs: a deleted record stays deleted', () => {
  /** Tabs on one clock the test moves, which collect (gcTime 60 s). */
  function clocked() {
    const clock = { now: 1_000 };
    return { clock, options: { gcTime: 60_000, now: () => clock.now } satisfies ControllerOptions };
  }

  /** Tab A, and a slow tab C that has taken in what tab A read first (`read`); all on one clock. */
  async function tabsAAndC(read: (a: Controller) => Promise<unknown>) {
    const { clock, options } = clocked();
    const a = tab(options);
    const c = slowTab(options);
    const restored = next(c.controller);
    await read(a);
    await restored;
    return { clock, options, a, c };
  }

  /**
   * Tab C reads todo 1 and, before its answer comes, tab A deletes todo 1 (then `afterDeletion` runs) while
   * tab C has not read the deletion yet. Tab C's answer comes and is posted: tab A keeps todo 1 out; tab C
   * catches up.
   */
  async function olderReadAfterDeletion(afterDeletion: (tabs: Awaited<ReturnType<typeof tabsAAndC>>) => void) {
    const tabs = await tabsAAndC((a) => a.fetch(TodoResource.get, { id: 1 }));
    const { clock, a, c } = tabs;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let arrived!: () => void;
    const read = new Promise<void>((resolve) => (arrived = resolve));
    fake.server.use(
      http.get(`${API}/todos/1`, async () => {
        arrived();
        await answered;
        return HttpResponse.json({ id: 1, userId: 1, title: 'read before the deletion' });
      }),
    );
    clock.now += 1_000;
    const older = c.controller.fetch(TodoResource.get, { id: 1 }); // tab C reads todo 1...
    await read;
    c.hold(); // ...and has not read the deletion yet when its answer comes
    clock.now += 1_000;
    await a.fetch(TodoResource.delete, { id: 1 });
    afterDeletion(tabs);
    const posted = next(a);
    answer();
    await older; // tab C writes its read and posts it
    await posted;
    expect(a.get(Todo, { id: 1 })).toBeUndefined();
    await catchesUp(a, tabs.c);
    return tabs;
  }

  /**
   * Tab C, which has not read tab A's deletion of todo 1 (after it `afterDeletion` runs), answers the hello of
   * tab B that opens later (once `beforeC` ran) with the old todo 1: neither tab B nor tab A takes it.
   */
  async function opensAfterDeletion(
    afterDeletion: (tabs: Awaited<ReturnType<typeof tabsAAndC>>) => void,
    beforeC: (b: Controller, tabs: Awaited<ReturnType<typeof tabsAAndC>>) => void,
  ) {
    const tabs = await tabsAAndC((a) => a.fetch(TodoResource.getList, userOne));
    const { clock, options, a, c } = tabs;
    c.hold(); // tab C has not read what comes next: the deletion
    clock.now += 1_000;
    await a.fetch(TodoResource.delete, { id: 1 });
    afterDeletion(tabs);
    const opened = await opens(a, options);
    beforeC(opened.b, tabs);
    await answersHello(c, opened);
    expect(opened.b.get(Todo, { id: 1 })).toBeUndefined();
    expect(a.get(Todo, { id: 1 })).toBeUndefined();
    return { ...tabs, b: opened.b };
  }

  /** Tab B opens (says hello) and takes in tab A's answer. */
  async function opens(a: Controller, options: ControllerOptions) {
    const channel = spy();
    const b = tab(options);
    const hello = await channel.until((message) => message.kind === 'hello');
    await channel.until((message) => message.to === hello.from && message.from !== hello.from);
    await delivered(a, b); // tab A's answer is in
    return { b, channel, hello };
  }

  /** The slow tab C answers tab B's hello with what it holds (the old todo 1); tab B takes it in. */
  async function answersHello(c: ReturnType<typeof slowTab>, opened: Awaited<ReturnType<typeof opens>>) {
    c.deliver((message) => message.kind === 'hello');
    await opened.channel.until((message) => message.to === opened.hello.from, 2);
    await delivered(c.controller, opened.b);
  }

  /** The slow tab C reads the deletion at last: it does not hold todo 1. */
  async function catchesUp(a: Controller, c: ReturnType<typeof slowTab>) {
    c.release();
    await delivered(a, c.controller);
    expect(c.controller.get(Todo, { id: 1 })).toBeUndefined();
  }

  /** A storage whose reads wait, from `holdReads()` on, until the function it returns is called. */
  function heldStorage() {
    const items = new Map<string, string>();
    let readsHeld: Promise<void> | undefined;
    const storage: PersistStorage = {
      getItem: async (key) => {
        await readsHeld;
        return items.get(key);
      },
      setItem: async (key, value) => void items.set(key, value),
      removeItem: async (key) => void items.delete(key),
    };
    const holdReads = () => {
      let release!: () => void;
      readsHeld = new Promise((resolve) => (release = resolve));
      return release;
    };
    return { items, storage, holdReads };
  }

  /** A tab that syncs and persists to `persisted.storage`. */
  function persistedTab(options: ControllerOptions, persisted: Parameters<typeof persist>[1]) {
    let stop!: ReturnType<typeof persist>;
    const controller = tab({
      ...options,
      managers: [(c) => syncTabs(c, { channel: channelName }), (c) => (stop = persist(c, persisted))],
    });
    return { controller, stop };
  }

  /**
   * Tab A deleted todo 1 and has not saved since. Tab B opens; its storage answers (the save that still
   * holds todo 1) only after tab A's answer to its hello is in. Todo 1 stays out of both tabs and tab A's
   * next save.
   */
  async function opensOnAnOldSave(
    a: ReturnType<typeof persistedTab>,
    options: ControllerOptions,
    saved: ReturnType<typeof heldStorage>,
  ) {
    const readB = saved.holdReads();
    const channel = spy();
    const b = persistedTab(options, { storage: saved.storage });
    const hello = await channel.until((message) => message.kind === 'hello');
    await channel.until((message) => message.to === hello.from);
    await delivered(a.controller, b.controller); // tab A's answer is in, before tab B's storage answers
    readB();
    await b.stop.restored;
    await delivered(b.controller, a.controller); // what tab B restored is in tab A
    expect(b.controller.get(Todo, { id: 1 })).toBeUndefined();
    expect(a.controller.get(Todo, { id: 1 })).toBeUndefined();
    expect(b.controller.getResponse(TodoResource.getList, userOne).data?.map((todo) => todo.id)).toEqual([3]);
    expect(a.controller.getResponse(TodoResource.getList, userOne).data?.map((todo) => todo.id)).toEqual([3]);
    await a.stop.flush();
    expect(Object.keys(JSON.parse(saved.items.get('rx-rest')!).state.entities.Todo)).not.toContain('1');
  }

  it('a record deleted while another tab’s older read of it was on its way stays deleted once the mark was collected', async () => {
    await olderReadAfterDeletion(({ a }) => {
      a.gc(); // the sweep a write runs: nothing in tab A needs the mark any more
    });
  });

  it('a tab that opens later is not given back a deleted record by a tab that had not read the deletion, once the marks were collected', async () => {
    const { clock, a, b, c } = await opensAfterDeletion(
      ({ a }) => {
        expect(a.getState().entities.Todo?.['1']).toBe(INVALID);
        a.gc(); // the sweep a write runs: nothing in tab A needs the mark any more
      },
      (b, { clock }) => {
        clock.now += 1_000;
        b.gc(); // tab B sweeps too
      },
    );
    await catchesUp(a, c);
    // the marks go once no snapshot can be on its way any more
    clock.now += 60_000;
    for (const controller of [a, b, c.controller]) {
      controller.gc();
      expect(controller.getState().entities.Todo?.['1']).toBeUndefined();
    }
  });

  it('an older read of a deleted record that comes in more than 10 s after the deletion, its mark collected, stays out', async () => {
    const { a, c } = await olderReadAfterDeletion(({ clock, a }) => {
      clock.now += 30_000; // tab C's answer comes half a minute later
      a.gc(); // tab A's store no longer holds the mark
      expect(a.getState().entities.Todo?.['1']).toBeUndefined();
    });
    // a record written after the deletion (made again) is taken
    const again = next(a);
    c.controller.set(Todo, { id: 1, userId: 1, title: 'made again' });
    await again;
    expect(a.get(Todo, { id: 1 })?.title).toBe('made again');
  });

  it('a tab that opens more than 10 s after a deletion is not given the record back by a tab that had not read it, nor later', async () => {
    const { a, b, c } = await opensAfterDeletion(
      ({ clock, a }) => {
        clock.now += 30_000;
        a.gc(); // tab A's store no longer holds the mark
        expect(a.getState().entities.Todo?.['1']).toBeUndefined();
      },
      (b, { clock }) => {
        clock.now += 30_000;
        b.gc(); // nor does tab B's store, half a minute later
        expect(b.getState().entities.Todo?.['1']).toBeUndefined();
      },
    );
    expect(b.getResponse(TodoResource.getList, userOne).data?.map((todo) => todo.id)).toEqual([3]);
    await catchesUp(a, c);
  });

  it('with persist: a save read after another tab deleted a record, before that tab saved again, does not bring it back in any tab', async () => {
    const { clock, options } = clocked();
    const saved = heldStorage();
    const a = persistedTab(options, { storage: saved.storage, throttle: 60_000 });
    await a.stop.restored;
    await a.controller.fetch(TodoResource.getList, userOne);
    await a.stop.flush(); // the storage holds todo 1
    clock.now += 1_000;
    await a.controller.fetch(TodoResource.delete, { id: 1 }); // saved at the end of the throttle window, a minute later
    clock.now += 20_000;
    a.controller.gc(); // the sweep a write runs
    await opensOnAnOldSave(a, options, saved);
  });

  it('with persist: nor when that tab has not saved for longer than gcTime (its hold ended, its store collected the mark)', async () => {
    const { clock, options } = clocked();
    const saved = heldStorage();
    const a = persistedTab(options, { storage: saved.storage, throttle: 120_000 });
    await a.stop.restored;
    await a.controller.fetch(TodoResource.getList, userOne);
    watch(a.controller.observe(TodoResource.getList, userOne)); // kept by the collector
    await a.stop.flush(); // the storage holds todo 1
    clock.now += 1_000;
    await a.controller.fetch(TodoResource.delete, { id: 1 }); // saved at the end of the throttle window, a minute later
    clock.now += 70_000; // the save is due at the end of the throttle window, two minutes later
    a.controller.gc(); // the sweep a write runs
    expect(a.controller.getState().entities.Todo?.['1']).toBeUndefined();
    await opensOnAnOldSave(a, options, saved);
  });
});

describe('syncTabs: the deletions a tab remembers are bounded', () => {
  /** The number of deletions a tab remembers (the cap chosen in adapters/sync). */
  const CAP = 1_000;
  const deletions = (from: number, to: number, fetchedAt: number) => {
    const pks = Array.from({ length: to - from + 1 }, (_, i) => `${from + i}`);
    return {
      entities: {},
      endpoints: {},
      meta: {},
      entitiesMeta: { Todo: Object.fromEntries(pks.map((pk) => [pk, { date: fetchedAt, fetchedAt, expiresAt: 0 }])) },
      invalid: pks.map((pk) => ['Todo', pk]),
    };
  };
  const olderCopy = (id: number, fetchedAt: number) => ({
    entities: { Todo: { [id]: { id, userId: 1, title: `older copy of ${id}`, completed: false } } },
    entitiesMeta: { Todo: { [id]: { date: fetchedAt, fetchedAt, expiresAt: fetchedAt + 60_000 } } },
    endpoints: {},
    meta: {},
  });

  it(`keeps the ${CAP} newest, forgetting the oldest first; a recent deletion is still refused`, async () => {
    const clock = { now: 1_000_000 };
    const channel = spy();
    const a = tab({ gcTime: 60_000, now: () => clock.now });
    const hello = await channel.until((message) => message.kind === 'hello');
    const from = (snapshot: unknown) => ({ ...hello, from: 'another tab', kind: 'snapshot', snapshot });
    // another tab deleted todos 1..1000, then 1001..1100
    let restored = next(a);
    channel.post(from(deletions(1, CAP, 500_000)));
    await restored;
    restored = next(a);
    channel.post(from(deletions(CAP + 1, CAP + 100, 600_000)));
    await restored;
    // tab A's store collects its own marks of them: what it remembers is all that keeps them out
    clock.now += 120_000;
    a.gc();
    expect(a.getState().entities.Todo?.['1']).toBeUndefined();
    expect(a.getState().entities.Todo?.[`${CAP + 100}`]).toBeUndefined();

    // a tab that opens is told the deletions tab A remembers: the newest CAP
    channel.post({ ...hello, from: 'a new tab' });
    const answer = await channel.until((message) => message.to === 'a new tab');
    const invalid = (answer.snapshot as { invalid: [string, string][] }).invalid;
    expect(invalid).toHaveLength(CAP);
    const pks = new Set(invalid.map(([, pk]) => Number(pk)));
    expect(pks.has(CAP + 100)).toBe(true);
    expect(pks.has(101)).toBe(true);
    expect(pks.has(100)).toBe(false);
    expect(pks.has(1)).toBe(false);

    // an older copy of a recent deletion stays out; one of a forgotten deletion (the oldest) is taken (read
    // after the first: one sender's messages arrive in order)
    restored = next(a);
    channel.post(from(olderCopy(CAP + 100, 550_000)));
    channel.post(from(olderCopy(1, 400_000)));
    await restored;
    expect(a.get(Todo, { id: CAP + 100 })).toBeUndefined();
    expect(a.get(Todo, { id: 1 })?.title).toBe('older copy of 1');
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('syncTabs: tabs of two releases of the app', () => {
  /**
   * A tab whose channel delivers every message it receives to its listener (and lists it); with `swap`, the
   * tab stands for another release: the two protocol versions are exchanged on the way out and in, so
   * that it sends `swap[1]` and reads this release's messages as `swap[1]`.
   */
  function releaseTab(swap?: readonly [number, number]) {
    const real = new BroadcastChannel(channelName);
    cleanups.push(() => real.close());
    const relabel = (message: unknown) => {
      const m = message as Record<string, unknown>;
      if (!swap || (m.version !== swap[0] && m.version !== swap[1])) return m;
      return { ...m, version: m.version === swap[0] ? swap[1] : swap[0] };
    };
    const received: Record<string, unknown>[] = [];
    const waiting = new Set<() => void>();
    let listener: ((event: { readonly data: unknown }) => void) | undefined;
    real.onmessage = (event) => {
      const data = relabel(event.data);
      listener?.({ data });
      received.push(data);
      for (const check of [...waiting]) check();
    };
    const channel: SyncChannel = {
      postMessage: (message) => real.postMessage(relabel(message)),
      addEventListener: (_type, added) => (listener = added),
      removeEventListener: () => (listener = undefined),
      close: () => real.close(),
    };
    const controller = tab({ managers: [(c) => syncTabs(c, { channel })] });
    /** Resolves once the tab has read a message `match` accepts. */
    const read = (match: (message: Record<string, unknown>) => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!received.some(match)) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      });
    return { controller, read };
  }

  it('each ignores the other’s messages (one warning per tab naming both versions); tabs of one release still sync', async () => {
    const channel = spy();
    const a = releaseTab();
    const helloA = await channel.until((message) => message.kind === 'hello');
    const current = helloA.version as number;
    expect(typeof current).toBe('number');
    const other = current + 1;
    const b = releaseTab([current, other]);
    const helloB = await channel.until((message) => message.kind === 'hello' && message.version === other);
    const b2 = releaseTab([current, other]);
    await a.read((message) => message.from === helloB.from); // tab A has read tab B's hello...

    a.controller.set(Todo, { id: 1, title: 'from this release' });
    const fromA = await channel.until((message) => message.from === helloA.from && message.kind === 'snapshot');
    await b.read((message) => message.from === helloA.from && message.kind === 'snapshot');
    await b2.read((message) => message.from === helloA.from && message.kind === 'snapshot');
    expect(b.controller.get(Todo, { id: 1 })).toBeUndefined();
    expect(b2.controller.get(Todo, { id: 1 })).toBeUndefined();
    // ...and did not answer it: its next message is the set
    expect(channel.messages.filter((m) => m.from === helloA.from)).toEqual([helloA, fromA]);

    const applied = next(b2.controller);
    b.controller.set(Todo, { id: 2, title: 'from the other release' });
    await applied;
    expect(b2.controller.get(Todo, { id: 2 })?.title).toBe('from the other release');
    await a.read((message) => message.from === helloB.from && message.kind === 'snapshot');
    expect(a.controller.get(Todo, { id: 2 })).toBeUndefined();

    // one warning per tab that read messages of the other version (tab A read three), naming both versions
    expect(warn).toHaveBeenCalledTimes(3);
    for (const [prefix, text] of warn.mock.calls) {
      expect(prefix).toBe('rx-rest/sync:');
      expect(text).toContain(`version ${other}`);
      expect(text).toContain(`${current}`);
    }
  });

  it('messages of the release before versions (no version) count as version 1 and are ignored', async () => {
    const channel = spy();
    const a = releaseTab();
    const helloA = await channel.until((message) => message.kind === 'hello');
    expect(helloA.version).not.toBe(1);
    const { version: _, ...unversioned } = helloA;
    channel.post({
      ...unversioned,
      from: 'an older release',
      kind: 'snapshot',
      snapshot: {
        entities: { Todo: { 3: { id: 3, title: 'old' } } },
        entitiesMeta: { Todo: { 3: { date: 1, fetchedAt: 1, expiresAt: 2 } } },
        endpoints: {},
        meta: {},
      },
    });
    await a.read((message) => message.from === 'an older release');
    expect(a.controller.get(Todo, { id: 3 })).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![1]).toContain('version 1');
  });
});
