/**
 * Real public specs, offline: each generated, type-checked with `tsc --strict`, and driven through a
 * Controller against a spec-driven mock server: list, read, an update seen in the list, a create that
 * joins it, a delete that leaves it.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';
import type { ExtraTable } from './mockServer.js';
import type { ResourceModel } from '../src/model.js';

const require = createRequire(import.meta.url);
const examples = (file: string) => require.resolve(`@readme/oas-examples/${file}`);
const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

interface SpecCase {
  readonly name: string;
  readonly file: string;
  /** The resource to drive (default: the first with create, update and delete). */
  readonly resource?: string;
  readonly min: { entities: number; resources: number; endpoints: number };
}

const SPECS: SpecCase[] = [
  {
    name: 'petstore-expanded (3.0, a resource)',
    file: examples('3.0/json/petstore-expanded.json'),
    min: { entities: 1, resources: 1, endpoints: 0 },
  },
  {
    name: 'intellifi.nl (envelopes)',
    file: fixture('intellifi.nl.json'),
    min: { entities: 10, resources: 5, endpoints: 5 },
  },
  {
    name: 'callfire.com (envelopes, many resources)',
    file: fixture('callfire.com.json'),
    min: { entities: 20, resources: 10, endpoints: 50 },
  },
  {
    name: 'gitea.io (a large API, nested paths)',
    file: fixture('gitea.io.json'),
    min: { entities: 30, resources: 10, endpoints: 100 },
  },
];

function pickResource(spec: SpecCase, resources: readonly ResourceModel[]): ResourceModel | undefined {
  if (spec.resource) return resources.find((r) => r.name === spec.resource);
  return (
    resources.find((r) => r.members.push && (r.members.update || r.members.partialUpdate) && r.members.delete) ??
    resources.find((r) => r.members.push && r.members.delete)
  );
}

function itemsOf(value: any, field: string | undefined): any[] {
  return field ? value[field] : value;
}

describe.each(SPECS)('$name', (spec) => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(spec.file);
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('generates entities, resources and endpoints, and the output passes tsc --strict', () => {
    const { model, files, ms } = generated.result;
    console.log(
      `${spec.name}: ${model.entities.length} entities, ${model.resources.length} resources, ${model.endpoints.length} endpoints, ${model.skipped.length} skipped, ${Math.round(ms)} ms`,
    );
    expect(model.entities.length).toBeGreaterThanOrEqual(spec.min.entities);
    expect(model.resources.length).toBeGreaterThanOrEqual(spec.min.resources);
    expect(model.endpoints.length).toBeGreaterThanOrEqual(spec.min.endpoints);
    expect(typeCheck(generated.dir, files.keys())).toEqual([]);
  }, 120_000);

  it('lists, reads, updates, creates and deletes through a Controller against the mock server', async () => {
    const resource = pickResource(spec, generated.model.resources);
    expect(resource).toBeDefined();
    const mod = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const R = mod[resource!.name];
    const entity = generated.model.entities.find((e) => e.name === resource!.entity)!;
    const field = resource!.listSchema
      ? /^\{\s*'?([^:']+)'?: new schema\.Collection/.exec(resource!.listSchema)?.[1]
      : undefined;
    // parent path parameters (`/repos/:owner/:repo/issues/:id`) take any value: the mock keeps one table
    const parents = Object.fromEntries(
      [...resource!.path.matchAll(/:([A-Za-z0-9_]+)/g)].slice(0, -1).map((m) => [m[1], 'x']),
    );
    const controller = new Controller();

    const list = itemsOf(await controller.fetch(R.getList, parents), field);
    expect(list.length).toBe(2);
    expect(list[0]).toBeInstanceOf(mod[entity.name]);
    const id = list[0].pk();
    const one: any = await controller.fetch(R.get, { ...parents, [entity.pk]: id });
    expect(one.pk()).toBe(id);

    const text = entity.fields.find((f) => f.type === 'string' && f.name !== entity.pk && f.schema === undefined);
    if (text && (resource!.members.update || resource!.members.partialUpdate)) {
      const update = resource!.members.partialUpdate ? R.partialUpdate : R.update;
      await controller.fetch(update, { ...parents, [entity.pk]: id }, { [text.name]: 'changed by the test' });
      const after = itemsOf(controller.getResponse(R.getList, parents).data, field);
      expect(after.find((item: any) => item.pk() === id)[text.name]).toBe('changed by the test');
    }

    const created: any = await controller.fetch(R.getList.push, parents, text ? { [text.name]: 'created' } : {});
    const joined = itemsOf(controller.getResponse(R.getList, parents).data, field);
    expect(joined.map((item: any) => item.pk())).toContain(created.pk());

    await controller.fetch(R.delete, { ...parents, [entity.pk]: created.pk() });
    const left = itemsOf(controller.getResponse(R.getList, parents).data, field);
    expect(left.map((item: any) => item.pk())).not.toContain(created.pk());
    expect(generated.server.records.get(resource!.name)?.has(created.pk())).toBe(false);
  }, 60_000);
});

describe('influxdata.com: a discriminated oneOf read through schema.Union', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('influxdata.com.json'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('a check comes back as the entity class its type names', async () => {
    expect(generated.model.unions.find((u) => u.name === 'CheckDiscriminator')).toEqual({
      name: 'CheckDiscriminator',
      attribute: 'type',
      members: { deadman: 'DeadmanCheck', threshold: 'ThresholdCheck', custom: 'CustomCheck' },
    });
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    const check: any = await controller.fetch(api.getChecksID, { checkID: '1' });
    const Class = { deadman: api.DeadmanCheck, threshold: api.ThresholdCheck, custom: api.CustomCheck }[
      check.type as string
    ];
    expect(Class).toBeDefined();
    expect(check).toBeInstanceOf(Class);
  }, 60_000);
});

describe('Petstore 3 (endpoints only: no collection path with an item path)', () => {
  let generated: Generated;
  const extra: ExtraTable[] = [
    {
      name: 'pets',
      pk: 'id',
      getLabel: 'GET /pet/{petId}',
      ops: {
        'GET /pet/findByStatus': 'getList',
        'GET /pet/{petId}': 'get',
        'POST /pet': 'push',
        'PUT /pet': 'update',
        'DELETE /pet/{petId}': 'delete',
      },
    },
  ];
  beforeAll(async () => {
    generated = await generateAgainstMock(examples('3.0/json/petstore.json'), extra);
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('generates Pet, Order, User, ... and endpoints named by operationId; tsc --strict passes', () => {
    const { model, files, ms } = generated.result;
    console.log(
      `Petstore 3: ${model.entities.length} entities, ${model.resources.length} resources, ${model.endpoints.length} endpoints, ${model.skipped.length} skipped, ${Math.round(ms)} ms`,
    );
    expect(model.entities.map((e) => e.name).sort()).toEqual(['Category', 'Order', 'Pet', 'Tag', 'User']);
    expect(model.endpoints.map((e) => e.name)).toContain('findPetsByStatus');
    expect(typeCheck(generated.dir, files.keys())).toEqual([]);
  }, 120_000);

  it('lists, reads, updates, creates and deletes pets through a Controller', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    const list: any = await controller.fetch(api.findPetsByStatus, { status: ['available'] });
    expect(list.length).toBe(2);
    expect(list[0]).toBeInstanceOf(api.Pet);
    const pet: any = await controller.fetch(api.getPetById, { petId: list[0].id });
    expect(pet.id).toBe(list[0].id);
    await controller.fetch(api.updatePet, { id: pet.id, name: 'renamed', photoUrls: [] });
    const again: any = await controller.fetch(api.findPetsByStatus, { status: ['available'] });
    expect(again.find((p: any) => p.id === pet.id).name).toBe('renamed');
    await controller.fetch(api.addPet, { name: 'new', photoUrls: [] });
    const joined: any = await controller.fetch(api.findPetsByStatus, { status: ['available'] });
    expect(joined.length).toBe(3);
    const added = joined.find((p: any) => p.name === 'new');
    await controller.fetch(api.deletePet, { petId: added.id });
    const left = controller.getResponse(api.findPetsByStatus, { status: ['available'] }).data as any[];
    expect(left.map((p) => p.id)).not.toContain(added.id);
  }, 60_000);
});
