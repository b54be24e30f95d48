/**
 * Review of the OpenAPI generator with an OpenAPI 3.1 document, written from API.md and docs/openapi.md:
 * `type: [x, 'null']`, a nullable ref as `oneOf: [$ref, {type: 'null'}]`, Stripe-like `anyOf: [string, $ref]`,
 * a `$ref` cycle between two entities, a discriminated `oneOf` whose members name themselves by `const`,
 * a parameter renamed to a word, server variables, an envelope list with a cursor. Generated, type-checked
 * with `tsc --strict` and run through a Controller against the spec-driven mock server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { generateAgainstMock, typeCheck, type Generated } from '../../../codegen/test/harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('an OpenAPI 3.1 document', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('spec31.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('decides entities, the union, the envelope resource and its cursor', () => {
    const { model } = generated;
    expect(Object.fromEntries(model.entities.map((e) => [e.name, e.pk]))).toEqual({
      Account: 'id',
      User: 'id',
      Created: 'id',
      Deleted: 'id',
    });
    expect(model.unions).toContainEqual({
      name: 'Event',
      attribute: 'type',
      members: { Created: 'Created', Deleted: 'Deleted' },
    });
    expect(model.resources.map((r) => r.name)).toEqual(['AccountResource']);
  });

  it('passes tsc --strict; null in type arrays and oneOf, the expandable field, the union narrowed by const', () => {
    writeFileSync(
      join(generated.dir, 'use11.ts'),
      [
        `import type { Account, Event, User } from './index.js';`,
        `export const label = (a: Account): string | null => a.label;`,
        `export const manager = (a: Account): User | null => a.manager;`,
        `export const parent = (a: Account): string | Account | undefined => a.parent;`,
        `export const when = (e: Event): Date | undefined => (e.type === 'Deleted' ? e.at : undefined);`,
      ].join('\n'),
    );
    expect(typeCheck(generated.dir, [...generated.result.files.keys(), 'use11.ts'])).toEqual([]);
  }, 120_000);

  it('a discriminator field given by const has its value as the class default, as one given by enum does', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    expect(api.Created.fromJS({ id: 'c' }).type).toBe('Created');
    expect(api.Deleted.fromJS({ id: 'd' }).type).toBe('Deleted');
  });

  it('reads accounts and users that refer to each other, expandable parents, and events by their type', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    c.setResponse(api.AccountResource.getList, {
      data: [
        { id: 'a1', label: null, owner: { id: 7, accounts: ['a1', 'a2'] }, manager: null },
        { id: 'a2', owner: 7, manager: { id: 8 }, parent: 'a1' },
      ],
      next: null,
    });
    const page = c.getResponse(api.AccountResource.getList).data as any;
    const [a1, a2] = page.data;
    expect(a1).toBeInstanceOf(api.Account);
    expect(a1.owner).toBeInstanceOf(api.User);
    expect(a2.owner).toBe(a1.owner);
    expect(a1.owner.accounts[1]).toBe(a2);
    expect(a1.manager).toBeNull();
    expect(a2.manager).toBeInstanceOf(api.User);
    expect(a2.parent).toBe(a1);
    c.setResponse(api.listEvents, [
      { id: 'e1', type: 'Created', account: 'a2' },
      { id: 'e2', type: 'Deleted', at: '2024-05-01T00:00:00Z' },
    ]);
    const events = c.getResponse(api.listEvents).data as any[];
    expect(events.map((e) => e.constructor)).toEqual([api.Created, api.Deleted]);
    expect(events[0].account).toBe(a2);
    expect(events[1].at).toBeInstanceOf(Date);
    c.dispose();
  });

  it('gets one account by its renamed parameter from the mock server', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const c = new Controller({ retry: 0 });
    await c.fetch(api.AccountResource.get, { id: 'a b/c' }).catch(() => undefined);
    expect(generated.server.requests).toContain('GET /v2/accounts/a%20b%2Fc');
    c.dispose();
  });
});
