/**
 * What a real-world OpenAPI 3.0 document throws at the generator (fixtures/hostile.yaml): a three-level allOf chain
 * under a discriminator, a nullable ref, readOnly/writeOnly fields, odd enums, path parameters with dashes and dots,
 * missing and colliding operationIds, server variables, an API key in the query, a multipart body, 204 and
 * default-only responses, a path-level parameter overridden by its operation, arrays of arrays and date-times.
 * Generated, type-checked with `tsc --strict`, and run against the mock server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { analyze } from '../src/analyze.js';
import { report } from '../src/cli.js';
import { loadSpec } from '../src/parse.js';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = new URL('./fixtures/hostile.yaml', import.meta.url).pathname;

describe('a hostile OpenAPI 3.0 document', () => {
  let generated: Generated;
  let api: Record<string, any>;
  let text: (file: string) => string;
  /** The generated code of one endpoint of endpoints.ts. */
  let endpoint: (name: string) => string;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture);
    api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    text = (file) => readFileSync(join(generated.dir, file), 'utf8');
    endpoint = (name) =>
      text('endpoints.ts')
        .split('export const ')
        .find((code) => code.startsWith(`${name} =`)) ?? '';
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('type-checks with tsc --strict', () => {
    expect(typeCheck(generated.dir, generated.result.files.keys())).toEqual([]);
  }, 60_000);

  it('entities and their keys; the allOf chain a union of each level', () => {
    const pks = Object.fromEntries(generated.model.entities.map((e) => [e.name, e.pk]));
    expect(pks).toEqual({ Mammal: 'id', Dog: 'id', Bird: 'id', Account: 'id', Grid: 'id' });
    expect(generated.model.resources.map((r) => r.entity).sort()).toEqual(['Account', 'Dog', 'Grid']);
    expect(text('unions.ts')).toMatch(/new schema\.Union\(\{ Mammal: Mammal, Dog: Dog, Bird: Bird \}, 'petType'\)/);
    // Dog has Animal's and Mammal's fields, its discriminator typed as its value
    expect(text('Dog.ts')).toMatch(
      /petType: 'Dog' = 'Dog';[^]*furColor: string \| undefined[^]*owner: Account \| null = null;/,
    );
  });

  it('readOnly fields out of request bodies, writeOnly ones out of entities', () => {
    const account = generated.model.entities.find((e) => e.name === 'Account')!;
    expect(account.fields.map((f) => f.name)).toEqual(['id', 'email', 'createdAt', 'lastSeen', 'plan']);
    expect(text('types.ts')).toMatch(
      /export type AccountInput = \{ email: string; password\?: string; lastSeen\?: string \| null; plan\?: Plan \};/,
    );
  });

  it('a body of a type that is no entity: its written form (readOnly out, writeOnly in, entities as their inputs)', async () => {
    expect(text('types.ts')).toMatch(
      /export type Settings = \{ theme\?: 'light' \| 'dark' \| null; updated\?: string; account\?: Account \};/,
    );
    expect(text('types.ts')).toMatch(
      /export type SettingsInput = \{ theme\?: 'light' \| 'dark' \| null; pin\?: string; account\?: AccountInput \};/,
    );
    expect(endpoint('putSettings')).toContain('body: {} as SettingsInput');
    const controller = new Controller();
    const settings = (await controller.fetch(api.putSettings, {
      theme: 'dark',
      pin: '1234',
      account: { email: 'a@b.c' },
    })) as {
      account?: unknown;
    };
    expect(generated.server.requests.at(-1)).toBe('PUT /v2/settings');
    expect(settings.account).toBeInstanceOf(api.Account);
  }, 60_000);

  it('odd enum values are literal types', () => {
    expect(text('types.ts')).toContain(`export type Plan = 'free' | '' | 'class' | 'default' | "it's" | 'a"b' | '1';`);
    expect(text('types.ts')).toContain('export type Level = 0 | 1 | -1 | 2.5;');
  });

  it('the server variables take their defaults', async () => {
    const model = analyze(await loadSpec(fixture));
    expect(model.urlPrefix).toBe('https://eu.example.com/v2');
  });

  it('the allOf chain read through its union: each level an entity of its own table', async () => {
    const controller = new Controller();
    const animals = (await controller.fetch(api.listAnimals)) as unknown[];
    expect(animals.length).toBeGreaterThan(0);
    expect(animals[0]).toBeInstanceOf(api.Mammal);
    const dogs = (await controller.fetch(api.DogResource.getList, { limit: 2 })) as any[];
    expect(dogs.map((d) => d.id)).toEqual([1, 2]);
    expect(dogs[0]).toBeInstanceOf(api.Dog);
    expect(dogs[0].born).toBeInstanceOf(Date);
  }, 60_000);

  it('a nullable ref to an entity, date-times, a create, a replace and a 204 delete', async () => {
    const controller = new Controller();
    const created: any = await controller.fetch(api.DogResource.getList.push, {
      id: 0,
      petType: 'Dog',
      name: 'Rex',
      born: '2020-01-02T03:04:05Z',
      owner: null,
    });
    expect(created).toBeInstanceOf(api.Dog);
    expect(created).toMatchObject({ name: 'Rex', owner: null });
    expect(created.born).toEqual(new Date('2020-01-02T03:04:05Z'));
    const renamed: any = await controller.fetch(
      api.DogResource.update,
      { id: created.id },
      { id: created.id, petType: 'Dog', name: 'Max', owner: null },
    );
    expect(renamed).toMatchObject({ name: 'Max', owner: null });
    // an owner as the server sends it (its id is readOnly: the server gives it)
    const table = generated.server.records.get('DogResource')!;
    table.set(`${created.id}`, { ...table.get(`${created.id}`)!, owner: { id: 'a1', email: 'a@b.c', lastSeen: null } });
    const owned: any = await controller.fetch(api.DogResource.get, { id: created.id });
    expect(owned.owner).toBeInstanceOf(api.Account);
    expect(owned.owner.lastSeen).toBeNull();
    expect(controller.get(api.Account, 'a1')).toBe(owned.owner);
    await controller.fetch(api.DogResource.delete, { id: created.id });
    expect(generated.server.requests.at(-1)).toBe(`DELETE /v2/dogs/${created.id}`);
    expect(controller.get(api.Dog, `${created.id}`)).toBeUndefined();
  }, 60_000);

  it('path parameters with a dot and a dash; colliding operationIds kept apart', async () => {
    const controller = new Controller();
    await controller.fetch(api.getFile, { file_name: 'a.txt', version: 3 });
    expect(generated.server.requests.at(-1)).toBe('GET /v2/files/a.txt/v3');
    expect(generated.server.pathParams.at(-1)).toEqual({ 'file.name': 'a.txt', version: '3' });
    const tags = await controller.fetch(api.getFile2, { file_id: 'f-1' });
    expect(Array.isArray(tags)).toBe(true);
    expect(generated.server.requests.at(-1)).toBe('GET /v2/files/f-1/tags');
    expect(report(generated.model, 0)).toMatch(/GET \/files\/\{file-id\}\/tags\s+endpoint getFile2\s+getFile is taken/);
  }, 60_000);

  it('operations without an operationId, a 204, and responses with only default', async () => {
    const controller = new Controller();
    expect(await controller.fetch(api.getPing)).toBeNull();
    const pong = (await controller.fetch(api.postPing)) as { ok?: boolean };
    expect(typeof pong.ok).toBe('boolean');
    expect(endpoint('postPing')).toMatch(/process: \(value: unknown\) => value as \{ ok\?: boolean \}/);
    const report = (await controller.fetch(api.getReport, { id: 'r1' })) as { level?: number };
    expect([0, 1, -1, 2.5]).toContain(report.level);
    expect(endpoint('getReport')).toMatch(/process: \(value: unknown\) => value as Report/);
  }, 60_000);

  it('path-level parameters overridden by the operation', async () => {
    // the operation's format (an enum) and id (a string) replace the path's (a boolean, an integer)
    expect(endpoint('getReport')).toContain("searchParams: {} as { format?: 'pdf' | 'csv' } | undefined");
    const controller = new Controller();
    await controller.fetch(api.getReport, { id: 'r-2', format: 'csv' });
    expect(generated.server.requests.at(-1)).toBe('GET /v2/reports/r-2?format=csv');
  }, 60_000);

  it('arrays of arrays: of numbers, of date-times and of entities (normalized)', async () => {
    const controller = new Controller();
    const grid = (await controller.fetch(api.GridResource.get, { id: 1 })) as any;
    expect(Array.isArray(grid.cells[0])).toBe(true);
    expect(typeof grid.cells[0][0]).toBe('number');
    expect(grid.owners[0][0]).toBeInstanceOf(api.Account);
    const stored = controller.getState().entities.Grid!['1'] as { owners: unknown[][] };
    expect(typeof stored.owners[0]![0]).toBe('string');
  }, 60_000);

  it('an API key in the query is not sent as a header: reported', () => {
    const out = report(generated.model, 0);
    expect(out).not.toMatch(/security queryKey\s+requestHeaders/);
    expect(out).toMatch(/security queryKey\s+not sent\s+an API key in the query \(\?api_key\)/);
    expect(text('client.ts')).not.toMatch(/The spec names: [^\n]*api_key/);
  });

  it('a multipart body: skipped, with the reason', () => {
    expect(report(generated.model, 0)).toMatch(
      /skipped\s+POST \/files\/\{file-id\}\/upload\s+its request body is not JSON/,
    );
  });
});
