/**
 * Array and object path parameters written as their `style` and `explode` say (OpenAPI 3, "Style Values"): the
 * generated client takes the array or object itself and writes it with the separators unescaped and each value
 * escaped; the spec-driven mock server reads each back by the same rules.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('path parameter styles', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('path-styles.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('writes an array path parameter (style simple, the default) as 1,2, and the server reads the items', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    expect(await controller.fetch(api.getItems, { ids: [1, 2], q: 'a,b', tags: ['x', 'y'] })).toEqual({ ok: true });
    // beside a styled query parameter (withQueryStyles around withPathStyles)
    expect(generated.server.requests.at(-1)).toBe('GET /api/items/1,2?q=a%2Cb&tags=x,y');
    expect(generated.server.pathParams.at(-1)).toEqual({ ids: ['1', '2'] });
    expect(generated.server.queries.at(-1)).toEqual({ q: 'a,b', tags: ['x', 'y'] });
    // a value holding a separator or a slash stays escaped
    await controller.fetch(api.getItems, { ids: ['3,4', '5/6'] as never });
    expect(generated.server.requests.at(-1)).toBe('GET /api/items/3%2C4,5%2F6');
    expect(generated.server.pathParams.at(-1)).toEqual({ ids: ['3,4', '5/6'] });
    // its extension writes it too
    await controller.fetch(api.getItems.extend({ name: 'getItems, extended' }), { ids: [7] });
    expect(generated.server.pathParams.at(-1)).toEqual({ ids: ['7'] });
  }, 60_000);

  it('writes simple exploded arrays and objects (a,1,b,2; exploded a=1,b=2)', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    await new Controller().fetch(api.getNames, {
      names: ['a b', 'c'],
      point: { y: '2', x: '1=' },
      fields: { x: 'p', y: 'q,r' },
    });
    expect(generated.server.requests.at(-1)).toBe('GET /api/names/a%20b,c/x,1%3D,y,2/x=p,y=q%2Cr');
    expect(generated.server.pathParams.at(-1)).toEqual({
      names: ['a b', 'c'],
      point: { x: '1=', y: '2' },
      fields: { x: 'p', y: 'q,r' },
    });
  }, 60_000);

  it('writes label arrays and objects (.1,2; exploded .1.2 and .x=1.y=2)', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    await new Controller().fetch(api.getLabel, {
      ids: [1, 2],
      more: ['a.b', 'c'],
      point: { x: '1', y: '2' },
      one: 'z',
    });
    expect(generated.server.requests.at(-1)).toBe('GET /api/label/.1,2/.a.b.c/.x=1.y=2/.z'.replace('a.b', 'a%2Eb'));
    expect(generated.server.pathParams.at(-1)).toEqual({
      ids: ['1', '2'],
      more: ['a.b', 'c'],
      point: { x: '1', y: '2' },
      one: 'z',
    });
  }, 60_000);

  it('writes matrix arrays and objects (;ids=1,2; exploded ;more=a;more=b and ;x=1;y=2)', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    await new Controller().fetch(api.getMatrix, {
      ids: [1, 2],
      more: ['a;b', 'c'],
      point: { x: '1', y: '2' },
      flat: { x: '3', y: '4' },
      one: 5,
    });
    expect(generated.server.requests.at(-1)).toBe(
      'GET /api/matrix/;ids=1,2/;more=a%3Bb;more=c/;x=1;y=2/;flat=x,3,y,4/;one=5',
    );
    expect(generated.server.pathParams.at(-1)).toEqual({
      ids: ['1', '2'],
      more: ['a;b', 'c'],
      point: { x: '1', y: '2' },
      flat: { x: '3', y: '4' },
      one: '5',
    });
  }, 60_000);

  it('prints what it decided for each styled path parameter', () => {
    const decided = generated.model.decisions.filter((d) => d.subject.startsWith('GET /items/{ids} {'));
    expect(decided.map((d) => d.decision)).toEqual(['path style simple (an array)']);
    expect(generated.model.endpoints.find((e) => e.name === 'getMatrix')!.pathStyles).toBe(
      "{ ids: ['matrix', false, 'ids'], more: ['matrix', true, 'more'], point: ['matrix', true, 'point'], flat: ['matrix', false, 'flat'] }",
    );
  });

  it('the output passes tsc --strict, the array and object path parameters typed as their schemas', () => {
    const uses = [
      `import { getItems, getNames } from './index.js';`,
      `void getItems({ ids: [1, 2] });`,
      `void getNames({ names: ['a'], point: { x: '1' }, fields: {} });`,
      `// @ts-expect-error -- an array, not a written-out value`,
      `void getItems({ ids: '1,2' });`,
      `// @ts-expect-error -- numbers`,
      `void getItems({ ids: ['a'] });`,
      `// @ts-expect-error -- required`,
      `void getItems({ q: 'x' });`,
    ];
    writeFileSync(join(generated.dir, 'calls.ts'), uses.join('\n'));
    expect(typeCheck(generated.dir, [...generated.result.files.keys(), 'calls.ts'])).toEqual([]);
  }, 120_000);
});
