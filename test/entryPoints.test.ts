/**
 * The package's entry points (API.md, "Entry points"): `package.json` maps `rx-rest`, `rx-rest/svelte`
 * and `rx-rest/solid` in `exports`, types included, to the files the build makes of `core/index.ts`,
 * `adapters/svelte/index.ts` and `adapters/solid/index.ts`; `rxjs` is a peer dependency, `svelte` and
 * `solid-js` optional peers. (`npm run test:package` builds, packs and installs the package itself.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import viteConfig from '../vite.config.js';
import * as core from '../core/index.js';
import * as solid from '../adapters/solid/index.js';
import * as svelte from '../adapters/svelte/index.js';

const root = path.resolve(import.meta.dirname, '..');

interface PackageJson {
  exports: Record<string, string | { types?: string; import?: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;
const buildConfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8')) as {
  compilerOptions: { outDir: string; rootDir: string };
};
/** The build's entries (vite.config.ts `build.lib.entry`): output name -> source file. */
const entries = (viteConfig as { build: { lib: { entry: Record<string, string> } } }).build.lib.entry;

describe('package.json exports', () => {
  it.each([
    ['.', 'core/index.ts'],
    ['./svelte', 'adapters/svelte/index.ts'],
    ['./solid', 'adapters/solid/index.ts'],
  ])('maps %s to the build of %s, with its types', (subpath, source) => {
    const target = pkg.exports[subpath];
    expect(target, `exports["${subpath}"]`).toBeTypeOf('object');
    const { types, import: js } = target as { types?: string; import?: string };
    // the JS: the file vite builds from the source (dist/<entry name>.js)
    const name = Object.entries(entries).find(([, file]) => file === source)?.[0];
    expect(name, `a build entry for ${source}`).toBeDefined();
    expect(js).toBe(`./dist/${name}.js`);
    // the types: the declaration tsc -p tsconfig.build.json emits for the source
    const { outDir, rootDir } = buildConfig.compilerOptions;
    expect(rootDir).toBe('.');
    expect(types).toBe(`./${path.posix.join(outDir, source.replace(/\.ts$/, '.d.ts'))}`);
    // types first: TypeScript takes the first condition that matches
    expect(Object.keys(target as object)[0]).toBe('types');
  });

  it('has rxjs as a peer dependency (not bundled as a dependency), svelte and solid-js as optional peers', () => {
    expect(pkg.peerDependencies).toMatchObject({ rxjs: expect.any(String) });
    expect(pkg.dependencies?.rxjs).toBeUndefined();
    expect(pkg.peerDependenciesMeta?.rxjs?.optional).not.toBe(true);
    for (const name of ['svelte', 'solid-js']) {
      expect(pkg.peerDependencies?.[name], name).toEqual(expect.any(String));
      expect(pkg.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(pkg.dependencies?.[name], name).toBeUndefined();
    }
  });
});

describe('what each entry point holds', () => {
  it('rx-rest: schemas, endpoints, resources, the controller and the errors', () => {
    for (const name of [
      'Entity',
      'RestEndpoint',
      'createResource',
      'Controller',
      'NetworkError',
      'ParseError',
      'TimeoutError',
      'AbortError',
      'NormalizeError',
      'ValidationError',
      'DeserializeError',
      'SchemaDefinitionError',
      'EndpointDefinitionError',
    ] as const) {
      expect(core[name], name).toBeTypeOf('function');
    }
    for (const name of ['Array', 'Object', 'Collection', 'Invalidate', 'Union', 'Values', 'All', 'Query'] as const) {
      expect(core.schema[name], `schema.${name}`).toBeTypeOf('function');
    }
  });

  it('rx-rest/svelte and rx-rest/solid: the adapters, with the seed’s hook names', () => {
    for (const adapter of [svelte, solid]) {
      for (const name of ['createQuery', 'useLive', 'useSuspense'] as const)
        expect(adapter[name]).toBeTypeOf('function');
      // useLive is createQuery itself (it polls when the endpoint has pollFrequency)
      expect(adapter.useLive).toBe(adapter.createQuery);
    }
  });
});
