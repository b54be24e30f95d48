/**
 * Servers: `servers[0]` with its variables' defaults is the client's urlPrefix; a path item's or an operation's own
 * `servers` (readme's server-path-level example, an OpenAPI 3.0 feature) are its endpoints' prefix instead (an empty
 * list inherits); the config's urlPrefix replaces them all. Generated, type-checked with `tsc --strict`, and asked
 * for each endpoint's URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report } from '../src/cli.js';
import { generate, type GenerateResult } from '../src/generate.js';
import { typeCheck } from './harness.js';

const require = createRequire(import.meta.url);
const spec = require.resolve('@readme/oas-examples/3.0/json/server-path-level.json');
const dir = mkdtempSync(join(tmpdir(), 'rx-rest-openapi-servers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a path item's and an operation's own servers", () => {
  let result: GenerateResult;
  let api: Record<string, any>;
  beforeAll(async () => {
    result = await generate(spec, { out: join(dir, 'own') });
    api = await import(/* @vite-ignore */ `${join(dir, 'own')}/index.ts`);
  }, 120_000);

  it('type-checks with tsc --strict', () => {
    expect(typeCheck(join(dir, 'own'), result.files.keys())).toEqual([]);
  }, 60_000);

  it('each endpoint requests the server its operation, else its path item, else the document names', () => {
    expect(result.model.urlPrefix).toBe('https://demo.example.com:443/v2');
    const urls = Object.fromEntries(result.model.endpoints.map((e) => [e.operation, api[e.name].url({})]));
    expect(urls).toEqual({
      'GET /relative-path-server': '/v2/relative-path-server',
      'GET /relative-operation-server': '/v3/relative-operation-server',
      'GET /operation-server-variables': 'https://operation.example.com/v3/operation-server-variables',
      'GET /path-item-ref-server': 'https://path-item-ref.example.com/path-item-ref-server',
      'GET /path-item-server-source': 'https://path-item-ref.example.com/path-item-server-source',
      'GET /empty-operation-servers': 'https://empty-operation-path.example.com/empty-operation-servers',
      'GET /empty-path-item-servers': 'https://demo.example.com:443/v2/empty-path-item-servers',
    });
    expect(report(result.model, 0)).toMatch(
      /GET \/relative-operation-server\s+urlPrefix "\/v3"\s+the operation's servers\[0\]/,
    );
  });

  it("the config's urlPrefix replaces every server", async () => {
    const configured = await generate(spec, { out: join(dir, 'config'), config: { urlPrefix: 'http://proxy/api' } });
    const mod = await import(/* @vite-ignore */ `${join(dir, 'config')}/index.ts`);
    for (const e of configured.model.endpoints) expect(mod[e.name].url({})).toBe(`http://proxy/api${e.path}`);
  }, 60_000);
});

describe('a resource whose operations have their own servers', () => {
  const ok = (schema: unknown) => ({
    responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
  });
  const item = { $ref: '#/components/schemas/Item' };
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
  const own = [{ url: 'https://{host}.example.com/v9/', variables: { host: { default: 'items' } } }];

  it("the resource takes its list and item GETs' server; an operation served elsewhere is an endpoint; list and item apart: no resource", async () => {
    const file = join(dir, 'resource.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'own servers', version: '1' },
        servers: [{ url: 'https://api.example.com' }],
        paths: {
          '/items': { servers: own, get: ok({ type: 'array', items: item }) },
          '/items/{id}': {
            servers: own,
            parameters: [id],
            get: ok(item),
            delete: { responses: { '204': { description: 'gone' } } },
            put: {
              operationId: 'putItem',
              servers: [{ url: '/elsewhere' }],
              requestBody: { content: { 'application/json': { schema: item } } },
              ...ok(item),
            },
          },
          '/notes': { get: ok({ type: 'array', items: { $ref: '#/components/schemas/Note' } }) },
          '/notes/{id}': { servers: own, parameters: [id], get: ok({ $ref: '#/components/schemas/Note' }) },
        },
        components: {
          schemas: {
            Item: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
            Note: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
          },
        },
      }),
    );
    const out = join(dir, 'resource');
    const result = await generate(file, { out });
    expect(typeCheck(out, result.files.keys())).toEqual([]);
    const mod = await import(/* @vite-ignore */ `${out}/index.ts`);
    expect(mod.ItemResource.get.url({ id: 1 })).toBe('https://items.example.com/v9/items/1');
    expect(mod.ItemResource.getList.url({})).toBe('https://items.example.com/v9/items');
    expect(mod.ItemResource.delete.url({ id: 1 })).toBe('https://items.example.com/v9/items/1');
    expect(result.model.resources.find((r) => r.entity === 'Item')!.members.update).toBeUndefined();
    expect(mod.putItem.url({ id: 1 })).toBe('/elsewhere/items/1');
    expect(mod.NoteResource).toBeUndefined();
    expect(report(result.model, 0)).toMatch(
      /\/notes\/\{id\}\s+endpoints, no resource\s+GET \/notes\/\{id\} and GET \/notes have different servers/,
    );
  }, 60_000);
});
