/**
 * Names that clash in JavaScript or in rx-rest's arguments: an entity property named `__proto__` or `constructor`
 * is kept (the store holds it as sent, `process` copies it to `protoValue` / `constructorValue`, an instance's
 * fields) and reported; a query parameter named like a path parameter is another argument (`nameQuery`), sent under
 * its own name, and reported. Generated, type-checked with `tsc --strict`, and run against the mock server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { report } from '../src/cli.js';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('names that clash', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('name-clashes.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('type-checks with tsc --strict', () => {
    expect(typeCheck(generated.dir, generated.result.files.keys())).toEqual([]);
  }, 60_000);

  it('keeps the properties __proto__ and constructor: stored as sent, on an instance as protoValue and constructorValue', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const resource = generated.model.resources.find((r) => r.entity === 'Widget')!;
    const table = generated.server.records.get(resource.name) ?? new Map<string, Record<string, unknown>>();
    generated.server.records.set(resource.name, table);
    table.clear();
    table.set('1', JSON.parse('{ "id": 1, "label": "one", "__proto__": "proto 1", "constructor": "ctor 1" }'));
    const controller = new Controller();
    const widget = await controller.fetch(api.WidgetResource.get, { id: 1 });
    expect(widget).toBeInstanceOf(api.Widget);
    expect(Object.getPrototypeOf(widget)).toBe(api.Widget.prototype);
    expect(widget).toMatchObject({ id: 1, label: 'one', protoValue: 'proto 1', constructorValue: 'ctor 1' });
    const stored = controller.getState().entities.Widget!['1'] as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(stored, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value).toBe('proto 1');
    expect(stored.constructor).toBe('ctor 1');
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);

    const list = (await controller.fetch(api.WidgetResource.getList)) as { protoValue: unknown }[];
    expect(list.map((w) => w.protoValue)).toEqual(['proto 1']);
  }, 60_000);

  it("a record with a constructor key: the instance's constructor is still the class, the value in constructorValue", async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const resource = generated.model.resources.find((r) => r.entity === 'Widget')!;
    const table = generated.server.records.get(resource.name) ?? new Map<string, Record<string, unknown>>();
    generated.server.records.set(resource.name, table);
    table.clear();
    table.set('1', { id: 1, constructor: 'x' });
    const controller = new Controller();
    const widget = (await controller.fetch(api.WidgetResource.get, { id: 1 })) as Record<string, unknown>;
    expect(widget.constructor).toBe(api.Widget);
    expect(Object.prototype.hasOwnProperty.call(widget, 'constructor')).toBe(false);
    expect(widget.constructorValue).toBe('x');
    expect(widget.pk).toBe(api.Widget.prototype.pk);
    expect((controller.getState().entities.Widget!['1'] as Record<string, unknown>).constructor).toBe('x');
    // a list reads the same, and so does fromJS
    const [listed] = (await controller.fetch(api.WidgetResource.getList)) as Record<string, unknown>[];
    expect(listed!.constructor).toBe(api.Widget);
    expect(listed!.constructorValue).toBe('x');
    const made = api.Widget.fromJS({ id: 2, constructor: 'y' }) as Record<string, unknown>;
    expect(made.constructor).toBe(api.Widget);
    expect(Object.prototype.hasOwnProperty.call(made, 'constructor')).toBe(false);
  }, 60_000);

  it('a query parameter named like a path parameter is its own argument, and both are sent', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    await controller.fetch(api.searchFiles, { name: 'docs', nameQuery: 'read me', limit: 5 });
    expect(generated.server.requests.at(-1)).toBe('GET /api/folders/docs/files?limit=5&name=read%20me');
    expect(generated.server.queries.at(-1)).toEqual({ limit: '5', name: 'read me' });
    expect(generated.server.pathParams.at(-1)).toMatchObject({ name: 'docs' });
    await controller.fetch(api.searchFiles, { name: 'docs' });
    expect(generated.server.requests.at(-1)).toBe('GET /api/folders/docs/files');
    expect(api.searchFiles.url({ name: 'a', nameQuery: 'b' })).toMatch(/\/folders\/a\/files\?name=b$/);
  }, 60_000);

  it('a renamed query parameter with a style (withQueryNames over withQueryStyles): sent under its name, written by its style', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    await controller.fetch(api.listCards, {
      tags: 'b 1',
      tagsQuery: ['a', 'b c'],
      filter: { status: 'open' },
      lanes: ['x', 'y'],
    });
    expect(generated.server.requests.at(-1)).toBe(
      'GET /api/boards/b%201/cards?filter[status]=open&lanes=x|y&tags=a,b%20c',
    );
    expect(generated.server.queries.at(-1)).toEqual({
      filter: { status: 'open' },
      lanes: ['x', 'y'],
      tags: ['a', 'b c'],
    });
    expect(generated.server.pathParams.at(-1)).toEqual({ tags: 'b 1' });
    await controller.fetch(api.listOwnerItems, { filter: 'ann', filterQuery: { size: 2, kind: 'a&b' }, ids: [1, 2] });
    expect(generated.server.requests.at(-1)).toBe(
      'GET /api/owners/ann/items?filter[kind]=a%26b&filter[size]=2&ids=1,2',
    );
    expect(generated.server.queries.at(-1)).toEqual({ filter: { kind: 'a&b', size: '2' }, ids: ['1', '2'] });
    expect(generated.server.pathParams.at(-1)).toEqual({ filter: 'ann' });
    // the path's argument alone: no query
    await controller.fetch(api.listOwnerItems, { filter: 'ann' });
    expect(generated.server.requests.at(-1)).toBe('GET /api/owners/ann/items');
    // with an array path parameter of the same name (withPathStyles inside)
    await controller.fetch(api.listSetMembers, { ids: [1, 2], idsQuery: [3, 4] });
    expect(generated.server.requests.at(-1)).toBe('GET /api/sets/.1,2/members?ids=3,4');
    expect(generated.server.queries.at(-1)).toEqual({ ids: ['3', '4'] });
    expect(generated.server.pathParams.at(-1)).toEqual({ ids: ['1', '2'] });
    const text = report(generated.model, 0);
    expect(text).toMatch(/GET \/owners\/\{filter\}\/items \?filter\s+argument filterQuery/);
    expect(text).toMatch(/GET \/owners\/\{filter\}\/items \?filter\s+query style deepObject/);
  }, 60_000);

  it('a list whose query parameter is named like its path parameter: endpoints (not a resource), each argument sent', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    expect(api.NoteResource).toBeUndefined();
    const controller = new Controller();
    const notes = (await controller.fetch(api.listNotes, { owner: 'ann', ownerQuery: 'bob' })) as unknown[];
    expect(Array.isArray(notes)).toBe(true);
    expect(generated.server.requests.at(-1)).toBe('GET /api/users/ann/notes?owner=bob');
    expect(generated.server.queries.at(-1)).toEqual({ owner: 'bob' });
    expect(report(generated.model, 0)).toMatch(
      /\/users\/\{owner\}\/notes\/\{id\}\s+endpoints, no resource\s+GET \/users\/\{owner\}\/notes has a query parameter \?owner/,
    );
  }, 60_000);

  it('reports each renaming', () => {
    const text = report(generated.model, 0);
    expect(text).toMatch(/Widget\.__proto__\s+field protoValue/);
    expect(text).toMatch(/Widget\.constructor\s+field constructorValue/);
    expect(text).toMatch(/GET \/folders\/\{name\}\/files \?name\s+argument nameQuery/);
  });
});
