/**
 * Specs of awkward shapes, each generated into a scratch directory and type-checked with `tsc --strict`:
 * schema and operation names that are also names the generated files use (rx-rest's imports, the
 * globals they rely on, the generated files' own names), schemas split across files, and recursive schemas
 * sent as request bodies.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Controller } from 'rx-rest';
import { generate } from '../src/generate.js';
import { typeCheck } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'rx-rest-openapi-edge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema: unknown) => ({ responses: { '200': { description: 'ok', ...json(schema) } } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const withId = (properties: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' }, ...properties },
});

/** Writes `files` (name → document) under a fresh directory; generates from `main` there. */
async function generateFrom(name: string, files: Record<string, unknown>, main = Object.keys(files)[0]!) {
  const root = join(dir, name);
  for (const [file, doc] of Object.entries(files)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), file.endsWith('.json') ? JSON.stringify(doc) : stringify(doc));
  }
  const out = join(root, 'out');
  const result = await generate(join(root, main), { out });
  return { result, out, files: readdirSync(out) };
}

describe('names the generated code already uses', () => {
  it('schemas and operations named Entity, schema, RestEndpoint, Date, createResource or like a generated file compile', async () => {
    const { result, out, files } = await generateFrom('clash', {
      'api.yaml': {
        openapi: '3.0.3',
        info: { title: 'clash', version: '1' },
        paths: {
          '/entities': { get: { operationId: 'listEntities', ...ok({ type: 'array', items: ref('Entity') }) } },
          '/schema/{id}': { get: { operationId: 'schema', parameters: [idParam], ...ok(ref('schema')) } },
          '/dates/{id}': { get: { operationId: 'createResource', parameters: [idParam], ...ok(ref('Date')) } },
          '/events/{id}': { get: { operationId: 'RestEndpoint', parameters: [idParam], ...ok(ref('Event')) } },
          '/types/{id}': { get: { operationId: 'getTypes', parameters: [idParam], ...ok(ref('Types')) } },
          '/stats': { get: { operationId: 'urlPrefix', ...ok(ref('RestEndpoint')) } },
        },
        components: {
          schemas: {
            Entity: withId({ name: { type: 'string' } }),
            schema: withId({ items: { type: 'array', items: ref('Entity') } }),
            Date: withId({ day: { type: 'string' } }),
            Event: withId({ at: { type: 'string', format: 'date-time' }, date: ref('Date') }),
            Types: withId(),
            Index: withId(),
            RestEndpoint: { type: 'object', properties: { total: { type: 'integer' } } },
          },
        },
      },
    });
    expect(typeCheck(out, files)).toEqual([]);
    const names = [...result.model.entities.map((e) => e.name), ...result.model.endpoints.map((e) => e.name)];
    for (const taken of ['Entity', 'schema', 'RestEndpoint', 'createResource', 'Date', 'urlPrefix'])
      expect(names).not.toContain(taken);
    // no two files whose names differ only in case (one file on macOS and Windows)
    const lower = files.map((file) => file.toLowerCase());
    expect(new Set(lower).size).toBe(files.length);
    // the table names stay the spec's
    expect(result.model.entities.find((e) => e.key === 'Entity')).toBeDefined();
  }, 60_000);
});

describe('schemas in other files', () => {
  const api = {
    openapi: '3.0.3',
    info: { title: 'split', version: '1' },
    paths: {
      '/pets': { get: ok({ type: 'array', items: { $ref: './schemas/pet.yaml#/Pet' } }) },
      '/pets/{id}': {
        parameters: [idParam],
        get: ok({ $ref: './schemas/pet.yaml#/Pet' }),
        delete: { responses: { '204': { description: 'gone' } } },
      },
      '/owners/{id}': { $ref: './paths/owner.yaml' },
    },
    components: {
      schemas: {
        Owner: { $ref: './schemas/owner.json' },
      },
    },
  };
  const files = {
    'api.yaml': api,
    'schemas/pet.yaml': {
      Pet: withId({ name: { type: 'string' }, tag: { $ref: '#/Tag' }, owner: { $ref: './owner.json' } }),
      Tag: { type: 'object', properties: { label: { type: 'string' } } },
    },
    'schemas/owner.json': withId({ pets: { type: 'array', items: { $ref: 'pet.yaml#/Pet' } } }),
    'paths/owner.yaml': {
      get: { operationId: 'getOwner', parameters: [idParam], ...ok({ $ref: '../schemas/owner.json' }) },
    },
  };

  it('refs relative to the file that holds them, from any working directory: their schemas are entities and types by name', async () => {
    const { result, out, files: written } = await generateFrom('split', files, 'api.yaml');
    expect(result.model.entities.map((e) => e.name).sort()).toEqual(['Owner', 'Pet']);
    expect(result.model.resources.map((r) => r.name)).toEqual(['PetResource']);
    expect(result.model.endpoints.map((e) => e.name)).toEqual(['getOwner']);
    const pet = result.model.entities.find((e) => e.name === 'Pet')!;
    expect(pet.fields.map((f) => f.name)).toEqual(['id', 'name', 'tag', 'owner']);
    expect(result.files.get('types.ts')).toContain('export type Tag = ');
    expect(typeCheck(out, written)).toEqual([]);
    // an endpoint is named after its operation (in errors, the devtools, the action log), as a resource's members are
    const mod = await import(/* @vite-ignore */ join(out, 'index.ts'));
    expect(mod.getOwner.name).toBe('getOwner');
    expect(mod.PetResource.get.name).toBe('Pet.get');
  }, 60_000);

  it('a ref to a missing file or pointer is a SpecError naming the ref and the file that holds it', async () => {
    const broken = { ...files, 'schemas/pet.yaml': { Pet: files['schemas/pet.yaml'].Pet } };
    const error = await generateFrom('broken', broken, 'api.yaml').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SpecError' });
    expect((error as Error).message).toMatch(/#\/Tag.*schemas\/pet\.yaml/);
    const missing = { ...files, 'paths/owner.yaml': { get: ok({ $ref: '../schemas/nowhere.json' }) } };
    const error2 = await generateFrom('missing', missing, 'api.yaml').catch((e: unknown) => e);
    expect(error2).toMatchObject({ name: 'SpecError' });
    expect((error2 as Error).message).toMatch(/\.\.\/schemas\/nowhere\.json.*paths\/owner\.yaml/);
  }, 60_000);
});

describe('a property named pk (Django REST Framework), which is also the method pk() of every Entity', () => {
  it('the pk is read from the record, and an instance holds the value as pkValue', async () => {
    const { out, files } = await generateFrom('pkField', {
      'api.yaml': {
        openapi: '3.0.3',
        info: { title: 'pk fields', version: '1' },
        paths: {
          '/books': { get: { operationId: 'listBooks', ...ok({ type: 'array', items: ref('Book') }) } },
          '/books/{pk}': {
            get: {
              operationId: 'getBook',
              parameters: [{ name: 'pk', in: 'path', required: true, schema: { type: 'integer' } }],
              ...ok(ref('Book')),
            },
          },
          '/authors/{id}': { get: { operationId: 'getAuthor', parameters: [idParam], ...ok(ref('Author')) } },
        },
        components: {
          schemas: {
            Book: {
              type: 'object',
              required: ['pk', 'title'],
              properties: { pk: { type: 'integer' }, title: { type: 'string' } },
            },
            Author: withId({ pk: { type: 'string' }, name: { type: 'string' } }),
          },
        },
      },
    });
    expect(typeCheck(out, files)).toEqual([]);
    const api = await import(/* @vite-ignore */ join(out, 'index.ts'));
    const controller = new Controller();
    controller.setResponse(api.BookResource.getList, [
      { pk: 1, title: 'one' },
      { pk: 2, title: 'two' },
    ]);
    const books: any[] = controller.getResponse(api.BookResource.getList).data as any[];
    expect(books.map((book) => book.pk())).toEqual(['1', '2']);
    expect(books.map((book) => book.pkValue)).toEqual([1, 2]);
    expect(controller.get(api.Book, { pk: 2 })).toMatchObject({ title: 'two', pkValue: 2 });
    controller.setResponse(api.getAuthor, { id: 7 }, { id: 7, pk: 'a-7', name: 'Ann' });
    const author: any = controller.getResponse(api.getAuthor, { id: 7 }).data;
    expect(author.pk()).toBe('7');
    expect(author.pkValue).toBe('a-7');
  }, 60_000);
});

describe('recursive schemas', () => {
  it('an entity that refers to itself and to another that refers back, sent as a body: its input types refer to each other by name', async () => {
    const node = withId({
      left: ref('Node'),
      right: ref('Node'),
      children: { type: 'array', items: ref('Node') },
      owner: ref('Owner'),
    });
    const owner = withId({ root: ref('Node'), manager: ref('Owner'), reports: { type: 'array', items: ref('Owner') } });
    const { result, out, files } = await generateFrom('recursive', {
      'api.yaml': {
        openapi: '3.0.3',
        info: { title: 'recursive', version: '1' },
        paths: {
          '/nodes': {
            get: ok({ type: 'array', items: ref('Node') }),
            post: { requestBody: json(ref('Node')), ...ok(ref('Node')) },
          },
          '/nodes/{id}': {
            parameters: [idParam],
            get: ok(ref('Node')),
            put: { requestBody: json(ref('Node')), ...ok(ref('Node')) },
          },
        },
        components: { schemas: { Node: node, Owner: owner } },
      },
    });
    const types = result.files.get('types.ts')!;
    expect(types).toMatch(/export type NodeInput = \{[^}]*left\?: NodeInput;[^}]*owner\?: OwnerInput/);
    expect(types).toMatch(/export type OwnerInput = \{[^}]*root\?: NodeInput;[^}]*reports\?: OwnerInput\[\]/);
    expect(types.length).toBeLessThan(2_000);
    expect(typeCheck(out, files)).toEqual([]);
  }, 60_000);
});

describe('request bodies that are not required', () => {
  it('requestBody.required false or absent (OpenAPI: not required) makes the body argument optional; required: true keeps it', async () => {
    const note = { type: 'object', properties: { text: { type: 'string' } } };
    const { out, files } = await generateFrom('optionalBody', {
      'api.yaml': {
        openapi: '3.0.3',
        info: { title: 'optional bodies', version: '1' },
        paths: {
          '/ping': { post: { operationId: 'ping', requestBody: json(note), ...ok(note) } },
          '/pong': { post: { operationId: 'pong', requestBody: { required: false, ...json(note) }, ...ok(note) } },
          '/notes': { post: { operationId: 'addNote', requestBody: { required: true, ...json(note) }, ...ok(note) } },
          '/items': {
            get: { operationId: 'listItems', ...ok({ type: 'array', items: ref('Item') }) },
            post: { operationId: 'addItem', requestBody: json(ref('Item')), ...ok(ref('Item')) },
          },
          '/items/{id}': {
            get: { operationId: 'getItem', parameters: [idParam], ...ok(ref('Item')) },
            put: { operationId: 'putItem', parameters: [idParam], requestBody: json(ref('Item')), ...ok(ref('Item')) },
          },
          '/tags': {
            get: { operationId: 'listTags', ...ok({ type: 'array', items: ref('Tag') }) },
            post: { operationId: 'addTag', requestBody: json(ref('Tag')), ...ok(ref('Tag')) },
          },
          '/tags/{id}': {
            get: { operationId: 'getTag', parameters: [idParam], ...ok(ref('Tag')) },
            put: {
              operationId: 'putTag',
              parameters: [idParam],
              requestBody: { required: true, ...json(ref('Tag')) },
              ...ok(ref('Tag')),
            },
          },
        },
        components: {
          schemas: { Item: withId({ name: { type: 'string' } }), Tag: withId({ label: { type: 'string' } }) },
        },
      },
    });
    writeFileSync(
      join(out, 'calls.ts'),
      [
        `import { ping, pong, addNote, ItemResource, TagResource } from './index.js';`,
        `ping(); pong(); ping({ text: 'a' }); pong({ text: 'b' });`,
        `addNote({ text: 'c' });`,
        `// @ts-expect-error a required body`,
        `addNote();`,
        `ItemResource.getList.push(); ItemResource.update({ id: 1 }); ItemResource.update({ id: 1 }, { id: 1, name: 'n' });`,
        `TagResource.update({ id: 1 }, { id: 1, label: 'x' });`,
        `// @ts-expect-error a required body (PUT /tags/{id} requires it)`,
        `TagResource.update({ id: 1 });`,
      ].join('\n'),
    );
    expect(typeCheck(out, [...files, 'calls.ts'])).toEqual([]);
  }, 60_000);
});
