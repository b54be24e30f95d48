/**
 * One spec of many shapes (OpenAPI 3.1): an envelope with a cursor under a parent path with a dashed
 * parameter, query parameters with odd names, nullable fields in both spellings, readOnly and writeOnly,
 * enums, `date` and `date-time`, additionalProperties maps, a 200 without a body beside a 202 with one,
 * and a 204. Generated, type-checked with `tsc --strict`, and driven through a Controller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('a spec of many shapes', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('shapes.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('the output passes tsc --strict; dates, nullables, maps and bodies are typed as the spec says', () => {
    expect(typeCheck(generated.dir, generated.result.files.keys())).toEqual([]);
    const task = generated.model.entities.find((e) => e.name === 'Task')!;
    const field = (name: string) => task.fields.find((f) => f.name === name);
    expect(field('due')).toMatchObject({ type: 'string', schema: undefined });
    expect(field('created_at')).toMatchObject({ type: 'Date', schema: '(iso: string) => new Date(iso)' });
    expect(field('closed_at')).toMatchObject({ type: 'Date | null', init: 'null' });
    expect(field('reopened_at')).toMatchObject({ type: 'Date | null', init: 'null' });
    expect(field('secret')).toBeUndefined();
    expect(field('counts')!.type).toBe('{ [key: string]: number } | undefined');
    const input = generated.model.types.find((t) => t.name === 'TaskInput')!.type;
    expect(input).not.toMatch(/\bid\b|created_at/);
    expect(input).toMatch(/secret\?: string/);
    expect(generated.model.resources[0]).toMatchObject({
      path: '/orgs/:org_id/tasks/:id',
      paginationField: 'cursor',
      searchParams: "{ 'page[size]'?: number; 'filter.status'?: Status; cursor?: string | null } | undefined",
    });
  }, 120_000);

  it('lists with odd query names, reads, archives (202), reads maps, updates (204) and deletes through a Controller', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const { requests } = generated.server;
    const controller = new Controller();
    const args = { org_id: 'o-1', 'page[size]': 2, 'filter.status': "won't do" };
    const page: any = await controller.fetch(api.TaskResource.getList, args);
    expect(requests.at(-1)).toBe('GET /v2/orgs/o-1/tasks?filter.status=won%27t%20do&page%5Bsize%5D=2');
    expect(page.items.map((t: any) => t.constructor)).toEqual([api.Task, api.Task]);
    expect(page.items[0].created_at).toBeInstanceOf(Date);
    expect(page.items[0].labels[0]).toBeInstanceOf(api.Label);
    const id = page.items[0].id;
    const archived: any = await controller.fetch(api.archiveTask, { org_id: 'o-1', task_id: id, 'dry-run': true });
    expect(archived).toBeInstanceOf(api.Task);
    expect(requests.at(-1)).toMatch(/^POST \/v2\/orgs\/o-1\/tasks\/[^/]+\/archive\?dry-run=true$/);
    const stats: any = await controller.fetch(api.getStats);
    expect(typeof stats).toBe('object');
    const labels: any = await controller.fetch(api.listLabels);
    for (const label of Object.values(labels)) expect(label).toBeInstanceOf(api.Label);
    await controller.fetch(api.updateMe, { email: 'a@example.com', password: 'x' });
    expect(requests.at(-1)).toBe('PUT /v2/users/me');
    await controller.fetch(api.TaskResource.delete, { org_id: 'o-1', id });
    const left = controller.getResponse(api.TaskResource.getList, args).data as any;
    expect(left.items.map((t: any) => t.id)).not.toContain(id);
  }, 60_000);
});
