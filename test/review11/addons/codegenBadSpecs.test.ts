/**
 * Review of the OpenAPI generator with specs that are wrong or odd, from docs/openapi.md: a bad input is a
 * named error (SpecError) saying what is wrong, and an odd but valid one (schemas that extend each other
 * through allOf) still generates code that passes `tsc --strict`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../codegen/src/analyze.js';
import { SpecError } from '../../../codegen/src/errors.js';
import { generate } from '../../../codegen/src/generate.js';
import { loadSpec } from '../../../codegen/src/parse.js';
import { typeCheck } from '../../../codegen/test/harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('specs that are wrong or odd', () => {
  it('a discriminator mapping that names no schema is a SpecError naming the schema, the value and the ref', async () => {
    const doc = await loadSpec(fixture('bad-mapping.yaml'));
    let error: unknown;
    try {
      analyze(doc);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SpecError);
    expect((error as Error).message).toContain('Shape');
    expect((error as Error).message).toContain('"c"');
    expect((error as Error).message).toContain('#/components/schemas/Gone');
  });

  it('a mapping by bare schema name that exists is fine', async () => {
    const doc = await loadSpec(fixture('bad-mapping.yaml'));
    const mapping = (doc as any).components.schemas.Shape.discriminator.mapping;
    delete mapping.c;
    const model = analyze(doc);
    expect(model.unions).toContainEqual({
      name: 'Shape',
      attribute: 'kind',
      members: { Circle: 'Circle', s: 'Square' },
    });
  });

  it('two schemas that extend each other through allOf generate code that passes tsc --strict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rx-rest-review11-'));
    try {
      const result = await generate(fixture('allof-cycle.yaml'), { out: dir, config: { urlPrefix: 'http://x' } });
      expect(typeCheck(dir, result.files.keys())).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a oneOf of entities without a discriminator: it prints that it reads it as plain JSON, and why', async () => {
    const model = analyze(await loadSpec(fixture('oneof-no-discriminator.yaml')));
    expect(model.unions).toEqual([]);
    expect(model.decisions).toContainEqual(
      expect.objectContaining({
        subject: 'Pet',
        decision: 'plain JSON, not normalized',
        reason: expect.stringMatching(/Cat, Dog.*no discriminator/),
      }),
    );
  });
});
