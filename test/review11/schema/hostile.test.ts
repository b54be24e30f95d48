/**
 * Outside review of hostile inputs through the schemas (API.md: prototype-like keys and pks are plain data;
 * COMMON: bad inputs get a clear named error and nothing in the store is lost): prototype-like union types,
 * collection arguments, Values keys, index values; huge lists through push, getPage and set; non-JSON values.
 */
import { describe, expect, it } from 'vitest';
import { Entity, NormalizeError, RestEndpoint, SnapshotError, createResource, schema } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';

const API = 'http://r11h.test';
const { make } = useControllers({ retry: 0, environment: {} });

class Item extends Entity {
  id = '';
  kind = 'item';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'R11Item';
  static override indexes = ['name'] as const;
}
class Other extends Entity {
  id = '';
  kind = 'other';
  pk() {
    return this.id;
  }
  static override key = 'R11Other';
}

const Items = createResource({
  urlPrefix: API,
  path: '/items/:id',
  schema: Item,
  searchParams: {} as Record<string, string> | undefined,
  paginationField: 'page',
});

const protoKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

describe('prototype-like names', () => {
  it.each(protoKeys)(
    'a union type %s that names no member is a NormalizeError; the store keeps what it had',
    (type) => {
      const union = new schema.Union({ item: Item, other: Other }, 'kind');
      const list = new RestEndpoint({ urlPrefix: API, path: '/mixed', schema: [union] });
      const c = make();
      c.setResponse(list, {}, [{ id: 'a', kind: 'item' }]);
      const before = c.getState();
      const bad = JSON.parse(`[{"id":"b","kind":"item"},{"id":"x","kind":${JSON.stringify(type)}}]`);
      expect(() => c.setResponse(list, {}, bad)).toThrow(NormalizeError);
      expect(c.getState().entities).toBe(before.entities);
      expect(c.getResponse(list, {}).data).toHaveLength(1);
    },
  );

  it.each(protoKeys)('a function attribute returning %s is a NormalizeError too', (type) => {
    const union = new schema.Union({ item: Item, other: Other }, () => type);
    const list = new RestEndpoint({ urlPrefix: API, path: '/mixed2', schema: [union] });
    const c = make();
    expect(() => c.setResponse(list, {}, [{ id: 'x' }] as never)).toThrow(NormalizeError);
    expect(c.getState().entities.R11Item).toBeUndefined();
  });

  it.each(protoKeys)('pk %s is a record like any other, read and invalidated as one', (pk) => {
    const c = make();
    c.setResponse(Items.getList, {}, [
      { id: pk, name: `n-${pk}` },
      { id: 'b', name: 'b' },
    ]);
    expect(c.get(Item, { id: pk })?.name).toBe(`n-${pk}`);
    expect(c.getResponse(Items.getList, {}).data?.map((i) => i.id)).toEqual([pk, 'b']);
    c.setResponse(Items.delete, { id: pk }, { id: pk });
    expect(c.getResponse(Items.getList, {}).data?.map((i) => i.id)).toEqual(['b']);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('name');
  });

  it.each(protoKeys)('a collection argument %s keys its own list; push matches it as data', (arg) => {
    const c = make();
    c.setResponse(Items.getList, { [arg]: 'x' }, [{ id: 'a' }]);
    c.setResponse(Items.getList, { [arg]: 'y' }, [{ id: 'b' }]);
    c.setResponse(Items.getList, {}, [{ id: 'a' }, { id: 'b' }]);
    expect(c.getResponse(Items.getList, { [arg]: 'x' }).data?.map((i) => i.id)).toEqual(['a']);
    expect(c.getResponse(Items.getList, { [arg]: 'y' }).data?.map((i) => i.id)).toEqual(['b']);
    c.setResponse(Items.getList.push, { [arg]: 'x' }, { id: 'c' }, { id: 'c' });
    expect(c.getResponse(Items.getList, { [arg]: 'x' }).data?.map((i) => i.id)).toEqual(['a', 'c']);
    expect(c.getResponse(Items.getList, { [arg]: 'y' }).data?.map((i) => i.id)).toEqual(['b']);
    expect(c.getResponse(Items.getList, {}).data?.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('a body key __proto__ in push is data, not a prototype', () => {
    const c = make();
    c.setResponse(Items.getList, { name: 'x' }, [{ id: 'a', name: 'x' }]);
    const body = JSON.parse('{"__proto__": {"name": "x"}, "id": "c"}');
    c.setResponse(Items.getList.push, {}, body, { id: 'c', name: 'other' });
    expect(c.getResponse(Items.getList, { name: 'x' }).data?.map((i) => i.id)).toEqual(['a']);
  });

  it.each(protoKeys)('Values keyed %s are own entries', (key) => {
    const values = new RestEndpoint({ urlPrefix: API, path: '/values', schema: new schema.Values(Item) });
    const c = make();
    c.setResponse(values, {}, JSON.parse(`{${JSON.stringify(key)}: {"id": "v1"}, "plain": {"id": "v2"}}`));
    const data = c.getResponse(values, {}).data!;
    expect(Object.keys(data).sort()).toEqual([key, 'plain'].sort());
    expect(Object.getOwnPropertyDescriptor(data, key)?.value).toBeInstanceOf(Item);
  });

  it.each([
    ['one entity', new schema.Values(Item)],
    ['a union', new schema.Values({ item: Item, other: Other }, 'kind')],
  ])('a Collection of Values (%s) keyed __proto__ keeps that entry when another is removed', (_name, values) => {
    const byId = new schema.Collection(values);
    const map = new RestEndpoint({ urlPrefix: API, path: '/proto-map', schema: byId });
    const remove = new RestEndpoint({ urlPrefix: API, path: '/proto-map', method: 'POST', schema: byId.remove });
    const c = make();
    c.setResponse(
      map,
      {},
      JSON.parse(
        '{"__proto__": {"id": "p", "kind": "item"}, "b": {"id": "b", "kind": "item"}, "c": {"id": "c", "kind": "item"}}',
      ),
    );
    c.setResponse(remove, {}, { b: { id: 'b', kind: 'item' } });
    const data = c.getResponse(map, {}).data!;
    expect(Object.keys(data).sort()).toEqual(['__proto__', 'c']);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBeInstanceOf(Item);
    const stored = Object.values(c.getState().entities[byId.key]!)[0]!;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(c.getState())).entities[byId.key]['{}']).toHaveProperty(['__proto__']);
  });

  it.each(protoKeys)('an index lookup by %s finds only a record holding it', (name) => {
    const c = make();
    c.setResponse(Items.getList, {}, [{ id: 'a', name: 'ann' }]);
    expect(c.get(Item, { name })).toBeUndefined();
    c.set(Item, { id: 'b', name });
    expect(c.get(Item, { name })?.id).toBe('b');
  });

  it('a record with constructor and __proto__ fields keeps its class and reads the fields as data', () => {
    const c = make();
    c.setResponse(Items.get, { id: 'p' }, JSON.parse('{"id":"p","constructor":"evil","__proto__":{"polluted":1}}'));
    const item = c.getResponse(Items.get, { id: 'p' }).data!;
    expect(item).toBeInstanceOf(Item);
    expect(Object.getPrototypeOf(item)).toBe(Item.prototype);
    expect(Object.getOwnPropertyDescriptor(item, 'constructor')?.value).toBe('evil');
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });
});

describe('fields named like members of Entity', () => {
  it('a field pk, schema, key, toJSON or then is data; pk() stays the method', async () => {
    const c = make();
    c.setResponse(
      Items.getList,
      {},
      JSON.parse('[{"id":"a","pk":"evil","schema":"s","key":"k","toJSON":"t","then":"x"}]'),
    );
    const [item] = c.getResponse(Items.getList, {}).data!;
    expect(item!.pk()).toBe('a');
    expect(Object.getOwnPropertyDescriptor(item, 'schema')?.value).toBe('s');
    expect(JSON.parse(JSON.stringify(item))).toMatchObject({ id: 'a', key: 'k', toJSON: 't' });
    // a `then` that is not a function does not make the instance a thenable
    await expect(Promise.resolve(item)).resolves.toBe(item);
    c.set(Item, JSON.parse('{"id":"b","pk":5}'));
    expect(c.get(Item, { id: 'b' })!.pk()).toBe('b');
    expect(Item.fromJS(JSON.parse('{"id":"c","pk":5}')).pk()).toBe('c');
  });
});

describe('huge inputs', () => {
  const N = 200_000;
  const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `i${from + i}` }));

  it('a list of 200,000 items, then a page of 200,000 appended, then a push', () => {
    const c = make();
    c.setResponse(Items.getList, {}, many(0, N));
    c.setResponse(Items.getList.getPage, { page: '2' }, many(N, N));
    c.setResponse(Items.getList.push, {}, { id: 'last' }, { id: 'last' });
    const list = c.getResponse(Items.getList, {}).data!;
    expect(list).toHaveLength(2 * N + 1);
    expect(list[2 * N]!.id).toBe('last');
  }, 60_000);

  it('set([Entity]) of 200,000 rows', () => {
    const c = make();
    c.set([Item], many(0, N));
    expect(Object.keys(c.getState().entities.R11Item!)).toHaveLength(N);
  }, 60_000);

  it('a Collection of 200,000 Values, then assign', () => {
    const byId = new schema.Collection(new schema.Values(Item));
    const map = new RestEndpoint({ urlPrefix: API, path: '/map', schema: byId });
    const assign = new RestEndpoint({ urlPrefix: API, path: '/map', method: 'POST', schema: byId.assign });
    const c = make();
    c.setResponse(map, {}, Object.fromEntries(many(0, N).map((r) => [r.id, r])));
    c.setResponse(assign, {}, { last: { id: 'last' } });
    expect(Object.keys(c.getResponse(map, {}).data!)).toHaveLength(N + 1);
  }, 60_000);
});

describe('non-JSON values', () => {
  it('a bigint in a record is a named error naming the entity and field, and nothing is written', () => {
    const c = make();
    c.setResponse(Items.get, { id: 'a' }, { id: 'a', name: 'ok' });
    const before = c.getState();
    let error: unknown;
    try {
      c.setResponse(Items.get, { id: 'a' }, { id: 'a', name: 10n } as never);
    } catch (e) {
      error = e;
    }
    if (error === undefined) {
      // kept as the store's own value (docs: an app may keep one): writing the state as JSON names where it is
      expect(() => JSON.stringify(c.getState())).toThrow(SnapshotError);
      expect(() => JSON.stringify(c.getState())).toThrow(/R11Item\.a\.name/);
    } else {
      expect((error as Error).name).toMatch(/NormalizeError|TypeError/);
      expect((error as Error).message).toMatch(/R11Item/);
      expect(c.getState()).toBe(before);
    }
  });

  it('a pk that is an object, a boolean, NaN or a symbol is a NormalizeError naming the entity', () => {
    const c = make();
    c.setResponse(Items.getList, {}, [{ id: 'a' }]);
    const before = c.getState();
    for (const id of [{}, [], true, NaN, Symbol('s'), () => 'x']) {
      expect(() => c.setResponse(Items.getList, {}, [{ id }] as never)).toThrow(NormalizeError);
    }
    expect(c.getState().entities).toBe(before.entities);
  });
});
