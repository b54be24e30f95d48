/**
 * Model-based test of the Controller against an msw in-memory REST server: fast-check generates
 * sequences of fetches, mutations (update, partialUpdate, create through getList.push, delete),
 * invalidations and failures (the server answers 500, or the request fails before any response), runs
 * them one after the other, and after each one (once every request has settled) compares
 *
 * - the server's records with a simple model of them (a Map), and
 * - what the client shows (getResponse of getList and get, and the last emission of live observers)
 *   with the model: every list the client holds equals the server's list; every entity the client
 *   knows reads as the server's record; deleted and never-seen entities read as undefined.
 *
 * Each command also checks that it succeeded exactly when the model says it should (404 for an id
 * the server does not have, a rejection for every injected failure).
 */
import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller, createResource, type QueryState } from '../../core/index.js';
// exactly the server's fields (no createdAt default), so a read compares equal to the model's record
import { PlainTodo as Todo } from '../fixtures/entities.js';

const API = 'http://model.test';

interface TodoJson {
  id: number;
  userId: number;
  title: string;
  completed: boolean;
}

const options = {
  urlPrefix: API,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
} as const;
const resources = { plain: createResource(options), optimistic: createResource({ ...options, optimistic: true }) };
type Resource = (typeof resources)['plain'];

// ---- the server --------------------------------------------------------------------------------------

type Fault = 'none' | 500 | 'network';

const INITIAL: TodoJson[] = [
  { id: 1, userId: 1, title: 'one', completed: false },
  { id: 2, userId: 2, title: 'two', completed: true },
  { id: 3, userId: 1, title: 'three', completed: false },
];

const db = new Map<number, TodoJson>();
let nextId = 1;
/** Requests of the running command that must fail: `METHOD url` -> how. */
const faults = new Map<string, Fault>();
let pending = 0;

function resetServer(): void {
  db.clear();
  for (const todo of INITIAL) db.set(todo.id, { ...todo });
  nextId = INITIAL.length + 1;
  faults.clear();
}

const server = setupServer(
  http.all(`${API}/todos*`, async ({ request }) => {
    pending++;
    try {
      const fault = faults.get(`${request.method} ${request.url}`);
      if (fault === 500) return HttpResponse.json({ message: 'injected' }, { status: 500 });
      if (fault === 'network') return HttpResponse.error();
      const url = new URL(request.url);
      const id = Number(url.pathname.split('/')[2]);
      const current = db.get(id);
      if (url.pathname === '/todos') {
        if (request.method === 'GET') {
          const userId = url.searchParams.get('userId');
          return HttpResponse.json(
            [...db.values()].filter((todo) => userId === null || String(todo.userId) === userId),
          );
        }
        const body = (await request.json()) as Partial<TodoJson>;
        const todo: TodoJson = {
          id: nextId++,
          userId: body.userId ?? 1,
          title: body.title ?? '',
          completed: body.completed ?? false,
        };
        db.set(todo.id, todo);
        return HttpResponse.json(todo, { status: 201 });
      }
      if (!current) return HttpResponse.json({ message: 'not found' }, { status: 404 });
      switch (request.method) {
        case 'GET':
          return HttpResponse.json(current);
        case 'DELETE':
          db.delete(id);
          return HttpResponse.json({});
        default: {
          const body = (await request.json()) as Partial<TodoJson>;
          const next: TodoJson =
            request.method === 'PUT'
              ? { id, userId: current.userId, title: body.title ?? '', completed: body.completed ?? false }
              : { ...current, ...body, id, userId: current.userId };
          db.set(id, next);
          return HttpResponse.json(next);
        }
      }
    } finally {
      pending--;
    }
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

// ---- model and system --------------------------------------------------------------------------------

/** The list arguments: `{}` and `{ userId: 1 }` are observed live, `{ userId: 2 }` is only fetched. */
const LIST_ARGS = [{}, { userId: 1 }, { userId: 2 }] as const;
const OBSERVED = [0, 1];

interface Model {
  readonly server: Map<number, TodoJson>;
  nextId: number;
  /** Ids the client has received from a successful request and not deleted. */
  readonly known: Set<number>;
  /** Per list: never loaded, loaded, or invalidated since (observed lists refetch at once). */
  readonly lists: ('none' | 'loaded' | 'invalid')[];
  /** Ids whose `get` result was invalidated and not fetched since. */
  readonly invalidGets: Set<number>;
}

interface Real {
  readonly controller: Controller;
  readonly resource: Resource;
  /** The last emission of the live observers of the OBSERVED lists. */
  readonly live: Map<number, QueryState<Todo[]>>;
  readonly unsubscribe: () => void;
}

const listed = (model: Model, args: (typeof LIST_ARGS)[number]) =>
  [...model.server.values()]
    .filter((todo) => !('userId' in args) || todo.userId === args.userId)
    .sort((a, b) => a.id - b.id);

const plain = (todo: Todo | undefined) =>
  todo && { id: todo.id, userId: todo.userId, title: todo.title, completed: todo.completed };

/** Waits until no request is in flight and every observer has stopped fetching, twice in a row. */
async function settle(real: Real): Promise<void> {
  let quiet = 0;
  for (let ticks = 0; quiet < 2; ticks++) {
    if (ticks > 2_000) throw new Error('the system did not settle');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const busy = pending > 0 || [...real.live.values()].some((state) => state.fetching);
    quiet = busy ? 0 : quiet + 1;
  }
}

/** Runs one request of the system with `fault` injected into it, and checks it resolved exactly when expected. */
async function request<T>(
  fault: Fault,
  keys: string[],
  succeeds: boolean,
  run: () => Promise<T>,
): Promise<T | undefined> {
  for (const key of keys) faults.set(key, fault);
  try {
    const value = await run();
    expect(succeeds, 'the request succeeded').toBe(true);
    return value;
  } catch (error) {
    if (succeeds) throw error;
    expect(error).toMatchObject({ name: 'NetworkError' });
    if (fault === 500) expect(error).toMatchObject({ status: 500 });
    if (fault === 'network') expect(error).toMatchObject({ status: 0 });
    return undefined;
  } finally {
    faults.clear();
  }
}

function check(model: Model, real: Real): void {
  expect([...db.values()].sort((a, b) => a.id - b.id)).toEqual([...model.server.values()].sort((a, b) => a.id - b.id));
  LIST_ARGS.forEach((args, i) => {
    const data = real.controller.getResponse(real.resource.getList, args).data;
    const observed = OBSERVED.includes(i);
    if (observed || model.lists[i] === 'loaded') {
      expect(data?.map(plain), `list ${JSON.stringify(args)}`).toEqual(listed(model, args));
    } else {
      expect(data, `list ${JSON.stringify(args)} (${model.lists[i]})`).toBeUndefined();
    }
    if (observed)
      expect(real.live.get(i)!.data?.map(plain), `live list ${JSON.stringify(args)}`).toEqual(listed(model, args));
  });
  for (let id = 1; id < model.nextId + 1; id++) {
    const data = real.controller.getResponse(real.resource.get, { id }).data;
    const record = model.server.get(id);
    if (record && model.known.has(id) && !model.invalidGets.has(id)) expect(plain(data), `todo ${id}`).toEqual(record);
    else
      expect(
        data,
        `todo ${id} (${record ? 'not known to the client, or invalidated' : 'not on the server'})`,
      ).toBeUndefined();
  }
}

// ---- commands -----------------------------------------------------------------------------------------

const fault = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Fault>('none') },
  fc.constant<Fault>(500),
  fc.constant<Fault>('network'),
);
/** An id: one the server has (or had), or one it never had. */
const pickId = fc.nat(20);
const idOf = (model: Model, pick: number) => {
  const ids = [
    ...model.server.keys(),
    ...[...model.known].filter((id) => !model.server.has(id)),
    model.nextId - 1,
    999,
  ];
  return ids[pick % ids.length]!;
};
const url = (path: string) => `${API}${path}`;

type Command = fc.AsyncCommand<Model, Real>;

/** A command from its description and its run. */
function command(label: string, run: (model: Model, real: Real) => Promise<void>): Command {
  return {
    check: () => true,
    async run(model, real) {
      await run(model, real);
      await settle(real);
      // observed lists refetch at once after an invalidation
      for (const i of OBSERVED) model.lists[i] = 'loaded';
      for (const todo of [...real.live.values()].flatMap((state) => state.data ?? [])) model.known.add(todo.id);
      check(model, real);
    },
    toString: () => label,
  };
}

const commands = [
  fc.record({ list: fc.nat(2), fault }).map(({ list, fault: f }) =>
    command(`fetchList(${JSON.stringify(LIST_ARGS[list])}, ${f})`, async (model, real) => {
      const args = LIST_ARGS[list]!;
      const query = 'userId' in args ? `?userId=${args.userId}` : '';
      const todos = await request(f, [`GET ${url(`/todos${query}`)}`], f === 'none', () =>
        real.controller.fetch(real.resource.getList, args),
      );
      if (todos) {
        expect(todos.map(plain)).toEqual(listed(model, args));
        for (const todo of todos) model.known.add(todo.id);
        model.lists[list] = 'loaded';
      }
    }),
  ),
  fc.record({ pick: pickId, fault }).map(({ pick, fault: f }) =>
    command(`fetchOne(#${pick}, ${f})`, async (model, real) => {
      const id = idOf(model, pick);
      const exists = model.server.has(id);
      const todo = await request(f, [`GET ${url(`/todos/${id}`)}`], f === 'none' && exists, () =>
        real.controller.fetch(real.resource.get, { id }),
      );
      if (todo) {
        expect(plain(todo)).toEqual(model.server.get(id));
        model.known.add(id);
        model.invalidGets.delete(id);
      }
    }),
  ),
  fc
    .record({ pick: pickId, title: fc.string({ maxLength: 6 }), completed: fc.boolean(), partial: fc.boolean(), fault })
    .map(({ pick, title, completed, partial, fault: f }) =>
      command(
        `${partial ? 'partialUpdate' : 'update'}(#${pick}, ${JSON.stringify(title)}, ${completed}, ${f})`,
        async (model, real) => {
          const id = idOf(model, pick);
          const exists = model.server.has(id);
          const body = partial ? { title } : { title, completed };
          const endpoint = partial ? real.resource.partialUpdate : real.resource.update;
          const todo = await request(
            f,
            [`${partial ? 'PATCH' : 'PUT'} ${url(`/todos/${id}`)}`],
            f === 'none' && exists,
            () => real.controller.fetch(endpoint, { id }, body),
          );
          if (todo) {
            const next = { ...model.server.get(id)!, ...body };
            model.server.set(id, next);
            expect(plain(todo)).toEqual(next);
            model.known.add(id);
          }
        },
      ),
    ),
  fc
    .record({ list: fc.nat(2), title: fc.string({ maxLength: 6 }), userId: fc.constantFrom(1, 2), fault })
    .map(({ list, title, userId, fault: f }) =>
      command(
        `create(${JSON.stringify(title)}, user ${userId}, ${list ? 'with' : 'without'} userId in the URL, ${f})`,
        async (model, real) => {
          const args = list ? { userId } : {};
          const todo = await request(
            f,
            [`POST ${url(list ? `/todos?userId=${userId}` : '/todos')}`],
            f === 'none',
            () => real.controller.fetch(real.resource.getList.push, args, { title, userId }),
          );
          if (todo) {
            const created = { id: model.nextId++, userId, title, completed: false };
            expect(plain(todo)).toEqual(created);
            model.server.set(created.id, created);
            model.known.add(created.id);
          }
        },
      ),
    ),
  fc.record({ pick: pickId, fault }).map(({ pick, fault: f }) =>
    command(`delete(#${pick}, ${f})`, async (model, real) => {
      const id = idOf(model, pick);
      const exists = model.server.has(id);
      const done = await request(f, [`DELETE ${url(`/todos/${id}`)}`], f === 'none' && exists, async () => {
        await real.controller.fetch(real.resource.delete, { id });
        return true;
      });
      if (done) {
        model.server.delete(id);
        model.known.delete(id);
      }
    }),
  ),
  fc.nat(2).map((list) =>
    command(`invalidate(getList ${JSON.stringify(LIST_ARGS[list])})`, async (model, real) => {
      real.controller.invalidate(real.resource.getList, LIST_ARGS[list]!);
      if (model.lists[list] !== 'none') model.lists[list] = 'invalid';
    }),
  ),
  fc.constant(
    command('invalidateAll(getList)', async (model, real) => {
      real.controller.invalidateAll(real.resource.getList);
      model.lists.forEach((state, i) => (model.lists[i] = state === 'none' ? 'none' : 'invalid'));
    }),
  ),
  pickId.map((pick) =>
    command(`invalidate(get #${pick})`, async (model, real) => {
      const id = idOf(model, pick);
      real.controller.invalidate(real.resource.get, { id });
      model.invalidGets.add(id);
    }),
  ),
];

describe('the store follows the server (model-based)', () => {
  it(
    'any sequence of fetches, mutations, invalidations and failures leaves getList and get equal to the server',
    { timeout: 60_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.boolean(), fc.commands(commands, { maxCommands: 25 }), async (optimistic, cmds) => {
          resetServer();
          // one request per command: a retried failure would be a different test (see faults*.test.ts)
          const controller = new Controller({ retry: false });
          const resource = optimistic ? resources.optimistic : resources.plain;
          const live = new Map<number, QueryState<Todo[]>>();
          const subscriptions = OBSERVED.map((i) =>
            controller.observe(resource.getList, LIST_ARGS[i]!).subscribe((state) => live.set(i, state)),
          );
          const real: Real = {
            controller,
            resource,
            live,
            unsubscribe: () => subscriptions.forEach((s) => s.unsubscribe()),
          };
          const model: Model = {
            server: new Map(INITIAL.map((todo) => [todo.id, { ...todo }])),
            nextId: INITIAL.length + 1,
            known: new Set(),
            lists: ['none', 'none', 'none'],
            invalidGets: new Set(),
          };
          try {
            await settle(real);
            for (const todo of [...live.values()].flatMap((state) => state.data ?? [])) model.known.add(todo.id);
            check(model, real);
            await fc.asyncModelRun(() => ({ model, real }), cmds);
            // finally, with no failures: every list refetched equals the server
            for (const args of LIST_ARGS) {
              expect((await controller.fetch(resource.getList, args)).map(plain)).toEqual(listed(model, args));
            }
          } finally {
            real.unsubscribe();
            await settle(real);
          }
        }),
        { numRuns: 120 },
      );
    },
  );
});
