/** The mapping rules of the analysis, one small spec per rule (no I/O: spec → model). */
import { describe, expect, it } from 'vitest';
import { analyze } from '../src/analyze.js';
import { convertPath } from '../src/naming.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema: unknown) => ({ responses: { '200': { description: 'ok', ...json(schema) } } });

function spec(
  schemas: Record<string, unknown>,
  paths: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  return { openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components: { schemas }, ...extra };
}

const Pet = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};

describe('pk inference', () => {
  it('x-rx-rest-pk, then id, then the item path parameter; a guess is marked', () => {
    const model = analyze(
      spec(
        {
          A: {
            type: 'object',
            'x-rx-rest-pk': 'code',
            properties: { id: { type: 'string' }, code: { type: 'string' } },
          },
          B: Pet,
          C: { type: 'object', properties: { slug: { type: 'string' }, title: { type: 'string' } } },
          D: { type: 'object', properties: { uuid: { type: 'string' } } },
          E: { type: 'object', properties: { title: { type: 'string' } } },
        },
        { '/c/{slug}': { get: ok(ref('C')) } },
      ),
    );
    const pk = Object.fromEntries(model.entities.map((e) => [e.name, e.pk]));
    expect(pk).toEqual({ A: 'code', B: 'id', C: 'slug', D: 'uuid' });
    // guessed: D's pk, and the name of an operation without operationId
    expect(model.decisions.filter((d) => d.guessed).map((d) => d.subject)).toEqual(['D', 'GET /c/{slug}']);
  });

  it('x-rx-rest-entity: false and the config override the spec', () => {
    const model = analyze(spec({ A: { ...Pet, 'x-rx-rest-entity': false }, B: Pet }), {
      schemas: { B: { key: 'Bee' } },
    });
    expect(model.entities.map((e) => [e.name, e.key])).toEqual([['B', 'Bee']]);
  });
});

describe('fields', () => {
  it('nested entities: required → an instance default, optional/nullable → undefined/null; arrays, maps, allOf, expandable', () => {
    const model = analyze(
      spec({
        Owner: Pet,
        Tag: Pet,
        Base: {
          type: 'object',
          properties: { id: { type: 'string' }, created: { type: 'string', format: 'date-time' } },
        },
        Pet: {
          allOf: [
            ref('Base'),
            {
              type: 'object',
              required: ['owner', 'created'],
              properties: {
                owner: ref('Owner'),
                previous: { ...ref('Owner') },
                foster: { allOf: [ref('Owner')], nullable: true },
                tags: { type: 'array', items: ref('Tag') },
                byName: { type: 'object', additionalProperties: ref('Tag') },
                vet: { anyOf: [{ type: 'string' }, ref('Owner')] },
                status: { type: 'string', enum: ['a', 'b'] },
              },
            },
          ],
        },
      }),
    );
    const pet = model.entities.find((e) => e.name === 'Pet')!;
    const field = (name: string) => pet.fields.find((f) => f.name === name)!;
    expect(field('owner')).toMatchObject({ type: 'Owner', init: 'Owner.fromJS()', schema: 'Owner' });
    expect(field('previous')).toMatchObject({ type: 'Owner | undefined', init: 'undefined', schema: 'Owner' });
    expect(field('foster')).toMatchObject({ init: 'null', schema: 'Owner' });
    expect(field('tags')).toMatchObject({ schema: '[Tag]' });
    expect(field('byName')).toMatchObject({ schema: 'new schema.Values(Tag)' });
    expect(field('vet')).toMatchObject({ type: 'string | Owner | undefined', schema: 'Owner' });
    expect(field('created')).toMatchObject({
      type: 'Date',
      init: 'new Date(0)',
      schema: '(iso: string) => new Date(iso)',
    });
    expect(field('status').type).toBe("'a' | 'b' | undefined");
    expect(pet.lazySchema).toBe(true);
    expect(analyze(spec({ Pet: Base() }), { temporal: true }).entities[0]!.fields[1]).toMatchObject({
      type: 'Temporal.Instant',
      schema: 'Temporal.Instant.from',
    });
  });

  it('a discriminated oneOf of entities is a schema.Union', () => {
    const model = analyze(
      spec({
        Cat: Pet,
        Dog: Pet,
        Animal: {
          oneOf: [ref('Cat'), ref('Dog')],
          discriminator: {
            propertyName: 'kind',
            mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' },
          },
        },
      }),
    );
    expect(model.unions).toEqual([{ name: 'Animal', attribute: 'kind', members: { cat: 'Cat', dog: 'Dog' } }]);
  });
});

function Base() {
  return {
    type: 'object',
    required: ['id', 'created'],
    properties: { id: { type: 'string' }, created: { type: 'string', format: 'date-time' } },
  };
}

describe('resources and endpoints', () => {
  const paths = {
    '/pets': {
      get: {
        parameters: [{ name: 'cursor', in: 'query', schema: { type: 'string' } }],
        ...ok({ type: 'object', properties: { data: { type: 'array', items: ref('Pet') }, next: { type: 'string' } } }),
      },
      post: {
        requestBody: json({
          type: 'object',
          properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
        }),
        ...ok(ref('Pet')),
      },
    },
    '/pets/{petId}': {
      get: ok(ref('Pet')),
      patch: { requestBody: json(ref('Pet')), ...ok(ref('Pet')) },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/pets/{petId}/vaccinate': {
      post: {
        operationId: 'vaccinate_pet',
        parameters: [{ name: 'X-Trace', in: 'header', schema: { type: 'string' } }],
        ...ok(ref('Pet')),
      },
    },
    '/owners/{owner-id}/pets/{petId}': {
      get: ok(ref('Pet')),
      delete: { operationId: 'removeOwnerPet', responses: { '204': { description: 'gone' } } },
    },
  };
  const model = analyze(
    spec({ Pet }, paths, {
      servers: [{ url: 'https://{host}/v1/', variables: { host: { default: 'api.example.com' } } }],
    }),
  );

  it('a collection path and its item path make <Entity>Resource; an envelope list and its pagination field', () => {
    expect(model.resources).toHaveLength(1);
    const resource = model.resources[0]!;
    expect(resource).toMatchObject({
      name: 'PetResource',
      path: '/pets/:id',
      paginationField: 'cursor',
      listSchema: '{ data: new schema.Collection([Pet]), next: undefined }'.replace(', next: undefined', ''),
    });
    expect(resource.body).toBe('{ name?: string }');
    expect(Object.keys(resource.members)).toEqual(['get', 'getList', 'push', 'partialUpdate', 'delete']);
  });

  it('other operations: RestEndpoints named by camelCased operationId, renamed path params, Invalidate for DELETE, headers', () => {
    const vaccinate = model.endpoints.find((e) => e.name === 'vaccinatePet')!;
    expect(vaccinate).toMatchObject({ method: 'POST', path: '/pets/:petId/vaccinate', schema: 'Pet' });
    const remove = model.endpoints.find((e) => e.name === 'removeOwnerPet')!;
    expect(remove).toMatchObject({ path: '/owners/:owner_id/pets/:petId', schema: 'new schema.Invalidate(Pet)' });
    expect(model.headers).toContain('header X-Trace');
    expect(model.urlPrefix).toBe('https://api.example.com/v1');
  });

  it('paths rx-rest cannot express are reported', () => {
    expect(convertPath('/v1/{name}:cancel')).toMatch(/':'/);
    expect(convertPath('/files/{id}abc')).toMatch(/followed by/);
    expect(convertPath('/a/{b.c}/{d}')).toEqual({
      path: '/a/:b_c/:d',
      renamed: new Map([['b.c', 'b_c']]),
      params: ['b.c', 'd'],
    });
  });
});

describe('success codes, nullable enums, keywords beside a $ref, defaults', () => {
  it("the response is the first 2xx with a JSON body (a 200 without one, then a 202 with one, reads the 202's)", () => {
    const model = analyze(
      spec(
        { Pet },
        {
          '/pets/{id}/archive': {
            post: {
              operationId: 'archivePet',
              responses: {
                '200': { description: 'no body' },
                '202': { description: 'accepted', ...json(ref('Pet')) },
              },
            },
          },
          '/pets/{id}/touch': {
            post: {
              operationId: 'touchPet',
              responses: { '204': { description: 'none' }, '200': { description: 'none' } },
            },
          },
        },
      ),
    );
    expect(model.endpoints.find((e) => e.name === 'archivePet')!.schema).toBe('Pet');
    expect(model.endpoints.find((e) => e.name === 'touchPet')!.schema).toBeUndefined();
  });

  it('an enum that lists null is nullable: its type has null', () => {
    const model = analyze(
      spec({
        Pet: {
          ...Pet,
          properties: {
            ...Pet.properties,
            size: { enum: ['s', 'm', null] },
            mood: { type: ['string', 'null'], enum: ['ok', null] },
          },
        },
        Size: { type: 'string', enum: ['s', null], nullable: true },
      }),
    );
    const pet = model.entities[0]!;
    expect(pet.fields.find((f) => f.name === 'size')).toMatchObject({ type: "'s' | 'm' | null", init: 'null' });
    expect(pet.fields.find((f) => f.name === 'mood')).toMatchObject({ type: "'ok' | null", init: 'null' });
    expect(model.types.find((t) => t.name === 'Size')!.type).toBe("'s' | null");
  });

  it('readOnly and writeOnly beside a $ref (OpenAPI 3.1) leave the field out of bodies and out of the entity', () => {
    const model = analyze(
      spec(
        {
          Owner: Pet,
          Pet: {
            ...Pet,
            properties: {
              ...Pet.properties,
              owner: { ...ref('Owner'), readOnly: true },
              secret: { ...ref('Secret'), writeOnly: true },
            },
          },
          Secret: { type: 'string' },
        },
        { '/pets': { post: { operationId: 'addPet', requestBody: json(ref('Pet')), ...ok(ref('Pet')) } } },
      ),
    );
    const pet = model.entities.find((e) => e.name === 'Pet')!;
    expect(pet.fields.map((f) => f.name)).toEqual(['id', 'name', 'owner']);
    const input = model.types.find((t) => t.name === 'PetInput')!.type;
    expect(input).toBe('{ id: number; name: string; secret?: Secret }');
  });

  it("an optional field with a default takes it (the server's value when the field is left out)", () => {
    const model = analyze(
      spec({
        Pet: {
          ...Pet,
          properties: {
            ...Pet.properties,
            color: { type: 'string', default: "it's red" },
            legs: { type: 'integer', default: 4 },
            good: { type: 'boolean', default: true },
            size: { type: 'string', enum: ['s', 'm'], default: 'm' },
            tag: { type: 'string', nullable: true, default: 'x' },
          },
        },
      }),
    );
    const field = (name: string) => model.entities[0]!.fields.find((f) => f.name === name);
    expect(field('color')).toMatchObject({ type: 'string', init: "'it\\'s red'" });
    expect(field('legs')).toMatchObject({ type: 'number', init: '4' });
    expect(field('good')).toMatchObject({ type: 'boolean', init: 'true' });
    expect(field('size')).toMatchObject({ type: "'s' | 'm'", init: "'m'" });
    expect(field('tag')).toMatchObject({ type: 'string | null', init: "'x'" });
  });

  it('a list or an object default is taken too; one that its type does not allow is not', () => {
    const model = analyze(
      spec({
        Pet: {
          ...Pet,
          properties: {
            ...Pet.properties,
            tags: { type: 'array', items: { type: 'string' }, default: ['a', "b's"] },
            counts: { type: 'object', additionalProperties: { type: 'integer' }, default: { a: 1 } },
            wrong: { type: 'array', items: { type: 'integer' }, default: ['x'] },
            notList: { type: 'array', items: { type: 'integer' }, default: { a: 1 } },
          },
        },
      }),
    );
    const field = (name: string) => model.entities[0]!.fields.find((f) => f.name === name);
    expect(field('tags')).toMatchObject({ type: 'string[]', init: '["a","b\'s"]' });
    expect(field('counts')).toMatchObject({ type: '{ [key: string]: number }', init: '{"a":1}' });
    expect(field('wrong')).toMatchObject({ type: 'number[] | undefined', init: 'undefined' });
    expect(field('notList')).toMatchObject({ type: 'number[] | undefined', init: 'undefined' });
  });
});

describe('x-rx-rest-* in the spec', () => {
  it('a value of the wrong kind is a SpecError naming the schema and the extension', () => {
    const bad = (extension: Record<string, unknown>) => () => analyze(spec({ Pet: { ...Pet, ...extension } }));
    expect(bad({ 'x-rx-rest-entity': 'false' })).toThrow(/x-rx-rest-entity of Pet must be true or false, not "false"/);
    expect(bad({ 'x-rx-rest-pk': ['id'] })).toThrow(/x-rx-rest-pk of Pet must be a property name \(a string\)/);
    expect(bad({ 'x-rx-rest-key': 5 })).toThrow(/x-rx-rest-key of Pet must be a string, not 5/);
    expect(bad({ 'x-rx-rest-key': '' })).toThrow(/x-rx-rest-key of Pet must be a string, not ""/);
    expect(bad({ 'x-rx-rest-entity': 'false' })).toThrow(expect.objectContaining({ name: 'SpecError' }));
  });
});

describe('allOf inheritance', () => {
  it('a subtype that adds nothing to its base (allOf: [Base]) has its own body type, not the base union', () => {
    const model = analyze(
      spec(
        {
          Pet: {
            ...Pet,
            properties: { ...Pet.properties, kind: { type: 'string' } },
            discriminator: { propertyName: 'kind' },
          },
          Cat: { allOf: [ref('Pet'), { type: 'object', properties: { lives: { type: 'integer' } } }] },
          Dog: { allOf: [ref('Pet')] },
        },
        { '/pets': { post: { operationId: 'addPet', requestBody: json(ref('Pet')), ...ok(ref('Pet')) } } },
      ),
    );
    expect(model.unions).toEqual([{ name: 'Pet', attribute: 'kind', members: { Cat: 'Cat', Dog: 'Dog' } }]);
    expect(model.endpoints[0]!.body).toBe('CatInput | DogInput');
    expect(model.types.find((t) => t.name === 'DogInput')!.type).toBe("{ id: number; name: string; kind?: 'Dog' }");
    expect(model.entities.find((e) => e.name === 'Dog')!.fields.find((f) => f.name === 'kind')).toMatchObject({
      type: "'Dog' | undefined",
      init: 'undefined',
    });
  });

  it("subtypes take the base's pk however the base found it: its item path's parameter, or a guess from its own name", () => {
    const Animal = {
      type: 'object',
      required: ['animalId', 'animalType'],
      properties: { animalId: { type: 'integer' }, animalType: { type: 'string' }, name: { type: 'string' } },
      discriminator: { propertyName: 'animalType' },
    };
    const extend = (base: string, field: string) => ({
      allOf: [ref(base), { type: 'object', properties: { [field]: { type: 'boolean' } } }],
    });
    const schemas = { Animal, Dog: extend('Animal', 'barks'), Cat: extend('Animal', 'purrs') };
    const item = { '/animals/{animalId}': { get: { operationId: 'getAnimal', ...ok(ref('Animal')) } } };
    for (const model of [analyze(spec(schemas, item)), analyze(spec(schemas))]) {
      expect(model.entities.map((e) => [e.name, e.pk]).sort()).toEqual([
        ['Cat', 'animalId'],
        ['Dog', 'animalId'],
      ]);
      expect(model.unions).toEqual([{ name: 'Animal', attribute: 'animalType', members: { Cat: 'Cat', Dog: 'Dog' } }]);
    }
  });

  it('subtypes that are not entities leave the base an entity of its own', () => {
    const model = analyze(
      spec({
        Pet: { ...Pet, discriminator: { propertyName: 'name' } },
        Note: { allOf: [ref('Pet')], 'x-rx-rest-entity': false },
      }),
    );
    expect(model.entities.map((e) => e.name)).toEqual(['Pet']);
    expect(model.unions).toEqual([]);
  });
});

describe('responses that are not JSON', () => {
  it('text is read as a string, a binary type as a Blob, and typed so; a mix of both is left to the Content-Type', () => {
    const body = (content: Record<string, unknown>) => ({ responses: { '200': { description: 'ok', content } } });
    const model = analyze(
      spec(
        {},
        {
          '/report': { get: { operationId: 'getReport', ...body({ 'text/csv': { schema: { type: 'string' } } }) } },
          '/photo': {
            get: {
              operationId: 'getPhoto',
              ...body({ 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/jpeg': {} }),
            },
          },
          '/either': { get: { operationId: 'getEither', ...body({ 'text/plain': {}, 'application/pdf': {} }) } },
        },
      ),
    );
    const endpoint = (name: string) => model.endpoints.find((e) => e.name === name)!;
    expect(endpoint('getReport')).toMatchObject({ content: 'text', resultType: 'string' });
    expect(endpoint('getPhoto')).toMatchObject({ content: 'blob', resultType: 'Blob' });
    expect(endpoint('getEither')).toMatchObject({ content: undefined, resultType: undefined });
  });
});

describe('types of plain JSON', () => {
  it('an array of a union of objects is the array of the union, not a union with one array', () => {
    const A = { type: 'object', properties: { a: { type: 'integer' } } };
    const B = { type: 'object', properties: { b: { type: 'string' } } };
    const model = analyze(
      spec({}, { '/mixed': { get: { operationId: 'listMixed', ...ok({ type: 'array', items: { anyOf: [A, B] } }) } } }),
    );
    expect(model.endpoints[0]!.resultType).toBe('({ a?: number } | { b?: string })[]');
  });

  it('properties beside additionalProperties of another type: the index signature admits their types too', () => {
    // (Jersey's MultivaluedMap: `empty` beside lists of strings)
    const headers = {
      type: 'object',
      properties: {
        empty: { type: 'boolean' },
        size: { type: 'integer' },
        first: { type: 'array', items: { type: 'string' } },
      },
      additionalProperties: { type: 'array', items: { type: 'string' } },
    };
    const model = analyze(spec({}, { '/headers': { get: { operationId: 'getHeaders', ...ok(headers) } } }));
    expect(model.endpoints[0]!.resultType).toBe(
      '{ empty?: boolean; size?: number; first?: string[]; [key: string]: string[] | boolean | number | undefined }',
    );
  });
});
