/**
 * A `oneOf` of entities without a discriminator is read as plain JSON (rx-rest cannot tell which table a value
 * belongs to): its generated type is the plain shape of each member, not the entity classes, so that the type
 * says what the value is at run time (no `pk()`, not an instance), and nested entities in it are plain too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../src/generate.js';
import { typeCheck } from './harness.js';

const spec = new URL('../../test/review11/addons/fixtures/oneof-no-discriminator.yaml', import.meta.url).pathname;

describe('a oneOf of entities without a discriminator', () => {
  let dir: string;
  let result: GenerateResult;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rx-rest-plain-oneof-'));
    result = await generate(spec, { out: dir, config: { urlPrefix: 'http://localhost' } });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is typed as the plain shapes of its members, not as the entity classes', () => {
    const types = readFileSync(join(dir, 'types.ts'), 'utf8');
    const pet = /export type Pet = (.*);$/m.exec(types)?.[1] ?? '';
    expect(pet).toMatch(/meow\?: boolean/);
    expect(pet).toMatch(/bark\?: boolean/);
    expect(pet).not.toMatch(/\bCat\b|\bDog\b/);
    // nor does an entity holding one import the classes for it
    expect(readFileSync(join(dir, 'Owner.ts'), 'utf8')).not.toMatch(/import .*\b(Cat|Dog)\b/);
  });

  it('type-checks as what the value is at run time: a plain object, no pk(), the nested values plain too', () => {
    writeFileSync(
      join(dir, 'use.ts'),
      `import { Controller } from 'rx-rest';
import { listPets, getOwner } from './endpoints.js';
import type { Pet } from './types.js';
declare const controller: Controller;
export async function use() {
  const pets: Pet[] = await controller.fetch(listPets);
  // @ts-expect-error plain JSON: no pk()
  pets[0]!.pk();
  const plain: Pet = { id: 1, meow: true };
  const owner = await controller.fetch(getOwner, { id: 1 });
  const pet: Pet | undefined = owner.pet;
  // @ts-expect-error plain JSON: no pk()
  pet?.pk();
  return [plain, pet];
}
`,
    );
    expect(typeCheck(dir, [...result.files.keys(), 'use.ts'])).toEqual([]);
  }, 60_000);
});
