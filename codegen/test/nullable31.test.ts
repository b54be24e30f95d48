/**
 * Nullable references and type lists of OpenAPI 3.1 (fixtures/nullable31.yaml): `oneOf`/`anyOf` with `type: 'null'`,
 * a `$ref` beside a description, `type: [string, 'null']` date-times and a date-time schema referred to by name.
 * Generated, type-checked with `tsc --strict`, and read from the mock server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = new URL('./fixtures/nullable31.yaml', import.meta.url).pathname;

describe('nullable refs and type lists (OpenAPI 3.1)', () => {
  let generated: Generated;
  let api: Record<string, any>;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture);
    api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('type-checks with tsc --strict', () => {
    expect(typeCheck(generated.dir, generated.result.files.keys())).toEqual([]);
  }, 60_000);

  it('each field typed as it is read', () => {
    const order = generated.model.entities.find((e) => e.name === 'Order')!;
    expect(Object.fromEntries(order.fields.map((f) => [f.name, f.type]))).toEqual({
      id: 'number',
      buyer: 'Customer | null',
      seller: 'Customer | null',
      courier: 'Customer',
      placedAt: 'Date',
      shippedAt: 'Date | null',
      priority: '1 | 2 | null',
    });
  });

  it('nested customers normalized (null kept), date-times as Dates', async () => {
    const table = new Map<string, Record<string, unknown>>();
    table.set('1', {
      id: 1,
      buyer: { id: 7, name: 'Ann' },
      seller: null,
      courier: { id: 8 },
      placedAt: '2024-05-06T07:08:09Z',
      shippedAt: null,
      priority: null,
    });
    table.set('2', {
      id: 2,
      buyer: null,
      seller: { id: 7, name: 'Ann' },
      courier: { id: 8 },
      placedAt: '2024-05-07T00:00:00Z',
      shippedAt: '2024-05-08T00:00:00Z',
      priority: 2,
    });
    generated.server.records.set('OrderResource', table);
    const controller = new Controller();
    const [first, second] = (await controller.fetch(api.OrderResource.getList)) as any[];
    expect(first.buyer).toBeInstanceOf(api.Customer);
    expect(first.seller).toBeNull();
    expect(second.buyer).toBeNull();
    expect(second.seller).toBe(first.buyer);
    expect(first.courier).toBe(second.courier);
    expect(first.placedAt).toEqual(new Date('2024-05-06T07:08:09Z'));
    expect(first.shippedAt).toBeNull();
    expect(second.shippedAt).toEqual(new Date('2024-05-08T00:00:00Z'));
    expect(Object.keys(controller.getState().entities.Customer!).sort()).toEqual(['7', '8']);
  }, 60_000);
});
