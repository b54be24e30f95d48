/**
 * allOf inheritance with a discriminator on the base schema: the subtypes are entities (with the base's
 * fields and pk), and a response typed as the base is a `schema.Union` over them. Generated, type-checked
 * with `tsc --strict`, and read through a Controller from the spec-driven mock server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('allOf inheritance with a discriminator on the base schema', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('allof-discriminator.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('the subtypes are entities with the inherited fields and pk; the base is a schema.Union keyed by the discriminator', () => {
    const { model } = generated;
    expect(model.entities.map((e) => [e.name, e.pk]).sort()).toEqual([
      ['Car', 'vin'],
      ['Cat', 'id'],
      ['Dog', 'id'],
      ['Truck', 'vin'],
    ]);
    const cat = model.entities.find((e) => e.name === 'Cat')!;
    expect(cat.fields.map((f) => f.name)).toEqual(['id', 'name', 'petType', 'huntingSkill']);
    expect(model.unions).toEqual([
      { name: 'Pet', attribute: 'petType', members: { cat: 'Cat', dog: 'Dog' } },
      { name: 'Vehicle', attribute: 'kind', members: { Car: 'Car', Truck: 'Truck' } },
    ]);
    const pet = model.decisions.find((d) => d.subject === 'Pet')!;
    expect(pet.decision).toBe('schema.Union on petType');
    expect(pet.reason).toMatch(/Cat, Dog extend it \(allOf\)/);
    const vehicle = model.decisions.find((d) => d.subject === 'Vehicle')!;
    expect(vehicle.reason).toMatch(/Car, Truck by their schema names/);
    expect(model.endpoints.find((e) => e.name === 'listPets')!.schema).toBe('new schema.Collection([Pet])');
    expect(model.endpoints.find((e) => e.name === 'getPet')!.schema).toBe('Pet');
    expect(model.endpoints.find((e) => e.name === 'addPet')!.body).toBe('CatInput | DogInput');
  });

  it('a DELETE of the item path whose GET reads the union invalidates the union: the pk in each member table', () => {
    const remove = generated.model.endpoints.find((e) => e.name === 'deletePet')!;
    expect(remove.schema).toBe('[new schema.Invalidate(Pet)]');
    expect(remove.unionRefs).toEqual(['Pet']);
    expect(remove.process).toContain(`{ id: String(params.id), petType: 'cat' }`);
    expect(remove.process).toContain(`{ id: String(params.id), petType: 'dog' }`);
    const decision = generated.model.decisions.find((d) => d.subject === 'DELETE /pets/{id}')!;
    expect(decision.decision).toBe('Invalidate Pet');
    expect(decision.reason).toMatch(/a DELETE of an item path.*each member/);
  });

  it('the output passes tsc --strict, and the base type is the union of the subtypes, narrowed by the discriminator', () => {
    writeFileSync(
      join(generated.dir, 'narrowing.ts'),
      [
        `import type { Pet, Vehicle, CatInput } from './index.js';`,
        `export const skill = (pet: Pet): string => (pet.petType === 'cat' ? pet.huntingSkill : String(pet.packSize));`,
        `export const doors = (v: Vehicle): number | undefined => (v.kind === 'Car' ? v.doors : v.load);`,
        `export const body: CatInput = { name: 'Felix', petType: 'cat', huntingSkill: 'lazy' };`,
      ].join('\n'),
    );
    expect(typeCheck(generated.dir, [...generated.result.files.keys(), 'narrowing.ts'])).toEqual([]);
  }, 120_000);

  it('lists and reads through a Controller: each item is the entity its discriminator names', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    const pets = (await controller.fetch(api.listPets)) as any[];
    expect(pets.map((p) => p.constructor)).toEqual([api.Cat, api.Dog]);
    expect(pets[0].huntingSkill).toBe('lazy');
    const rex: any = await controller.fetch(api.getPet, { id: 2 });
    expect(rex).toBeInstanceOf(api.Dog);
    expect(rex.packSize).toBe(3);
    const created: any = await controller.fetch(api.addPet, {
      name: 'Felix',
      petType: 'cat',
      huntingSkill: 'clueless',
    });
    expect(created).toBeInstanceOf(api.Cat);
    // a delete (204, no body) drops the pet from the list it was read in, without a request for the list
    const list = controller.observe(api.listPets);
    let shown: any[] = [];
    const subscription = list.subscribe((state: any) => (shown = state.data ?? shown));
    expect(shown.map((p) => p.name)).toEqual(['Tom', 'Rex']);
    const requests = generated.server.requests.length;
    await controller.fetch(api.deletePet, { id: 2 });
    expect(shown.map((p) => p.name)).toEqual(['Tom']);
    expect(generated.server.requests.slice(requests)).toEqual(['DELETE /api/pets/2']);
    subscription.unsubscribe();
    const page: any = await controller.fetch(api.listVehicles, {});
    expect(page.data.map((v: any) => v.constructor)).toEqual([api.Car, api.Truck]);
    expect(page.data[1].pk()).toBe('v2');
  }, 60_000);
});
