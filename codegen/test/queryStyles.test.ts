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

  it("a resource's list and its pages write the list operation's styled parameters too", async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    const search = { filter: { status: 'open', owner: 'a&b' }, ids: [1, 2], lanes: ['fast', 'slow'] };
    const list = (await controller.fetch(api.TaskResource.getList, search)) as { id: number }[];
    expect(list.map((task) => task.id)).toEqual([1, 2]);
    expect(generated.server.requests.at(-1)).toBe(
      'GET /api/tasks?filter[owner]=a%26b&filter[status]=open&ids=1,2&lanes=fast%20slow',
    );
    const parsed = { filter: { owner: 'a&b', status: 'open' }, ids: ['1', '2'], lanes: ['fast', 'slow'] };
    expect(generated.server.queries.at(-1)).toEqual(parsed);
    await controller.fetch(api.TaskResource.getList.getPage, { ...search, page: 2 });
    expect(generated.server.queries.at(-1)).toEqual({ ...parsed, page: '2' });
    // a member made from the resource later (extend) keeps them
    const extended = api.TaskResource.extend({ getList: { name: 'Task.getList, extended' } });
    await controller.fetch(extended.getList, search);
    expect(generated.server.queries.at(-1)).toEqual(parsed);
    // and so does a standalone endpoint's extension
    await controller.fetch(api.search.extend({ name: 'search, extended' }), { filter: { status: 'open' }, ids: [3] });
    expect(generated.server.queries.at(-1)).toEqual({ filter: { status: 'open' }, ids: ['3'] });
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
    // a resource's: its list operation's (page and the other default ones left to rx-rest)
    expect(
      generated.model.decisions.filter((d) => d.subject.startsWith('GET /tasks ?')).map((d) => [d.subject, d.decision]),
    ).toEqual([
      ['GET /tasks ?filter', 'query style deepObject'],
      ['GET /tasks ?ids', 'query style form, not exploded'],
      ['GET /tasks ?lanes', 'query style spaceDelimited, not exploded'],
    ]);
    expect(generated.model.resources.find((r) => r.name === 'TaskResource')!.queryStyles).toBe(
      "{ filter: ['deepObject', true], ids: ['form', false], lanes: ['spaceDelimited', false] }",
    );
  });

  it('the output passes tsc --strict, the styled parameters typed as their schemas', () => {
    expect(typeCheck(generated.dir, generated.result.files.keys())).toEqual([]);
  }, 120_000);
});
