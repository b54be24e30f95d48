/**
 * Review of the OpenAPI generator (API.md "Code generation from OpenAPI", docs/openapi.md), written from
 * the contract: a spec with $ref cycles, nullable refs (allOf + nullable), allOf composition, a
 * discriminated oneOf with a mapping, and path parameters with styles. Generated, type-checked with
 * `tsc --strict` and run through a Controller against the spec-driven mock server (openapi-backend),
 * as codegen/test does.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { generateAgainstMock, typeCheck, type Generated } from '../../../codegen/test/harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('cycles, nullable refs, allOf, a mapped discriminator and path styles (OpenAPI 3.0)', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('shapes11.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('decides entities, pks, the union and the resource as the rules say', () => {
    const { model } = generated;
    const entities = Object.fromEntries(model.entities.map((e) => [e.name, e.pk]));
    expect(entities).toMatchObject({
      Person: 'id',
      TreeNode: 'id',
      Named: 'id',
      Circle: 'id',
      Square: 'id',
      Item: 'id',
    });
    expect(entities.Address).toBeUndefined(); // no pk: a type
    expect(model.unions).toContainEqual({
      name: 'Shape',
      attribute: 'kind',
      members: { round: 'Circle', boxy: 'Square' },
    });
    expect(model.resources.map((r) => r.name)).toContain('PersonResource');
    const named = model.entities.find((e) => e.name === 'Named')!;
    expect(named.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['id', 'createdAt', 'name']));
  });

  it('passes tsc --strict; nullable fields and refs are typed with null; the union narrows by its mapped values', () => {
    writeFileSync(
      join(generated.dir, 'use11.ts'),
      [
        `import type { Person, Shape, TreeNode, PersonInput } from './index.js';`,
        `export const nick = (p: Person): string | null => p.nickname;`,
        `export const best = (p: Person): Person | null => p.bestFriend;`,
        `export const parent = (n: TreeNode): TreeNode | null => n.parent;`,
        `export const size = (s: Shape): number => (s.kind === 'round' ? s.radius : s.side);`,
        `// @ts-expect-error a readOnly id is not part of the body`,
        `export const body: PersonInput = { id: 3, name: 'x' };`,
      ].join('\n'),
    );
    expect(typeCheck(generated.dir, [...generated.result.files.keys(), 'use11.ts'])).toEqual([]);
  }, 120_000);

  it('reads people through the resource, and people whose friends refer back to them', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    const people = (await c.fetch(api.PersonResource.getList)) as any[];
    expect(people.length).toBeGreaterThan(0);
    expect(people[0]).toBeInstanceOf(api.Person);
    const one: any = await c.fetch(api.PersonResource.get, { id: people[0].id });
    expect(one).toBeInstanceOf(api.Person);
    const ann = { id: 1, name: 'Ann', nickname: null, bestFriend: { id: 2, name: 'Bob', bestFriend: 1 }, friends: [2] };
    c.setResponse(api.PersonResource.get, { id: 1 }, ann);
    const read: any = c.getResponse(api.PersonResource.get, { id: 1 }).data;
    expect(read.bestFriend).toBeInstanceOf(api.Person);
    expect(read.bestFriend.name).toBe('Bob');
    expect(read.bestFriend.bestFriend.name).toBe('Ann');
    expect(read.friends[0]).toBe(read.bestFriend);
    expect(read.nickname).toBeNull();
    const tree = { id: 'root', label: 'r', parent: null, children: [{ id: 'leaf', label: 'l', parent: 'root' }] };
    c.setResponse(api.getNode, { nodeId: 'root' }, tree);
    const node: any = c.getResponse(api.getNode, { nodeId: 'root' }).data;
    expect(node).toBeInstanceOf(api.TreeNode);
    expect(node.children[0].parent.label).toBe('r');
    c.dispose();
  });

  it('lists shapes as the entity their mapped discriminator value names', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    c.setResponse(api.listShapes, [
      { id: 1, kind: 'round', radius: 2 },
      { id: 2, kind: 'boxy', side: 3 },
    ]);
    const shapes = c.getResponse(api.listShapes).data as any[];
    expect(shapes.map((s) => s.constructor)).toEqual([api.Circle, api.Square]);
    c.dispose();
  });

  it('writes path parameters in their style: label (.x) and matrix (;point=x)', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    await c.fetch(api.getByLabel, { label: 'x' }).catch(() => undefined);
    await c.fetch(api.getByMatrix, { point: 'p' }).catch(() => undefined);
    expect(generated.server.requests).toContain('GET /v1/labels/.x');
    expect(generated.server.requests).toContain('GET /v1/matrix/;point=p');
    c.dispose();
  });

  it('an item path whose parameter has a style gives endpoints that write it, not a resource', async () => {
    const { model } = generated;
    expect(model.resources.map((r) => r.name)).not.toContain('TagResource');
    expect(model.decisions).toContainEqual(
      expect.objectContaining({ subject: '/tags/{tagId}', decision: 'endpoints, no resource' }),
    );
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    await c.fetch(api.getTag, { tagId: 3 }).catch(() => undefined);
    expect(generated.server.requests).toContain('GET /v1/tags/;tagId=3');
    c.dispose();
  });

  it('creates, patches and deletes people through the resource against the mock server', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    const before = ((await c.fetch(api.PersonResource.getList)) as any[]).length;
    const created: any = await c.fetch(api.PersonResource.getList.push, { name: 'Cy', nickname: null });
    expect(created).toBeInstanceOf(api.Person);
    expect(created.name).toBe('Cy');
    expect((c.getResponse(api.PersonResource.getList).data as any[]).length).toBe(before + 1);
    const patched: any = await c.fetch(api.PersonResource.partialUpdate, { id: created.id }, { name: 'Cyd' });
    expect(patched.name).toBe('Cyd');
    await c.fetch(api.PersonResource.delete, { id: created.id });
    expect((c.getResponse(api.PersonResource.getList).data as any[]).map((p) => p.id)).not.toContain(created.id);
    expect(generated.server.records.get('PersonResource')?.has(String(created.id))).toBe(false);
    c.dispose();
  });

  it('an array path parameter is taken as the array and written as its style says (simple: 1,2)', async () => {
    expect(generated.model.decisions).toContainEqual(
      expect.objectContaining({ subject: 'GET /items/{ids} {ids}', decision: 'path style simple (an array)' }),
    );
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    await c.fetch(api.getItemsByIds, { ids: [1, 2] }).catch(() => undefined);
    expect(generated.server.requests).toContain('GET /v1/items/1,2');
    expect(generated.server.pathParams).toContainEqual({ ids: ['1', '2'] });
    c.dispose();
  });
});
