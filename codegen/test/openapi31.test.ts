/**
 * OpenAPI 3.1 shapes against the mock server: a `const` discriminator, `type: [x, 'null']`, operationIds
 * that collide or are missing, dashed and dotted path parameters, and responses that are not JSON.
 * Generated, type-checked with `tsc --strict`, and driven through a Controller. openapi-backend's mocks
 * know neither `const` nor a list of types, and its handlers answer JSON: the mock server fills those in.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('OpenAPI 3.1 shapes against the mock server', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('openapi31.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('names colliding and missing operationIds apart, and the output passes tsc --strict', () => {
    const names = generated.model.endpoints.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['listPets', 'listPets2', 'getPetsByPetId', 'getThing']));
    // a response that is not JSON is read and typed as what it is
    writeFileSync(
      join(generated.dir, 'calls.ts'),
      [
        `import { getName, getPhoto } from './index.js';`,
        `export const name: Promise<string> = getName({ pet_id: 'x' });`,
        `export const photo: Promise<Blob> = getPhoto({ pet_id: 'x' });`,
      ].join('\n'),
    );
    expect(typeCheck(generated.dir, [...generated.result.files.keys(), 'calls.ts'])).toEqual([]);
  }, 120_000);

  it('reads a const-discriminated union, nullable fields, and a dashed parameter holding a slash', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const { requests } = generated.server;
    const controller = new Controller();
    const shapes = (await controller.fetch(api.listShapes)) as any[];
    expect(shapes.length).toBeGreaterThan(0);
    for (const shape of shapes) expect(shape).toBeInstanceOf(shape.kind === 'circle' ? api.Circle : api.Square);
    const pet: any = await controller.fetch(api.getPetsByPetId, { pet_id: 'a b/c' });
    expect(requests.at(-1)).toBe('GET /v1/pets/a%20b%2Fc');
    expect(pet).toBeInstanceOf(api.Pet);
    expect(pet.tag === null || typeof pet.tag === 'string').toBe(true);
    expect(pet.owner === null || pet.owner instanceof api.Thing).toBe(true);
    // list and object defaults, as the spec gives them, for a record that lacks them
    expect(api.Pet.fromJS({ uuid: 'u', name: 'n' })).toMatchObject({ aliases: ['a', "b's"], prefs: { a: 1 } });
    const thing: any = await controller.fetch(api.getThing, { thing_id: 3 });
    expect(requests.at(-1)).toBe('GET /v1/things/3');
    expect(thing.created).toBeInstanceOf(Date);
    // JSON under another media type: `*/*` (springdoc's), `application/hal+json`
    expect(await controller.fetch(api.getThingAnyType, { id: 4 })).toBeInstanceOf(api.Thing);
    expect(await controller.fetch(api.getThingHal, { id: 5 })).toBeInstanceOf(api.Thing);
  }, 60_000);

  it('a text response resolves a string, an image a Blob, a response without a body null', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    expect(typeof (await controller.fetch(api.getName, { pet_id: 'x' }))).toBe('string');
    expect(await controller.fetch(api.getPhoto, { pet_id: 'x' })).toBeInstanceOf(Blob);
    expect(await controller.fetch(api.ping)).toBeNull();
  }, 60_000);
});
