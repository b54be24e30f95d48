/**
 * Query parameters written as their `style` and `explode` say (OpenAPI 3, "Style Values"), shown against the
 * spec-driven mock server, whose openapi-backend parses them by the same rules: deepObject, unexploded arrays and
 * objects (form, pipeDelimited), an exploded object (its properties as parameters), and rx-rest's own writing of
 * the default (exploded arrays as a repeated key, scalars).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('query parameter styles', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('query-styles.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('writes each parameter as its style says, and the server reads back what was sent', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    const result = await controller.fetch(api.search, {
      filter: { status: 'open', owner: 'a&b' },
      ids: [1, 2],
      point: { x: 1, y: 2 },
      lanes: ['fast', 'slow'],
      range: { from: 3, to: 9 },
      tags: ['red', 'blue'],
      q: 'x,y z',
    });
    expect(result).toEqual({ total: 2 });
    expect(generated.server.requests.at(-1)).toBe(
      // keys sorted as rx-rest sorts them (an object's too), an exploded object's properties where it stands
      'GET /api/search?filter[owner]=a%26b&filter[status]=open&ids=1,2&lanes=fast|slow&point=x,1,y,2' +
        '&q=x%2Cy%20z&from=3&to=9&tags=red&tags=blue',
    );
    expect(generated.server.queries.at(-1)).toEqual({
      filter: { owner: 'a&b', status: 'open' },
      ids: ['1', '2'],
      point: ['x', '1', 'y', '2'],
      lanes: ['fast', 'slow'],
      from: '3',
      to: '9',
      tags: ['red', 'blue'],
      q: 'x,y z',
    });
  }, 60_000);

  it('prints what it decided for each styled parameter, and leaves the default ones to rx-rest', () => {
    const styled = generated.model.decisions.filter((d) => d.subject.startsWith('GET /search ?'));
    expect(styled.map((d) => [d.subject, d.decision])).toEqual([
      ['GET /search ?filter', 'query style deepObject'],
      ['GET /search ?ids', 'query style form, not exploded'],
      ['GET /search ?point', 'query style form, not exploded'],
      ['GET /search ?lanes', 'query style pipeDelimited, not exploded'],
      ['GET /search ?range', 'query style form'],
    ]);
    expect(generated.model.endpoints.find((e) => e.name === 'search')!.queryStyles).toBe(
      "{ filter: ['deepObject', true], ids: ['form', false], point: ['form', false], lanes: ['pipeDelimited', false], range: ['form', true] }",
    );
  });

  it('the output passes tsc --strict, the styled parameters typed as their schemas', () => {
    expect(typeCheck(generated.dir, generated.result.files.keys())).toEqual([]);
  }, 120_000);
});
