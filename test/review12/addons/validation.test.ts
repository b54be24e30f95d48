/**
 * Outside review of runtime validation (API.md "Runtime validation with Standard Schema"): zod 4, valibot 1
 * and arktype 2 validators on entities that are deleted (Invalidate), on hostile keys, on nested entities in
 * lists, async `responseSchema`s that reject, hand-written validators with odd issues; each failure is a
 * `ValidationError` and nothing in the store is lost.
 */
import { type } from 'arktype';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Entity,
  RestEndpoint,
  ValidationError,
  createResource,
  schema,
  type StandardSchemaV1,
} from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';

const API = 'https://review12-validation.example';
let responses: Record<string, unknown> = {};
let hits: Record<string, number> = {};
const server = setupServer(
  http.all(`${API}/*`, ({ request }) => {
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}${url.search}`;
    hits[key] = (hits[key] ?? 0) + 1;
    if (!(key in responses)) return HttpResponse.json({ message: `no answer for ${key}` }, { status: 404 });
    const body = responses[key];
    return body instanceof Response ? body : HttpResponse.json(body as never);
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  responses = {};
  hits = {};
});
afterAll(() => server.close());

const { make } = useControllers();

class Task extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'R12Task';
  static override validator = z.object({ id: z.number(), title: z.string().min(1) });
}
const tasks = createResource({ urlPrefix: API, path: '/tasks/:id', schema: Task });

describe('validators and deletion', () => {
  it.each([
    ['an empty body', null],
    ['the deleted record’s id alone', { id: 1 }],
  ])('delete answered with %s: the record is invalidated, no ValidationError', async (_, body) => {
    responses['GET /tasks/1'] = { id: 1, title: 'one' };
    responses['DELETE /tasks/1'] = body === null ? new Response(null, { status: 204 }) : body;
    const c = make();
    await c.fetch(tasks.get, { id: 1 });
    await expect(c.fetch(tasks.delete, { id: 1 })).resolves.not.toBeInstanceOf(Error);
    expect(c.getResponse(tasks.get, { id: 1 }).invalid).toBe(true);
  });

  it('a batch Invalidate of pks: no validator runs on the pks', async () => {
    responses['GET /tasks'] = [
      { id: 1, title: 'one' },
      { id: 2, title: 'two' },
    ];
    responses['POST /tasks/delete'] = new Response(null, { status: 204 });
    const removeMany = new RestEndpoint({
      urlPrefix: API,
      path: '/tasks/delete',
      method: 'POST',
      body: [] as number[],
      schema: [new schema.Invalidate(Task)],
      process: (_value: unknown, ...args: unknown[]) => (args.at(-1) as number[]).map((id) => ({ id })),
    });
    const c = make();
    await c.fetch(tasks.getList);
    await c.fetch(removeMany, [1]);
    expect(c.getResponse(tasks.getList, {}).data?.map((t) => t.id)).toEqual([2]);
  });
});

describe('validators and hostile keys', () => {
  it.each([
    ['zod looseObject', z.looseObject({ id: z.number() })],
    ['valibot looseObject', v.looseObject({ id: v.number() })],
    ['arktype', type({ id: 'number' })],
  ])('%s: a record holding __proto__ and constructor is stored as plain data', async (_, validator) => {
    class Loose extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'R12Loose';
      static override validator = validator as StandardSchemaV1;
    }
    const get = new RestEndpoint({ urlPrefix: API, path: '/loose/:id', schema: Loose });
    responses['GET /loose/1'] = new Response(
      '{"id":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
      {
        headers: { 'Content-Type': 'application/json' },
      },
    );
    const c = make();
    const loose = await c.fetch(get, { id: 1 });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(loose).toBeInstanceOf(Loose);
    expect(Object.getPrototypeOf(loose)).toBe(Loose.prototype);
  });
});

describe('nested entities in lists', () => {
  class Tag extends Entity {
    id = '';
    label = '';
    pk() {
      return this.id;
    }
    static override key = 'R12Tag';
    static override validator = v.object({ id: v.string(), label: v.pipe(v.string(), v.minLength(1)) });
  }
  class Note extends Entity {
    id = 0;
    tags: Tag[] = [];
    pk() {
      return `${this.id}`;
    }
    static override key = 'R12Note';
    static override schema = { tags: [Tag] };
    static override validator = type({ id: 'number', tags: 'unknown[]' });
  }
  const notes = createResource({ urlPrefix: API, path: '/notes/:id', schema: Note });

  it('a bad tag deep in the third note: ValidationError naming the tag; the list and every record stay as they were', async () => {
    responses['GET /notes'] = [{ id: 1, tags: [{ id: 'a', label: 'A' }] }];
    const c = make();
    await c.fetch(notes.getList);
    const before = c.getState();
    responses['GET /notes'] = [
      { id: 1, tags: [{ id: 'a', label: 'changed' }] },
      { id: 2, tags: [] },
      {
        id: 3,
        tags: [
          { id: 'b', label: 'B' },
          { id: 'c', label: '' },
        ],
      },
    ];
    const error = (await c.fetch(notes.getList).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.name).toBe('ValidationError');
    expect(error.entity).toBe('R12Tag');
    expect(error.pk).toBe('c');
    expect(error.message).toContain('R12Tag');
    expect(error.message).toContain('GET');
    expect(c.getState().entities).toEqual(before.entities);
    expect(c.getState().endpoints).toEqual(before.endpoints);
    expect(c.get(Tag, { id: 'a' })?.label).toBe('A');
  });
});

describe('async responseSchema', () => {
  it('a zod schema with an async refinement that fails: ValidationError with its issue; nothing stored', async () => {
    const checked = new RestEndpoint({
      urlPrefix: API,
      path: '/checked/:id',
      schema: Task,
      responseSchema: z
        .looseObject({ id: z.number() })
        .refine(async (value) => value.id < 10, { message: 'id too large' }),
    });
    responses['GET /checked/1'] = { id: 1, title: 'fine' };
    responses['GET /checked/2'] = { id: 12, title: 'too large' };
    const c = make({ retry: 2 });
    await c.fetch(checked, { id: 1 });
    const error = (await c.fetch(checked, { id: 2 }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues[0]?.message).toBe('id too large');
    expect(error.message).toContain('id too large');
    expect(c.get(Task, { id: 12 })).toBeUndefined();
    expect(c.get(Task, { id: 1 })?.title).toBe('fine');
    expect(hits['GET /checked/2']).toBe(1);
  });

  it('a hand-written async validate() that rejects: ValidationError whose cause is the rejection', async () => {
    const boom = new Error('validator service down');
    const checked = new RestEndpoint({
      urlPrefix: API,
      path: '/rejects',
      schema: Task,
      responseSchema: { '~standard': { version: 1, vendor: 'test', validate: () => Promise.reject(boom) } },
    });
    responses['GET /rejects'] = { id: 1, title: 'x' };
    const error = (await make()
      .fetch(checked)
      .catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.cause).toBe(boom);
  });
});

describe('hand-written validators with odd issues', () => {
  it.each([
    ['a null path segment', [{ message: 'bad', path: [null] }]],
    ['a symbol key', [{ message: 'bad', path: [Symbol('where')] }]],
    ['a path that is a number', [{ message: 'bad', path: 3 }]],
    ['an issue without a message', [{ path: ['title'] }]],
    ['no issue at all', []],
  ])('%s: still a ValidationError, nothing stored', async (_, issues) => {
    class Odd extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'R12Odd';
      static override validator: StandardSchemaV1 = {
        '~standard': { version: 1, vendor: 'test', validate: () => ({ issues: issues as never }) },
      };
    }
    const get = new RestEndpoint({ urlPrefix: API, path: '/odd/:id', schema: Odd });
    responses['GET /odd/1'] = { id: 1 };
    const c = make();
    const error = await c.fetch(get, { id: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).entity).toBe('R12Odd');
    expect(c.getState().entities.R12Odd).toBeUndefined();
  });
});
