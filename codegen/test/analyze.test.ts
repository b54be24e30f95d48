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
