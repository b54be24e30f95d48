/**
 * The Controller verbs of API.md given something that is not an endpoint (or, for `get`, `observe`, `set`, not a
 * schema): `undefined`, `{}`, a string, a plain function, an Entity class where an endpoint is expected. Each
 * fails at once, naming the verb and the argument, and nothing in the store changes.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { coreBuiltFor } from '../../fixtures/productionBuild.js';
import { Todo, TodoResource, useTodoServer } from '../../reliability/faultHarness.js';
import { useControllers } from '../../review10/fixtures.js';

const fake = useTodoServer();
const { make } = useControllers();

const notTargets: [string, unknown][] = [
  ['undefined', undefined],
  ['{}', {}],
  ['a string', 'TodoResource.get'],
  ['a plain function', () => Promise.resolve({ id: 1 })],
];

/** Each verb that takes an endpoint, called with `endpoint` as it would be with `TodoResource.get`. */
type Get = typeof TodoResource.get;
const endpointVerbs: [string, (c: Controller, endpoint: Get) => unknown][] = [
  ['fetch', (c, e) => c.fetch(e, { id: 1 })],
  ['fetchIfStale', (c, e) => c.fetchIfStale(e, { id: 1 })],
  ['getResponse', (c, e) => c.getResponse(e, { id: 1 })],
  ['setResponse', (c, e) => c.setResponse(e, { id: 1 }, { id: 1, title: 'pushed' })],
  ['setError', (c, e) => c.setError(e, { id: 1 }, new Error('down'))],
  ['invalidate', (c, e) => c.invalidate(e, { id: 1 })],
  ['invalidateAll', (c, e) => c.invalidateAll(e)],
  ['expireAll', (c, e) => c.expireAll(e)],
];

/** What a call did: what it threw or what its promise rejected with. */
async function failure(run: () => unknown): Promise<unknown> {
  try {
    const result = run();
    if (result instanceof Promise) await result;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('verbs that take an endpoint, given something else', () => {
  const cases = endpointVerbs.flatMap(([verb, call]) =>
    [...notTargets, ['an Entity class', Todo] as [string, unknown]].map(
      ([kind, value]) => [verb, kind, call, value] as const,
    ),
  );
  it.each(cases)(
    '%s with %s: a TypeError naming the verb and the endpoint; the store is unchanged',
    async (verb, _, call, value) => {
      const c = make();
      await c.fetch(TodoResource.get, { id: 1 });
      const before = c.getState();
      const requests = fake.requests.length;
      const thrown = await failure(() => call(c, value as Get));
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toContain(`controller.${verb}(`);
      expect((thrown as Error).message).toMatch(/\bendpoint\b/);
      expect(c.getState()).toBe(before);
      expect(fake.requests.length).toBe(requests);
      // the store still answers, and the stored todo is not stale or invalid
      expect(c.getResponse(TodoResource.get, { id: 1 })).toMatchObject({ stale: false, invalid: false });
    },
  );

  it('fetch and fetchIfStale reject (they do not throw synchronously)', () => {
    const c = make();
    const fetched = c.fetch(undefined as unknown as Get, { id: 1 });
    const fetchedIfStale = c.fetchIfStale({} as Get, { id: 1 });
    expect(fetched).toBeInstanceOf(Promise);
    expect(fetchedIfStale).toBeInstanceOf(Promise);
    return Promise.all([
      expect(fetched).rejects.toBeInstanceOf(TypeError),
      expect(fetchedIfStale).rejects.toBeInstanceOf(TypeError),
    ]);
  });
});

describe('get and observe, given neither a schema nor an endpoint', () => {
  it.each(notTargets)('%s: a TypeError naming the verb and the argument; the store is unchanged', async (_, value) => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    const before = c.getState();
    for (const [verb, call] of [
      ['get', () => c.get(value as never, { id: 1 })],
      ['observe', () => c.observe(value as never, { id: 1 }).subscribe(() => {})],
    ] as const) {
      const thrown = await failure(call);
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toContain(`controller.${verb}(`);
      expect((thrown as Error).message).toMatch(/\b(queryable|endpoint)\b/);
    }
    expect(c.getState()).toBe(before);
  });

  it('an Entity class and an endpoint still work', async () => {
    const c = make();
    await c.fetch(TodoResource.get, { id: 1 });
    expect(c.get(Todo, { id: 1 })?.title).toBe('todo 1');
    const seen: unknown[] = [];
    c.observe(Todo, { id: 1 }).subscribe((s) => seen.push(s.data));
    c.observe(TodoResource.get, { id: 1 }).subscribe((s) => seen.push(s.data));
    expect(seen).toHaveLength(2);
  });
});

describe('set, given something that is not a schema', () => {
  it.each(notTargets)(
    '%s: its named error (SchemaDefinitionError) naming set; nothing is written',
    async (_, value) => {
      const c = make();
      await c.fetch(TodoResource.get, { id: 1 });
      const before = c.getState();
      const thrown = await failure(() => c.set(value as typeof Todo, { id: 1 }, { id: 1, title: 'x' }));
      expect((thrown as Error).name).toBe('SchemaDefinitionError');
      expect((thrown as Error).message).toContain('controller.set(');
      expect(c.getState()).toBe(before);
    },
  );
});

describe('production builds', () => {
  it('leave the check and its prose out; a missing endpoint still fails where it is used, and the store is unchanged', async () => {
    const { code, core } = await coreBuiltFor('production');
    expect(code).not.toContain('Nothing in the store changed');
    expect(code).not.toContain('without a key() method');
    expect((await coreBuiltFor('development')).code).toContain('Nothing in the store changed');
    class Item extends core.Entity {
      id = 0;
      pk() {
        return String(this.id);
      }
      static override key = 'Item';
    }
    const ItemResource = core.createResource({
      urlPrefix: 'https://api.example.com',
      path: '/items/:id',
      schema: Item,
    });
    const c = new core.Controller();
    c.setResponse(ItemResource.get, { id: 1 }, { id: 1 });
    const before = c.getState();
    const notAn = (value: unknown) => value as typeof ItemResource.get;
    await expect(c.fetch(notAn(undefined), { id: 1 })).rejects.toBeInstanceOf(TypeError);
    await expect(c.fetchIfStale(notAn({}), { id: 1 })).rejects.toBeInstanceOf(TypeError);
    expect(() => c.invalidate(notAn({}), { id: 1 })).toThrow(TypeError);
    expect(() => c.getResponse(notAn('x'), { id: 1 })).toThrow(TypeError);
    expect(() =>
      c.setResponse(
        notAn(() => 1),
        { id: 1 },
        { id: 1 },
      ),
    ).toThrow(TypeError);
    expect(() => c.setError(notAn(Item), { id: 1 }, new Error('down'))).toThrow(TypeError);
    // (review13: these threw nothing in production, silently marking nothing; now a TypeError naming the argument)
    expect(() => c.expireAll(undefined as never)).toThrow(new TypeError('expireAll(endpoint)'));
    expect(() => c.invalidateAll({} as never)).toThrow(new TypeError('invalidateAll(endpoint)'));
    expect(c.getState()).toBe(before);
    c.dispose();
  });
});
