/**
 * Entities whose primary key is a property an instance cannot hold as a field: `constructor`, `__proto__` and
 * `pk` (Django REST Framework's). Each is a resource addressed by that key: generated, type-checked with
 * `tsc --strict`, and read, updated and deleted against the mock server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { report } from '../src/cli.js';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('a pk named constructor, __proto__ or pk', () => {
  let generated: Generated;
  let api: Record<string, any>;
  /** The mock server's table of `resource`, holding `records` (each a JSON text: `__proto__` stays a key). */
  const seed = (resource: string, records: string[], pk: string) => {
    const table = new Map<string, Record<string, unknown>>();
    for (const text of records) {
      const record = JSON.parse(text) as Record<string, unknown>;
      table.set(String(Object.getOwnPropertyDescriptor(record, pk)!.value), record);
    }
    generated.server.records.set(resource, table);
    return table;
  };
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('key-names.yaml'));
    api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('type-checks with tsc --strict', () => {
    expect(typeCheck(generated.dir, generated.result.files.keys())).toEqual([]);
  }, 60_000);

  it('each is a resource keyed by that property', () => {
    const pks = Object.fromEntries(generated.model.entities.map((e) => [e.name, e.pk]));
    expect(pks).toEqual({ Ctor: 'constructor', Proto: '__proto__', Thing: 'pk' });
    expect(generated.model.resources.map((r) => r.entity).sort()).toEqual(['Ctor', 'Proto', 'Thing']);
  });

  it('constructor: listed, read, updated and deleted by its value; the instance keeps its class', async () => {
    const table = seed(
      'CtorResource',
      ['{ "constructor": "c1", "label": "one" }', '{ "constructor": "c2" }'],
      'constructor',
    );
    const controller = new Controller();
    const list = (await controller.fetch(api.CtorResource.getList)) as Record<string, unknown>[];
    expect(list.map((c) => c.constructorValue)).toEqual(['c1', 'c2']);
    expect(list.every((c) => c instanceof api.Ctor && c.constructor === api.Ctor)).toBe(true);
    expect(Object.keys(controller.getState().entities.Ctor!).sort()).toEqual(['c1', 'c2']);
    const one = (await controller.fetch(api.CtorResource.get, { constructor: 'c1' })) as Record<string, any>;
    expect(generated.server.requests.at(-1)).toBe('GET /api/ctors/c1');
    expect(one).toBe(list[0]);
    expect(one.pk()).toBe('c1');
    const updated = (await controller.fetch(
      api.CtorResource.update,
      { constructor: 'c1' },
      { constructor: 'c1', label: 'uno' },
    )) as Record<string, unknown>;
    expect(generated.server.requests.at(-1)).toBe('PUT /api/ctors/c1');
    expect(updated).toMatchObject({ constructorValue: 'c1', label: 'uno' });
    expect(controller.get(api.Ctor, 'c1')).toMatchObject({ label: 'uno' });
    await controller.fetch(api.CtorResource.delete, { constructor: 'c2' });
    expect(table.has('c2')).toBe(false);
    expect(controller.get(api.Ctor, 'c2')).toBeUndefined();
    expect(controller.get(api.Ctor, 'c1')).toBe(updated);
  }, 60_000);

  it('__proto__: listed, read and deleted by its value; the instance keeps its prototype', async () => {
    const table = seed(
      'ProtoResource',
      ['{ "__proto__": "p1", "label": "one" }', '{ "__proto__": "p2" }'],
      '__proto__',
    );
    const controller = new Controller();
    const list = (await controller.fetch(api.ProtoResource.getList)) as Record<string, unknown>[];
    expect(list.map((p) => p.protoValue)).toEqual(['p1', 'p2']);
    expect(list.every((p) => Object.getPrototypeOf(p) === api.Proto.prototype)).toBe(true);
    expect(Object.keys(controller.getState().entities.Proto!).sort()).toEqual(['p1', 'p2']);
    const key = generated.model.resources.find((r) => r.entity === 'Proto')!;
    // the path argument is a name an object literal can hold
    const argument = /:(\w+)$/.exec(key.path)![1]!;
    expect(argument).not.toBe('__proto__');
    const one = (await controller.fetch(api.ProtoResource.get, { [argument]: 'p1' })) as Record<string, any>;
    expect(generated.server.requests.at(-1)).toBe('GET /api/protos/p1');
    expect(one).toBe(list[0]);
    expect(one.pk()).toBe('p1');
    await controller.fetch(api.ProtoResource.delete, { [argument]: 'p2' });
    expect(generated.server.requests.at(-1)).toBe('DELETE /api/protos/p2');
    expect(table.has('p2')).toBe(false);
    expect(controller.get(api.Proto, 'p2')).toBeUndefined();
    expect(controller.get(api.Proto, 'p1')).toBe(one);
  }, 60_000);

  it('pk: listed, read, patched and deleted by its value; pk() is still the method', async () => {
    const table = seed('ThingResource', ['{ "pk": 1, "label": "one" }', '{ "pk": 2 }'], 'pk');
    const controller = new Controller();
    const list = (await controller.fetch(api.ThingResource.getList)) as Record<string, any>[];
    expect(list.map((t) => t.pkValue)).toEqual([1, 2]);
    expect(list.map((t) => t.pk())).toEqual(['1', '2']);
    const one = (await controller.fetch(api.ThingResource.get, { pk: 1 })) as Record<string, any>;
    expect(generated.server.requests.at(-1)).toBe('GET /api/things/1');
    expect(one).toBe(list[0]);
    const patched = (await controller.fetch(api.ThingResource.partialUpdate, { pk: 1 }, { label: 'uno' })) as Record<
      string,
      any
    >;
    expect(generated.server.requests.at(-1)).toBe('PATCH /api/things/1');
    expect(patched).toMatchObject({ pkValue: 1, label: 'uno' });
    expect(typeof patched.pk).toBe('function');
    await controller.fetch(api.ThingResource.delete, { pk: 2 });
    expect(table.has('2')).toBe(false);
    expect(controller.get(api.Thing, '2')).toBeUndefined();
    expect(controller.get(api.Thing, '1')).toBe(patched);
  }, 60_000);

  it('a path parameter named __proto__ of an endpoint is the argument protoValue', async () => {
    const controller = new Controller();
    await controller.fetch(api.countLabel, { protoValue: 'a b' });
    expect(generated.server.requests.at(-1)).toBe('GET /api/labels/a%20b/count');
    expect(generated.server.pathParams.at(-1)).toEqual({ ['__proto__']: 'a b' });
    expect(report(generated.model, 0)).toMatch(
      /GET \/labels\/\{__proto__\}\/count \{__proto__\}\s+argument protoValue/,
    );
  }, 60_000);
});
