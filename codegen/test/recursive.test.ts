/**
 * Recursive schemas end to end: a Category tree (`children: Category[]`) and a Node chain (`parent: Node |
 * null`, its pk `nodeId`), generated, type-checked with `tsc --strict`, and driven through a Controller
 * against the mock server. openapi-backend's own mocks recurse without end on such schemas (a RangeError):
 * the mock server gives those responses examples cut where the schema reaches itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller } from 'rx-rest';
import { generateAgainstMock, typeCheck, type Generated } from './harness.js';

const fixture = (file: string) => new URL(`./fixtures/${file}`, import.meta.url).pathname;

describe('recursive schemas against the mock server', () => {
  let generated: Generated;
  beforeAll(async () => {
    generated = await generateAgainstMock(fixture('recursive.yaml'));
  }, 120_000);
  afterAll(() => generated?.dispose());

  it('generates entities that refer to themselves, and the output passes tsc --strict', () => {
    const { files } = generated.result;
    expect(files.get('Category.ts')).toMatch(/children: Category\[\] \| undefined = undefined;/);
    expect(files.get('Category.ts')).toMatch(/return \{ children: \[Category\] \};/);
    expect(files.get('Node.ts')).toMatch(/parent: Node \| null = null;/);
    expect(files.get('Node.ts')).toMatch(/return `\$\{this\.nodeId\}`;/);
    expect(generated.model.resources.map((r) => r.name).sort()).toEqual(['CategoryResource', 'NodeResource']);
    expect(typeCheck(generated.dir, files.keys())).toEqual([]);
  }, 120_000);

  it('the mock server answers the recursive operations with data of the spec’s shape', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    const categories = (await controller.fetch(api.CategoryResource.getList)) as any[];
    expect(categories.length).toBeGreaterThan(0);
    for (const category of categories) {
      expect(category).toBeInstanceOf(api.Category);
      expect(typeof category.id).toBe('number');
      expect(typeof category.name).toBe('string');
    }
    const tree: any = await controller.fetch(api.getCategoryTree, { id: categories[0].id });
    expect(tree.root).toBeInstanceOf(api.Category);
    const node: any = await controller.fetch(api.NodeResource.get, { nodeId: '1' });
    expect(node).toBeInstanceOf(api.Node);
    expect(node).toMatchObject({ nodeId: '1', label: expect.any(String) });
  }, 60_000);

  it('a created tree and chain are normalized: each level in its table, read back as instances', async () => {
    const api = await import(/* @vite-ignore */ `${generated.dir}/index.ts`);
    const controller = new Controller();
    const leaf = { id: 31, name: 'leaf', children: [] };
    const created: any = await controller.fetch(api.CategoryResource.getList.push, {
      id: 0,
      name: 'root',
      children: [{ id: 30, name: 'branch', children: [leaf] }],
    });
    expect(created.children[0]).toBeInstanceOf(api.Category);
    expect(created.children[0].children[0]).toBeInstanceOf(api.Category);
    const table = controller.getState().entities.Category!;
    expect(table['30']).toMatchObject({ name: 'branch', children: ['31'] });
    expect(table['31']).toMatchObject({ name: 'leaf' });
    expect(controller.get(api.Category, { id: 31 })).toMatchObject({ name: 'leaf' });

    const child: any = await controller.fetch(api.NodeResource.getList.push, {
      nodeId: 'c',
      label: 'child',
      parent: { nodeId: 'p', label: 'parent', parent: null },
    });
    expect(child.parent).toBeInstanceOf(api.Node);
    expect(child.parent.parent).toBeNull();
    // the mock server gives a created record its own pk
    expect(controller.getState().entities.Node![child.nodeId]).toMatchObject({ label: 'child', parent: 'p' });
  }, 60_000);
});
