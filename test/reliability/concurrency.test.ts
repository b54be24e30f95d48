/**
 * Concurrency: requests started without waiting for each other, answered out of order, under injected
 * faults (a seeded model). Every `controller.fetch` resolves with its own response (not with what the
 * store holds for its request key when it settles); the unit tests of that rule and of identical GETs
 * sharing one request are the request runner's (test/controller/Requests.test.ts).
 */
import { HttpResponse, delay, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { Controller, createResource, restoreSnapshot, takeSnapshot, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { useTodoServer, type TodoJson } from './faultHarness.js';
import { seeded as random } from '../fixtures/random.js';

const fake = useTodoServer();

// ---- the model under concurrency ----------------------------------------------------------------------

const CHAOS = 'http://chaos.test';
const chaosOptions = {
  urlPrefix: CHAOS,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
} as const;
const chaos = {
  plain: createResource(chaosOptions),
  optimistic: createResource({ ...chaosOptions, optimistic: true }),
};
const LONG = process.env.RX_REST_LONG === '1';
/** `RX_REST_SEEDS=1028,1037` replays those seeds. */
const SEEDS = process.env.RX_REST_SEEDS
  ? process.env.RX_REST_SEEDS.split(',').map(Number)
  : LONG
    ? Array.from({ length: 40 }, (_, i) => 1000 + i)
    : [1, 2, 3];
const OPERATIONS = LONG ? 300 : 80;

type Chaos = ReturnType<typeof random>;

/**
 * The server: answers normally, or (while `faulty`) with 500, 503 or a refused connection, each after
 * 0-12 ms so that answers overtake each other. A mutation that fails changes nothing; one that
 * succeeds is stored when the request arrives and `answered` keeps what it answered, by the title its
 * body carries (each mutation's title is unique).
 */
function chaosServer(rng: Chaos) {
  const todos = new Map<number, TodoJson>();
  for (let id = 1; id <= 6; id++) {
    todos.set(id, {
      id,
      userId: (id % 2) + 1,
      title: `todo ${id}`,
      completed: false,
      createdAt: '2024-01-01T00:00:00Z',
    });
  }
  const answered = new Map<string, TodoJson>();
  const deleted = new Set<number>();
  const state = { faulty: true, pending: 0, nextId: 7 };
  const handler = http.all(`${CHAOS}/todos*`, async ({ request }) => {
    state.pending++;
    try {
      const wait = rng.int(13);
      const roll = state.faulty ? rng.next() : 1;
      if (roll < 0.06) return HttpResponse.error();
      if (roll < 0.12) {
        await delay(wait);
        return HttpResponse.json({ message: 'injected' }, { status: roll < 0.09 ? 500 : 503 });
      }
      const url = new URL(request.url);
      const id = Number(url.pathname.split('/')[2]);
      let answer: Response;
      if (url.pathname === '/todos') {
        if (request.method === 'GET') {
          const userId = url.searchParams.get('userId');
          answer = HttpResponse.json([...todos.values()].filter((t) => userId === null || `${t.userId}` === userId));
        } else {
          const body = (await request.json()) as Partial<TodoJson>;
          const todo: TodoJson = {
            id: state.nextId++,
            userId: 1,
            title: '',
            completed: false,
            createdAt: '2024-02-01T00:00:00Z',
            ...body,
          };
          todos.set(todo.id, todo);
          answered.set(todo.title, { ...todo });
          answer = HttpResponse.json(todo, { status: 201 });
        }
      } else {
        const current = todos.get(id);
        if (!current) {
          answer = HttpResponse.json({ message: 'not found' }, { status: 404 });
        } else if (request.method === 'GET') {
          answer = HttpResponse.json(current);
        } else if (request.method === 'DELETE') {
          todos.delete(id);
          deleted.add(id);
          answer = HttpResponse.json({});
        } else {
          const body = (await request.json()) as Partial<TodoJson>;
          const next =
            request.method === 'PUT' ? { ...current, completed: false, ...body, id } : { ...current, ...body, id };
          todos.set(id, next);
          answered.set(next.title, { ...next });
          answer = HttpResponse.json(next);
        }
      }
      await delay(wait);
      return answer;
    } finally {
      state.pending--;
    }
  });
  return { todos, answered, deleted, state, handler };
}

const plainTodo = (todo: Todo | undefined) =>
  todo && { id: todo.id, userId: todo.userId, title: todo.title, completed: todo.completed };
const plainJson = (todo: TodoJson | undefined) =>
  todo && { id: todo.id, userId: todo.userId, title: todo.title, completed: todo.completed };

/** A change the server tells of by itself (as the demos' live stream does). */
type Push =
  { readonly type: 'created' | 'updated'; readonly todo: TodoJson } | { readonly type: 'deleted'; readonly id: number };

/** Applies a push as the demos do (demos/live.ts): a create joins the lists it matches, a delete leaves them. */
function applyPush(push: Push, controller: Controller): void {
  const lists = chaos.plain.getList;
  if (push.type === 'deleted') controller.set(chaos.plain.delete.schema, { id: push.id });
  else if (push.type === 'created') controller.set(lists.push.schema, {}, push.todo, push.todo);
  else controller.set(chaos.plain.get.schema, push.todo);
}

async function quiet(check: () => boolean, busyWith: () => string): Promise<void> {
  let calm = 0;
  for (let rounds = 0; calm < 3; rounds++) {
    if (rounds > 4_000) throw new Error(`the system did not settle: ${busyWith()}`);
    await delay(2);
    calm = check() ? calm + 1 : 0;
  }
}

describe('concurrency under faults (model-based, seeded)', () => {
  it.each(SEEDS)(
    'seed %i: mutations resolve their own answers, failures leave no trace, observers converge to the server',
    { timeout: LONG ? 120_000 : 30_000 },
    async (seed) => {
      const rng = random(seed);
      const server = chaosServer(rng);
      fake.server.use(server.handler);
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const controller = new Controller({ retry: 1, retryDelay: 1 });
      const resources = [chaos.plain, chaos.optimistic] as const;
      const lists = [{}, { userId: 1 }, { userId: 2 }] as const;
      const live = new Map<string, QueryState<unknown>>();
      const subscriptions = [
        ...lists.map((args, i) =>
          controller.observe(chaos.plain.getList, args).subscribe((s) => live.set(`list ${i}`, s)),
        ),
        ...[1, 2, 3, 4, 5, 6, 7, 8].map((id) =>
          controller.observe(chaos.plain.get, { id }).subscribe((s) => live.set(`todo ${id}`, s)),
        ),
      ];
      // pushes: the server changes by itself (another client) and tells the controller at once, through
      // `set` or a `connect`ed source, sometimes several times within one millisecond
      const pushes$ = new Subject<Push>();
      controller.connect(pushes$, (push, c) => applyPush(push, c));
      const other = new Controller({ retry: 0 }); // another tab: its snapshots are restored mid-flight
      const serverPush = (): Push | undefined => {
        const roll = rng.int(3);
        if (roll === 0) {
          const todo: TodoJson = {
            id: server.state.nextId++,
            userId: rng.int(2) + 1,
            title: `pushed ${server.state.nextId}`,
            completed: false,
            createdAt: '2024-03-01T00:00:00Z',
          };
          server.todos.set(todo.id, todo);
          return { type: 'created', todo: { ...todo } };
        }
        const id = rng.pick([...server.todos.keys()]);
        if (id === undefined) return undefined;
        if (roll === 1) {
          const todo = { ...server.todos.get(id)!, title: `renamed ${rng.int(1e9)}` };
          server.todos.set(id, todo);
          return { type: 'updated', todo: { ...todo } };
        }
        server.todos.delete(id);
        server.deleted.add(id);
        return { type: 'deleted', id };
      };
      const resolved: { title: string; value: Todo }[] = [];
      const rejected: string[] = [];
      const running: Promise<unknown>[] = [];
      const ids = () => [...server.todos.keys(), ...server.deleted, 99];
      try {
        for (let op = 0; op < OPERATIONS; op++) {
          const resource = rng.pick(resources);
          const title = `op ${op}`;
          const kind = rng.int(12);
          let mutation: Promise<Todo> | undefined;
          if (kind === 0) running.push(controller.fetch(resource.getList, rng.pick(lists)).catch(() => undefined));
          else if (kind === 1)
            running.push(controller.fetch(resource.get, { id: rng.pick(ids()) }).catch(() => undefined));
          else if (kind === 2)
            mutation = controller.fetch(resource.getList.push, rng.pick(lists), { title, userId: rng.int(2) + 1 });
          else if (kind === 3) mutation = controller.fetch(resource.partialUpdate, { id: rng.pick(ids()) }, { title });
          else if (kind === 4)
            mutation = controller.fetch(
              resource.update,
              { id: rng.pick(ids()) },
              { title, userId: 1, completed: true },
            );
          else if (kind === 5)
            running.push(controller.fetch(resource.delete, { id: rng.pick(ids()) }).catch(() => undefined));
          else if (kind === 6) controller.invalidateAll(resource.getList);
          else if (kind === 7) controller.invalidate(resource.get, { id: rng.pick(ids()) });
          else if (kind === 8) {
            // a burst within one millisecond (synchronous): the last push is what the server holds
            for (let burst = rng.int(3) + 1; burst > 0; burst--) {
              const push = serverPush();
              if (push) applyPush(push, controller);
            }
          } else if (kind === 9) {
            const push = serverPush();
            if (push) pushes$.next(push);
          } else if (kind === 10) {
            running.push(other.fetch(chaos.plain.getList, rng.pick(lists)).catch(() => undefined));
          } else restoreSnapshot(controller, takeSnapshot(other, { invalid: true }));
          if (mutation)
            running.push(
              mutation.then(
                (value) => resolved.push({ title, value }),
                () => rejected.push(title),
              ),
            );
          if (rng.next() < 0.5) await delay(rng.int(4));
        }
        await Promise.all(running);
        const busy = () => server.state.pending === 0 && [...live.values()].every((s) => !s.fetching);
        const busyWith = () =>
          `${server.state.pending} requests at the server; fetching: ${
            [...live]
              .filter(([, s]) => s.fetching)
              .map(([key]) => key)
              .join(', ') || 'none'
          }`;
        await quiet(busy, busyWith);

        // each resolved mutation is what the server answered to it; each rejected one left no trace
        for (const { title, value } of resolved)
          expect(plainTodo(value), title).toEqual(plainJson(server.answered.get(title)));
        const stored = Object.values(controller.getState().entities.Todo ?? {}) as { title?: string }[];
        for (const title of rejected) {
          expect(server.answered.has(title), `${title} reached the server`).toBe(false);
          expect(
            stored.some((todo) => todo?.title === title),
            `${title} is in the store`,
          ).toBe(false);
        }
        expect(controller.getState().optimistic).toEqual([]);

        // faults off: after an invalidation every observer shows the server
        server.state.faulty = false;
        controller.invalidateAll(chaos.plain.getList);
        controller.invalidateAll(chaos.plain.get);
        await quiet(busy, busyWith);
        lists.forEach((args, i) => {
          const expected = [...server.todos.values()]
            .filter((t) => !('userId' in args) || t.userId === args.userId)
            .map(plainJson);
          expect((live.get(`list ${i}`)?.data as Todo[] | undefined)?.map(plainTodo), `list ${i}`).toEqual(expected);
        });
        for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) {
          expect(plainTodo(live.get(`todo ${id}`)?.data as Todo | undefined), `todo ${id}`).toEqual(
            plainJson(server.todos.get(id)),
          );
        }
        expect(controller.getState().optimistic).toEqual([]);
        expect(unhandled).toEqual([]);
      } finally {
        for (const subscription of subscriptions) subscription.unsubscribe();
        controller.dispose();
        other.dispose();
        process.off('unhandledRejection', onUnhandled);
      }
    },
  );
});
