/** The command: writes files, prints the decisions, `--check` for drift, `--strict` for guesses, named errors. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'rx-rest-openapi-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...args: string[]) {
  const lines: string[] = [];
  const code = await main(args, (text) => lines.push(text));
  return { code, output: lines.join('\n') };
}

describe('rx-rest-openapi', () => {
  const yaml = require.resolve('@readme/oas-examples/3.0/yaml/petstore-expanded.yaml');
  const swagger = require.resolve('@readme/oas-examples/2.0/json/petstore.json');
  const out = join(dir, 'out');

  it('reads YAML, writes one file per entity and index.ts, prints the decisions; --check passes, then fails on drift', async () => {
    const first = await run(yaml, '--out', out);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/Pet +entity, pk id/);
    expect(first.output).toMatch(/1 entities, 1 resources/);
    expect(readFileSync(join(out, 'index.ts'), 'utf8')).toContain("export * from './Pet.js';");
    expect(readFileSync(join(out, 'resources.ts'), 'utf8')).toContain('export const PetResource = createResource(');
    expect((await run(yaml, '--out', out, '--check')).code).toBe(0);
    writeFileSync(join(out, 'Pet.ts'), readFileSync(join(out, 'Pet.ts'), 'utf8') + '\n// edited\n');
    const check = await run(yaml, '--out', out, '--check');
    expect(check.code).toBe(1);
    expect(check.output).toMatch(/Pet\.ts/);
  }, 60_000);

  it('converts Swagger 2.0; --strict fails when something was guessed, and the config settles it', async () => {
    const strict = await run(swagger, '--out', join(dir, 'swagger'), '--strict');
    expect(strict.output).toMatch(/Pet +entity, pk id/);
    const schema = join(dir, 'guess.json');
    writeFileSync(
      schema,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'g', version: '1' },
        paths: {},
        components: { schemas: { Doc: { type: 'object', properties: { uuid: { type: 'string' } } } } },
      }),
    );
    const guessed = await run(schema, '--out', join(dir, 'guess'), '--strict');
    expect(guessed.code).toBe(1);
    expect(guessed.output).toMatch(/--strict: 1 decision/);
    const config = join(dir, 'config.yaml');
    writeFileSync(config, 'schemas:\n  Doc:\n    pk: uuid\n');
    expect((await run(schema, '--out', join(dir, 'guess'), '--strict', '--config', config)).code).toBe(0);
  }, 60_000);

  it('a file that is not a spec is a named error and exit code 1; bad arguments print the usage', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    const result = await run(bad, '--out', join(dir, 'bad'));
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^SpecError: Not an OpenAPI/);
    expect((await run('--out')).code).toBe(2);
  });

  it('a config file that is missing, not YAML, not an object, has an unknown option or names what the spec lacks: a ConfigError naming the file, exit 1', async () => {
    const spec = join(dir, 'config-spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'c', version: '1' },
        paths: { '/docs': { get: { operationId: 'listDocs', responses: { '200': { description: 'ok' } } } } },
        components: { schemas: { Doc: { type: 'object', properties: { uuid: { type: 'string' } } } } },
      }),
    );
    const cases: [string | undefined, RegExp][] = [
      [undefined, /^ConfigError: Cannot read .*missing\.yaml/],
      ['schemas: [1\n', /^ConfigError: .*\.yaml is not YAML/],
      ['- a\n', /^ConfigError: .*\.yaml must hold an object/],
      [
        'tempral: true\n',
        /^ConfigError: .*\.yaml: unknown option "tempral" \(options: schemas, temporal, urlPrefix, skip\)/,
      ],
      [
        'schemas:\n  Dco: { pk: uuid }\n',
        /^ConfigError: .*\.yaml: schemas names "Dco", which the spec does not have \(its schemas: Doc\)/,
      ],
      [
        'schemas:\n  Doc: { pk: id }\n',
        /^ConfigError: .*\.yaml: the pk of Doc is "id", which is not one of its properties \(uuid\)/,
      ],
      [
        'schemas:\n  Doc: { primary: uuid }\n',
        /^ConfigError: .*\.yaml: schemas\.Doc has an unknown option "primary" \(options: entity, pk, key\)/,
      ],
      [
        'skip: [listDcos]\n',
        /^ConfigError: .*\.yaml: skip names "listDcos", which is no operationId or "METHOD \/path" of the spec/,
      ],
      ['temporal: yes please\n', /^ConfigError: .*\.yaml: temporal must be true or false/],
    ];
    for (const [index, [text, message]] of cases.entries()) {
      const config = join(dir, text === undefined ? 'missing.yaml' : `config-${index}.yaml`);
      if (text !== undefined) writeFileSync(config, text);
      const result = await run(spec, '--out', join(dir, 'config-out'), '--config', config);
      expect(result.output).toMatch(message);
      expect(result.code).toBe(1);
    }
    writeFileSync(join(dir, 'good.yaml'), 'schemas:\n  Doc: { pk: uuid }\nskip: [listDocs]\n');
    expect((await run(spec, '--out', join(dir, 'config-out'), '--config', join(dir, 'good.yaml'))).code).toBe(0);
  });

  it('an --out that is a file, or a directory it cannot write: an OutputError naming it, exit 1, nothing written', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'mine');
    const result = await run(yaml, '--out', file, '--quiet');
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^OutputError: --out .*a-file is a file, not a directory/);
    expect(readFileSync(file, 'utf8')).toBe('mine');
    const below = await run(yaml, '--out', join(file, 'api'), '--quiet');
    expect(below.code).toBe(1);
    expect(below.output).toMatch(/^OutputError: Cannot write .*a-file\/api/);
  });

  it('an --out holding a directory named like a generated file: an OutputError naming it, exit 1', async () => {
    const out = join(dir, 'odd-out');
    mkdirSync(join(out, 'Pet.ts'), { recursive: true });
    const result = await run(yaml, '--out', out, '--quiet');
    expect(result.output).toMatch(/^OutputError: Cannot read .*odd-out\/Pet\.ts: EISDIR/);
    expect(result.code).toBe(1);
  });

  it('an invalid Swagger 2.0 document is a SpecError in its own terms (#/definitions/...), not those of its conversion', async () => {
    const spec = join(dir, 'swagger-bad.json');
    writeFileSync(
      spec,
      JSON.stringify({
        swagger: '2.0',
        info: { title: 's', version: '1' },
        paths: {
          '/a': { get: { responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Nope' } } } } },
        },
      }),
    );
    const result = await run(spec, '--out', join(dir, 'swagger-bad'));
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^SpecError: The spec is not valid Swagger 2\.0:/);
    expect(result.output).toContain('#/definitions/Nope');
    expect(result.output).not.toContain('#/components/schemas/Nope');
  });

  describe('every bad input: a named error naming the file, exit code 1, no stack trace', () => {
    const spec = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    };
    const ok200 = (ref: string) =>
      `openapi: 3.0.3\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: '${ref}' }\n`;
    const cases: [what: string, file: () => string, error: RegExp][] = [
      ['a missing file', () => join(dir, 'missing.yaml'), /^SpecError: Cannot read .*missing\.yaml: ENOENT/],
      ['a directory', () => dir, /^SpecError: Cannot read .*rx-rest-openapi-cli-\w+: EISDIR/],
      [
        'malformed YAML',
        () => spec('broken.yaml', 'openapi: 3.0.3\ninfo: {title: x\n  version: 1\n'),
        /^SpecError: .*broken\.yaml is neither JSON nor YAML: .*line 2/,
      ],
      [
        'malformed JSON',
        () => spec('broken.json', '{"openapi": "3.0.3", "info": '),
        /^SpecError: .*broken\.json is neither JSON nor YAML: /,
      ],
      [
        'an empty file',
        () => spec('empty.yaml', ''),
        /^SpecError: .*empty\.yaml is empty: it holds no OpenAPI document/,
      ],
      [
        'a YAML list',
        () => spec('list.yaml', '- a\n- b\n'),
        /^SpecError: .*list\.yaml holds a list, not an OpenAPI document \(an object with "openapi" or "swagger"\)/,
      ],
      [
        'a JSON string',
        () => spec('string.json', '"openapi"'),
        /^SpecError: .*string\.json holds a string, not an OpenAPI document/,
      ],
      [
        'a newer OpenAPI',
        () => spec('v32.yaml', 'openapi: 3.2.0\ninfo: {title: x, version: "1"}\npaths: {}\n'),
        /^SpecError: Not an OpenAPI 3\.0\/3\.1 or Swagger 2\.0 document \(openapi: 3\.2\.0\)/,
      ],
      ['an object that is no spec', () => spec('package.json', '{ "name": "app" }'), /^SpecError: Not an OpenAPI/],
      [
        'an internal $ref that names nothing',
        () => spec('dangling.yaml', ok200('#/components/schemas/Nope')),
        /^SpecError: The spec is not valid OpenAPI:[^]*Missing \$ref pointer "#\/components\/schemas\/Nope"/,
      ],
      [
        'two operations of one operationId',
        () =>
          spec(
            'twice.yaml',
            ok200('#/components/schemas/A')
              .replace('    get:\n', '    get:\n      operationId: same\n')
              .replace(
                'paths:\n',
                "paths:\n  /b:\n    get:\n      operationId: same\n      responses: { '204': { description: none } }\n",
              ) + 'components:\n  schemas:\n    A: { type: object }\n',
          ),
        /^SpecError: The spec is not valid OpenAPI:[^]*The operationId `same` is duplicated/,
      ],
      [
        'a $ref to a missing file',
        () => spec('gone-ref.yaml', ok200('./gone.yaml#/Pet')),
        /^SpecError: Cannot read .*gone\.yaml \(the \$ref "\.\/gone\.yaml#\/Pet" in gone-ref\.yaml\): ENOENT/,
      ],
      [
        'a $ref into a file that lacks its pointer',
        () => {
          spec('pets.yaml', '- a\n');
          return spec('list-ref.yaml', ok200('./pets.yaml#/Pet'));
        },
        /^SpecError: The \$ref "\.\/pets\.yaml#\/Pet" in list-ref\.yaml names nothing: pets\.yaml has no #\/Pet\./,
      ],
      [
        'a $ref into a file that is not YAML',
        () => {
          spec('torn.yaml', 'Pet: {type: object\n  x: 1\n');
          return spec('torn-ref.yaml', ok200('./torn.yaml#/Pet'));
        },
        /^SpecError: torn\.yaml is neither JSON nor YAML/,
      ],
      [
        'a remote $ref',
        () => spec('remote-ref.yaml', ok200('https://example.com/pet.yaml#/Pet')),
        /^SpecError: Remote \$refs are not fetched/,
      ],
    ];
    for (const [what, file, error] of cases)
      it(what, async () => {
        const out = join(dir, `bad-out-${what.replace(/\W+/g, '-')}`);
        const result = await run(file(), '--out', out, '--quiet');
        expect(result.output).toMatch(error);
        expect(result.output).not.toMatch(/\n\s+at /);
        expect(result.code).toBe(1);
        expect(() => readFileSync(join(out, 'index.ts'))).toThrow();
      });

    it('a JSON file that starts with a byte order mark is read', async () => {
      const text = readFileSync(swagger, 'utf8');
      const result = await run(spec('bom.json', `\uFEFF${text}`), '--out', join(dir, 'bom'), '--quiet');
      expect(result.output).toMatch(/^wrote \d+ changed file/);
      expect(result.code).toBe(0);
    }, 60_000);

    it('the command itself: the error on stdout, no stack trace on stderr, exit code 1 (and 2 for bad arguments)', () => {
      const bin = new URL('../bin/rx-rest-openapi.mjs', import.meta.url).pathname;
      const missing = spawnSync(process.execPath, [bin, join(dir, 'missing.yaml'), '--out', join(dir, 'bin-out')], {
        encoding: 'utf8',
      });
      expect(missing.stdout).toMatch(/^SpecError: Cannot read .*missing\.yaml/);
      expect(missing.stderr).toBe('');
      expect(missing.status).toBe(1);
      const file = join(dir, 'bin-file');
      writeFileSync(file, 'mine');
      const unwritable = spawnSync(process.execPath, [bin, yaml, '--out', join(file, 'api'), '--quiet'], {
        encoding: 'utf8',
      });
      expect(unwritable.stdout).toMatch(/^OutputError: Cannot write .*bin-file\/api/);
      expect(unwritable.stderr).toBe('');
      expect(unwritable.status).toBe(1);
      const usage = spawnSync(process.execPath, [bin, yaml, '--outdir', 'x'], { encoding: 'utf8' });
      expect(usage.stdout).toMatch(/Unknown option '--outdir'[^]*usage: rx-rest-openapi/);
      expect(usage.stderr).toBe('');
      expect(usage.status).toBe(2);
    }, 60_000);
  });
});
