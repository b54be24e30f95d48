/**
 * Review of the OpenAPI generator's Swagger 2.0 input (converted with swagger2openapi), written from
 * API.md and docs/openapi.md: a `discriminator` base that others extend, `x-nullable`, a body parameter,
 * `collectionFormat` query arrays, a formData upload (skipped), `host` + `basePath`. Generated,
 * type-checked with `tsc --strict` and run through a Controller against the spec-driven mock server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { generateAgainstMock, typeCheck, type Generated } from '../../../codegen/test/harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('a Swagger 2.0 document', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('swagger11.json'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('decides entities, the union of the discriminator base, the resource and the skipped upload', () => {
    const { model } = generated;
    expect(Object.fromEntries(model.entities.map((e) => [e.name, e.pk]))).toEqual({
      Lion: 'id',
      Snake: 'id',
      Owner: 'id',
    });
    expect(model.unions).toContainEqual({
      name: 'Animal',
      attribute: 'kind',
      members: { Lion: 'Lion', Snake: 'Snake' },
    });
    expect(model.resources.map((r) => r.name)).toEqual(['OwnerResource']);
    expect(model.skipped).toContainEqual({
      subject: 'POST /animals/{animalId}/photo',
      reason: expect.stringMatching(/not JSON/),
    });
  });

  it('passes tsc --strict; x-nullable adds null; the base narrows by its discriminator', () => {
    writeFileSync(
      join(generated.dir, 'use11.ts'),
      [
        `import type { Animal, LionInput, Owner, Snake } from './index.js';`,
        `import { listAnimals } from './index.js';`,
        `export const name = (o: Owner): string | null | undefined => o.name;`,
        `export const venom = (s: Snake): boolean | null | undefined => s.venomous;`,
        `export const mane = (a: Animal): boolean | undefined => (a.kind === 'Lion' ? a.mane : undefined);`,
        `export const url = listAnimals.url({ tags: ['a'], ids: [1], limit: 2 });`,
        `export const leo: LionInput = { id: 1, name: 'Leo', kind: 'Lion' };`,
        `// @ts-expect-error a Lion's body names its own kind, as the Lion entity does`,
        `export const wrong: LionInput = { id: 1, name: 'Kaa', kind: 'Snake' };`,
        `// @ts-expect-error ids are numbers`,
        `export const bad = listAnimals.url({ ids: ['x'] });`,
      ].join('\n'),
    );
    expect(typeCheck(generated.dir, [...generated.result.files.keys(), 'use11.ts'])).toEqual([]);
  }, 120_000);

  it('sends collectionFormat csv as one comma-joined value and multi as repeated keys, under basePath', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    await c.fetch(api.listAnimals, { tags: ['a', 'b'], ids: [1, 2] }).catch(() => undefined);
    const sent = generated.server.requests.find((r) => r.startsWith('GET /api/animals?'));
    expect(sent).toBeDefined();
    const query = new URLSearchParams(sent!.slice(sent!.indexOf('?') + 1));
    expect(query.getAll('tags')).toEqual(['a,b']);
    expect(query.getAll('ids')).toEqual(['1', '2']);
    c.dispose();
  });

  it('reads owners through the resource; animals as the entity their kind names, owners nested; a delete drops it', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    const owners = (await c.fetch(api.OwnerResource.getList)) as any[];
    expect(owners[0]).toBeInstanceOf(api.Owner);
    c.setResponse(api.listAnimals, [
      { id: 1, name: 'Leo', kind: 'Lion', mane: true, owner: { id: 5, name: null, since: '2020-01-01T00:00:00Z' } },
      { id: 2, name: 'Kaa', kind: 'Snake', venomous: null, owner: 5 },
    ]);
    const animals = c.getResponse(api.listAnimals).data as any[];
    expect(animals.map((a) => a.constructor)).toEqual([api.Lion, api.Snake]);
    expect(animals[1].owner).toBe(animals[0].owner);
    expect(animals[0].owner.since).toBeInstanceOf(Date);
    expect(animals[1].venomous).toBeNull();
    await c.fetch(api.deleteAnimal, { animalId: 2 });
    expect((c.getResponse(api.listAnimals).data as any[]).map((a) => a.id)).toEqual([1]);
    c.dispose();
  });
});
