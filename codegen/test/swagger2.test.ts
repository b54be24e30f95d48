/**
 * A Swagger 2.0 document end to end: converted (swagger2openapi), generated, type-checked with `tsc --strict`
 * and driven through a Controller against the mock server. Its base schema Animal has a discriminator
 * and a pk named after it (`animalId`); Dog and Cat extend it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('a Swagger 2.0 document against the mock server', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('swagger2.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('Dog and Cat are entities with the base pk, Animal their union; the upload is skipped; tsc --strict passes', () => {
    const { model, files } = generated.result;
    expect(model.entities.map((e) => [e.name, e.pk]).sort()).toEqual([
      ['Cat', 'animalId'],
      ['Dog', 'animalId'],
    ]);
    expect(model.unions).toEqual([{ name: 'Animal', attribute: 'animalType', members: { Dog: 'Dog', Cat: 'Cat' } }]);
    expect(model.skipped.map((s) => s.subject)).toEqual(['POST /animals/{animalId}/photo']);
    expect(files.get('Dog.ts')).toMatch(/nick: string \| null = null;/);
    expect(typeCheck(generated.dir, files.keys())).toEqual([]);
  }, 120_000);

  it('lists and reads the union, each item the entity its discriminator names; reads the csv report as text', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const { requests } = generated.server;
    const controller = new Controller();
    const animals = (await controller.fetch(api.listAnimals, { tags: ['a', 'b'] })) as any[];
    expect(requests.at(-1)).toBe('GET /api/animals?tags=a,b');
    expect(animals.length).toBeGreaterThan(0);
    for (const animal of animals) expect(animal).toBeInstanceOf(animal.animalType === 'Cat' ? api.Cat : api.Dog);
    const one: any = await controller.fetch(api.getAnimal, { animalId: 1 });
    expect(one).toBeInstanceOf(one.animalType === 'Cat' ? api.Cat : api.Dog);
    expect(one.born).toBeInstanceOf(Date);
    expect(typeof (await controller.fetch(api.getReport, { animalId: 1 }))).toBe('string');
  }, 60_000);
});
