/**
 * Huge, deep and cyclic responses through the Controller and msw: 100,000 entities in one response
 * are stored and read back correctly; input nested too deeply for the recursion either works or fails
 * with a named error, leaving the store as it was; cycles (which only a `process` hook can make, JSON
 * has none) are rejected with a NormalizeError and never stored.
 *
 * (The cases that end in an unexplained RangeError today are in pending.test.ts.)
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Controller,
  Entity,
  NormalizeError,
  RestEndpoint,
  createResource,
  schema,
  type AnyRestEndpoint,
} from '../../core/index.js';

const API = 'http://load.test';

class Item extends Entity {
  id = 0;
  name = '';
  group = '';
  score = 0;
  tags: string[] = [];
  owner = Owner.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'LoadItem';
}

class Owner extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'LoadOwner';
}
Item.schema = { owner: Owner };

const ItemResource = createResource({
  urlPrefix: API,
  path: '/items/:id',
  schema: Item,
  searchParams: {} as { size?: number } | undefined,
});

const OWNERS = 100;
function itemJson(id: number) {
  return {
    id,
    name: `item ${id}`,
    group: `g${id % 7}`,
    score: id * 0.5,
    tags: [`t${id % 3}`],
    owner: { id: `o${id % OWNERS}`, name: `owner ${id % OWNERS}` },
  };
}

/** What the server answers: a JSON value, or a raw JSON text (JSON.stringify itself overflows past ~4,000 levels). */
let body: unknown = null;
const server = setupServer(
  http.all(`${API}/*`, () =>
    typeof body === 'string'
      ? new HttpResponse(body, { headers: { 'Content-Type': 'application/json' } })
      : HttpResponse.json(body as never),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  body = null;
});
afterAll(() => server.close());

describe('a huge response', () => {
  it('100,000 entities (sharing 100 owners) are stored and read back correctly', { timeout: 30_000 }, async () => {
    const N = 100_000;
    body = Array.from({ length: N }, (_, i) => itemJson(i + 1));
    const controller = new Controller();
    const items = await controller.fetch(ItemResource.getList, { size: N });

    expect(items).toHaveLength(N);
    const state = controller.getState();
    expect(Object.keys(state.entities.LoadItem!)).toHaveLength(N);
    expect(Object.keys(state.entities.LoadOwner!)).toHaveLength(OWNERS);
    for (let i = 0; i < N; i += 997) {
      const item = items[i]!;
      const json = itemJson(i + 1);
      expect(item).toBeInstanceOf(Item);
      expect({ id: item.id, name: item.name, group: item.group, score: item.score, tags: item.tags }).toEqual({
        ...json,
        owner: undefined,
        tags: json.tags,
      });
      expect(item.owner).toBeInstanceOf(Owner);
      expect(item.owner.name).toBe(json.owner.name);
    }
    // shared entities are one instance wherever they appear
    expect(items[0]!.owner).toBe(items[OWNERS]!.owner);
    expect(items.every((item, i) => item.id === i + 1)).toBe(true);

    // the same list read again is the same array; a single item from the store without a request
    expect(controller.getResponse(ItemResource.getList, { size: N }).data).toBe(items);
    expect(controller.getResponse(ItemResource.get, { id: 54_321 }).data).toBe(items[54_320]);

    // one entity changed: the list is a new array, every other item the same object
    body = { ...itemJson(500), name: 'changed' };
    await controller.fetch(ItemResource.get, { id: 500 });
    const after = controller.getResponse(ItemResource.getList, { size: N }).data!;
    expect(after).not.toBe(items);
    expect(after[499]!.name).toBe('changed');
    let same = 0;
    for (let i = 0; i < N; i++) if (after[i] === items[i]) same++;
    expect(same).toBe(N - 1);

    // the state survives a JSON round trip and restores
    const restored = new Controller({ initialState: JSON.parse(JSON.stringify(controller.getState())) });
    const again = restored.getResponse(ItemResource.getList, { size: N }).data!;
    expect(again).toHaveLength(N);
    expect(again[N - 1]!.owner.name).toBe(itemJson(N).owner.name);
  });

  it('a huge response with one bad item is rejected whole, and the store keeps what it had', async () => {
    const N = 50_000;
    const controller = new Controller();
    body = [itemJson(1)];
    await controller.fetch(ItemResource.getList, { size: 1 });
    const before = controller.getState();
    body = Array.from({ length: N }, (_, i) => (i === N - 1 ? { name: 'no id' } : itemJson(i + 1)));
    await expect(controller.fetch(ItemResource.getList, { size: N })).rejects.toBeInstanceOf(NormalizeError);
    expect(controller.getState().entities).toBe(before.entities);
    expect(controller.getState().endpoints).toBe(before.endpoints);
  });
});

// ---- deep nesting ---------------------------------------------------------------------------------

class Node extends Entity {
  id = 0;
  child: Node | undefined = undefined;
  pk() {
    return `${this.id}`;
  }
  static override key = 'LoadNode';
}
Node.schema = { child: Node };

const NodeResource = createResource({ urlPrefix: API, path: '/nodes/:id', schema: Node });

/** `{ id: 0, child: { id: 1, child: ... } }`, `depth` levels. */
function chain(depth: number) {
  let value: Record<string, unknown> = { id: depth - 1 };
  for (let i = depth - 2; i >= 0; i--) value = { id: i, child: value };
  return value;
}

/** The outcome a deep input may have: success, or a named error that is not a bare stack overflow. */
async function expectWorksOrNamedError(run: () => Promise<unknown>): Promise<'works' | Error> {
  try {
    await run();
    return 'works';
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RangeError);
    expect((error as Error).name).not.toBe('Error');
    return error as Error;
  }
}

describe('deep nesting', () => {
  it('a self-referencing entity 500 levels deep is stored and read back (past 64 levels as pks)', async () => {
    body = chain(500);
    const controller = new Controller();
    let node = await controller.fetch(NodeResource.get, { id: 0 });
    for (let i = 0; i < 64; i++) {
      expect(node.id).toBe(i);
      node = node.child!;
    }
    expect(node.id).toBe(64);
    expect(node.child).toBe('65');
    expect(Object.keys(controller.getState().entities.LoadNode!)).toHaveLength(500);
  });

  it('with maxEntityDepth raised, a 500-level chain reads whole', async () => {
    body = chain(500);
    class DeepNode extends Node {
      static override maxEntityDepth = 1_000;
    }
    DeepNode.schema = { child: DeepNode };
    const controller = new Controller();
    let node = await controller.fetch(createResource({ urlPrefix: API, path: '/nodes/:id', schema: DeepNode }).get, {
      id: 0,
    });
    for (let i = 0; i < 499; i++) {
      expect(node.id).toBe(i);
      node = node.child!;
    }
    expect(node.id).toBe(499);
    expect(node.child).toBeUndefined();
  });

  it('plain members of an object schema 10,000 levels deep work', async () => {
    const envelope = new RestEndpoint({ urlPrefix: API, path: '/deep', schema: { results: [Item], total: 0 } });
    body = `{"results":[${JSON.stringify(itemJson(1))}],"total":1,"meta":${deepJson(10_000, '{"n":', '}', '{"leaf":true}')}}`;
    const controller = new Controller();
    expect(await expectWorksOrNamedError(() => controller.fetch(envelope))).toBe('works');
    const data = controller.getResponse(envelope).data!;
    expect(data.results[0]!.name).toBe('item 1');
    let meta = (data as unknown as { meta: Record<string, unknown> }).meta;
    for (let i = 0; i < 10_000; i++) meta = meta.n as Record<string, unknown>;
    expect(meta).toEqual({ leaf: true });
  });

  it('a list of lists 10,000 levels deep in an object schema works', async () => {
    const envelope = new RestEndpoint({ urlPrefix: API, path: '/deep-list', schema: { results: [Item] } });
    body = `{"results":[],"deep":${deepJson(10_000, '[', ']', '[]')}}`;
    const controller = new Controller();
    expect(await expectWorksOrNamedError(() => controller.fetch(envelope))).toBe('works');
  });
});

/** A JSON text nested `depth` levels: `open.repeat(depth) + leaf + close.repeat(depth)`. */
function deepJson(depth: number, open: string, close: string, leaf: string): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

// ---- cycles -----------------------------------------------------------------------------------------

describe('cycles in a response (made by a process hook)', () => {
  class Person extends Entity {
    id = '';
    name = '';
    friend: Person | undefined = undefined;
    pk() {
      return this.id;
    }
    static override key = 'LoadPerson';
  }
  Person.schema = { friend: Person };

  async function rejectsAndKeepsStore(endpoint: AnyRestEndpoint, pattern: RegExp) {
    const controller = new Controller();
    body = [{ id: 'x', name: 'X' }];
    await controller.fetch(new RestEndpoint({ urlPrefix: API, path: '/seed', schema: [Person] }));
    const before = controller.getState();
    body = {};
    const error = await controller.fetch(endpoint).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NormalizeError);
    expect((error as Error).message).toMatch(pattern);
    expect(controller.getState().entities).toBe(before.entities);
    expect(controller.getState().endpoints).toBe(before.endpoints);
    // the tables hold nothing of it (the error kept in meta is pending.test.ts's concern)
    expect(() =>
      JSON.stringify({ entities: controller.getState().entities, endpoints: controller.getState().endpoints }),
    ).not.toThrow();
    return error as NormalizeError;
  }

  it('between entities (a -> b -> a) is a NormalizeError; nothing is stored', async () => {
    const endpoint = new RestEndpoint({
      urlPrefix: API,
      path: '/people/cycle',
      schema: Person,
      process() {
        const a: Record<string, unknown> = { id: 'a', name: 'A' };
        a.friend = { id: 'b', name: 'B', friend: a };
        return a;
      },
    });
    expect((await rejectsAndKeepsStore(endpoint, /cycle/)).schemaKey).toBe('LoadPerson');
  });

  it('in a plain field of an entity is a NormalizeError', async () => {
    const endpoint = new RestEndpoint({
      urlPrefix: API,
      path: '/people/self',
      schema: Person,
      process() {
        const meta: Record<string, unknown> = {};
        meta.self = meta;
        return { id: 'p', meta };
      },
    });
    await rejectsAndKeepsStore(endpoint, /cycle/);
  });

  it('in a plain member of an object schema is a NormalizeError (the store must survive JSON.stringify)', async () => {
    const endpoint = new RestEndpoint({
      urlPrefix: API,
      path: '/people/envelope',
      schema: { results: [Person], total: 0 },
      process() {
        const meta: Record<string, unknown> = { page: 1 };
        meta.self = { inner: meta };
        return { results: [{ id: 'q' }], total: 1, meta };
      },
    });
    const error = await rejectsAndKeepsStore(endpoint, /"meta" contains a cycle/);
    expect(error.schemaKey).toBe('{results, total}');
  });

  it('the envelope object itself in one of its members is a NormalizeError', async () => {
    const endpoint = new RestEndpoint({
      urlPrefix: API,
      path: '/people/envelope-self',
      schema: new schema.Object({ results: [Person] }),
      process() {
        const envelope: Record<string, unknown> = { results: [] };
        envelope.self = envelope;
        return envelope;
      },
    });
    await rejectsAndKeepsStore(endpoint, /"self" contains a cycle/);
  });

  it('the same object twice (shared, not a cycle) is accepted', async () => {
    const endpoint = new RestEndpoint({
      urlPrefix: API,
      path: '/people/shared',
      schema: { results: [Person], a: 0, b: 0 },
      process() {
        const shared = { deep: { x: 1 } };
        const friend = { id: 'f', name: 'F' };
        return { results: [{ id: 'p', friend }, { id: 'q', friend }, friend], a: shared, b: shared };
      },
    });
    const controller = new Controller();
    const data = await controller.fetch(endpoint);
    expect(data.results.map((p) => p.id)).toEqual(['p', 'q', 'f']);
    expect(data.results[0]!.friend).toBe(data.results[2]);
    expect(JSON.parse(JSON.stringify(controller.getState().endpoints))).toBeDefined();
  });
});
