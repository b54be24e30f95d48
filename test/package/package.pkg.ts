/**
 * The installable package: `npm run build`, `npm pack`, then `npm install` of the tarball (with rxjs,
 * svelte and solid-js) into a scratch project in the OS temp folder. There, `rx-rest`, `rx-rest/svelte`,
 * `rx-rest/solid` and `rx-rest/persist` must load in Node ESM and type-check under `moduleResolution`
 * `bundler` and `node16`. The scratch project's modules declare their own Todo: they import only the
 * installed package, not the test fixtures.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Runs a command, resolving its stdout; rejects with its whole output when it fails. */
function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** The version of a dependency in the repository's node_modules. */
const installedVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

let scratch: string;
let files: string[];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rx-rest-package-'));
  await run('npm', ['run', 'build'], ROOT);
  const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', scratch], ROOT)) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed[0]!.files.map((file) => file.path);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  await run(
    'npm',
    [
      'install',
      `./${packed[0]!.filename}`,
      // the versions the repository is tested with (already in npm's cache after `npm ci`)
      ...['rxjs', 'svelte', 'solid-js'].map((name) => `${name}@${installedVersion(name)}`),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    scratch,
  );
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the built JS and the declarations of every entry point, and no sources or tests', () => {
    for (const file of [
      'package.json',
      'dist/index.js',
      'dist/svelte.js',
      'dist/solid.js',
      'dist/devtools.js',
      'dist/types/adapters/devtools/index.d.ts',
      'dist/types/core/index.d.ts',
      'dist/types/adapters/svelte/index.d.ts',
      'dist/types/adapters/solid/index.d.ts',
      'dist/persist.js',
      'dist/types/adapters/persist/index.d.ts',
      'dist/sync.js',
      'dist/types/adapters/sync/index.d.ts',
    ]) {
      expect(files).toContain(file);
    }
    expect(
      files.filter(
        (file) => /^(core|adapters|test|demos)\//.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts')),
      ),
    ).toEqual([]);
  });

  it("loads 'rx-rest', 'rx-rest/svelte' and 'rx-rest/solid' in Node ESM, and works", async () => {
    writeFileSync(
      join(scratch, 'runtime.mjs'),
      `
import { Controller, Entity, NetworkError, createResource, holdHydration, isHydrating, schema } from 'rx-rest';
import * as svelte from 'rx-rest/svelte';
import * as solid from 'rx-rest/solid';
import * as devtools from 'rx-rest/devtools';
import { persist } from 'rx-rest/persist';
import * as sync from 'rx-rest/sync';

class Todo extends Entity {
  id = 0;
  title = '';
  pk() { return String(this.id); }
  static key = 'Todo';
}
const TodoResource = createResource({ urlPrefix: 'http://api.test', path: '/todos/:id', schema: Todo });
const controller = new Controller();
controller.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'Packed' });
const todo = controller.getResponse(TodoResource.get, { id: 1 }).data;
const saves = new Map();
const storage = { getItem: (k) => saves.get(k) ?? null, setItem: (k, v) => saves.set(k, v), removeItem: (k) => saves.delete(k) };
const first = new Controller({ managers: [(c) => persist(c, { storage })] });
first.setResponse(TodoResource.get, { id: 1 }, { id: 1, title: 'Persisted' });
first.dispose();
const reloaded = new Controller({ managers: [(c) => persist(c, { storage })] });
const release = holdHydration();
const hydrating = isHydrating();
release();
console.log(JSON.stringify({
  url: TodoResource.getList.url({}),
  title: todo.title,
  isTodo: todo instanceof Todo,
  networkError: typeof NetworkError,
  schema: typeof schema.Collection,
  svelte: Object.keys(svelte).sort(),
  solid: Object.keys(solid).sort(),
  devtools: Object.keys(devtools).sort(),
  teardown: typeof devtools.connectDevtools(controller, { name: 'packed' }),
  panel: typeof devtools.mountDevtools(controller),
  persisted: reloaded.getResponse(TodoResource.get, { id: 1 }).data?.title,
  sync: Object.keys(sync).sort(),
  hydration: [hydrating, isHydrating()],
}));
`,
    );
    const result = JSON.parse(await run(process.execPath, ['runtime.mjs'], scratch));
    expect(result).toMatchObject({
      url: 'http://api.test/todos',
      title: 'Packed',
      isTodo: true,
      schema: 'function',
      networkError: 'function',
      persisted: 'Persisted',
      hydration: [true, false],
    });
    expect(result.svelte).toEqual(
      expect.arrayContaining([
        'createQuery',
        'fetchQuery',
        'getController',
        'loadController',
        'setController',
        'useLive',
        'useSuspense',
      ]),
    );
    // mountDevtools in Node (no document) mounts nothing and returns its (no-op) teardown
    expect(result).toMatchObject({
      devtools: ['connectDevtools', 'mountDevtools'],
      teardown: 'function',
      panel: 'function',
    });
    expect(result.sync).toEqual(['syncTabs']);
    expect(result.solid).toEqual(
      expect.arrayContaining([
        'ControllerProvider',
        'controllerPerRequest',
        'createQuery',
        'preloadQuery',
        'useController',
        'useLive',
        'useSuspense',
      ]),
    );
  });

  it.each(['bundler', 'node16'] as const)('type-checks under moduleResolution %s', async (resolution) => {
    writeFileSync(
      join(scratch, 'types.ts'),
      `
import { Controller, Entity, createResource, holdHydration, type QueryState } from 'rx-rest';
import { createQuery as svelteQuery, fetchQuery } from 'rx-rest/svelte';
import { createQuery as solidQuery, type ControllerProvider } from 'rx-rest/solid';
import { connectDevtools, mountDevtools } from 'rx-rest/devtools';
import type { Readable } from 'svelte/store';
import type { Resource } from 'solid-js';
import { persist, type PersistStorage } from 'rx-rest/persist';
import { syncTabs } from 'rx-rest/sync';

export class Todo extends Entity {
  id = 0;
  title = '';
  pk() {
    return \`\${this.id}\`;
  }
  static override key = 'Todo';
}
export const TodoResource = createResource({ urlPrefix: 'http://api.test', path: '/todos/:id', schema: Todo });
const controller = new Controller();
export const one: Promise<Todo> = controller.fetch(TodoResource.get, { id: 1 });
export const many: Promise<Todo[]> = controller.fetch(TodoResource.getList);
// @ts-expect-error: the path requires id
controller.fetch(TodoResource.get, {});
export const store: Readable<QueryState<Todo[]>> = svelteQuery(TodoResource.getList, undefined, controller);
export const awaited = (id: number): Promise<Todo> => fetchQuery(TodoResource.get, { id });
export const release: () => void = holdHydration();
export type Solid = [typeof solidQuery, typeof ControllerProvider, Resource<Todo>];
export const stop: () => void = connectDevtools(controller, { name: 'packed' });
export const unmount: () => void = mountDevtools(controller, { initialIsOpen: true });
declare const idb: PersistStorage;
export const restored: Promise<boolean> = persist(controller, { storage: idb, version: 1 }).restored;
export const synced = new Controller({ managers: [(c) => syncTabs(c, { channel: 'todos' })] });
`,
    );
    const module = resolution === 'node16' ? 'node16' : 'esnext';
    writeFileSync(
      join(scratch, `tsconfig.${resolution}.json`),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module,
          moduleResolution: resolution,
          strict: true,
          noImplicitOverride: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['types.ts'],
      }),
    );
    await run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], scratch);
  });
});
