/**
 * The README's Svelte page and Solid page, run as written: their blocks (api.ts, the components) become
 * a small vite app in a scratch folder, served in dev mode against the demos' REST server, and driven in
 * Chromium: the list shows user 1's todos, a toggle and an added todo reach the server, and "Switch user"
 * shows user 2's todos. Only the REST server's address in api.ts is replaced by the test server's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Page } from 'playwright-core';
import { createServer, type PluginOption, type ViteDevServer } from 'vite';
import solid from 'vite-plugin-solid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySeed, startRestServer, type RestServer, type SeedTodo } from '../../demos/server/restServer.mjs';
import { ROOT, extractBlocks, type CodeBlock } from '../docs/codeBlocks.js';
import { launchBrowser } from './browser.js';

const SOON = { timeout: 15_000, interval: 100 };
const README_API = 'http://127.0.0.1:3210';

const blocks = extractBlocks('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')).blocks;
const block = (file: string): CodeBlock => {
  const found = blocks.find((candidate) => candidate.file === file);
  if (!found) throw new Error(`README.md has no block named ${file}`);
  return found;
};

let seed: ReturnType<typeof copySeed>;
let rest: RestServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
const scratches: string[] = [];
const servers: ViteDevServer[] = [];

beforeAll(async () => {
  seed = copySeed();
  rest = await startRestServer({ file: seed.file, port: 0 });
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.allSettled(servers.map((server) => server.close()));
  await browser?.close();
  await rest?.close();
  seed?.remove();
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

/** Writes the app's files (README blocks plus index.html) to a scratch folder and serves it with vite. */
async function serve(files: Record<string, string>, entry: string, plugin: PluginOption): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'rx-rest-readme-'));
  scratches.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'src'));
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, 'src', name), code);
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><body><div id="app"></div><script type="module" src="/src/${entry}"></script></body></html>`,
  );
  const server = await createServer({
    configFile: false,
    root: dir,
    cacheDir: join(dir, '.vite'),
    logLevel: 'silent',
    plugins: [plugin],
    resolve: {
      alias: [
        { find: /^rx-rest$/, replacement: join(ROOT, 'core/index.ts') },
        { find: /^rx-rest\/svelte$/, replacement: join(ROOT, 'adapters/svelte/index.ts') },
        { find: /^rx-rest\/solid$/, replacement: join(ROOT, 'adapters/solid/index.ts') },
      ],
    },
    server: { host: '127.0.0.1', port: 0, fs: { allow: [dir, ROOT, join(ROOT, 'node_modules')] } },
  });
  servers.push(server);
  await server.listen();
  const address = server.httpServer!.address();
  if (!address || typeof address === 'string') throw new Error('vite did not listen on a port');
  return `http://127.0.0.1:${address.port}/`;
}

const api = () => {
  const code = block('api.ts').code;
  expect(code).toContain(README_API);
  return code.replace(README_API, rest.url);
};

async function todosOf(userId: number): Promise<SeedTodo[]> {
  return (await (await fetch(`${rest.url}/todos?userId=${userId}`)).json()) as SeedTodo[];
}

/** The page's todo titles, in order. */
const titles = (page: Page) => page.locator('li label').allTextContents();

async function exercise(url: string, app: string) {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);

  const ada = await todosOf(1);
  await expect
    .poll(async () => (await titles(page)).map((title) => title.trim()), SOON)
    .toEqual(ada.map((todo) => todo.title));

  // toggle the first todo: optimistic, then saved
  const first = ada[0]!;
  await page.locator('li input[type=checkbox]').first().click();
  await expect
    .poll(async () => ((await (await fetch(`${rest.url}/todos/${first.id}`)).json()) as SeedTodo).completed, SOON)
    .toBe(!first.completed);

  // add one: it joins the list and the server has it (POST /todos, no query string)
  const title = `Added from the README's ${app} page`;
  await page.locator('form input').fill(title);
  await page.locator('form button').click();
  await expect.poll(async () => (await titles(page)).map((text) => text.trim()), SOON).toContain(title);
  const created = (await todosOf(1)).find((todo) => todo.title === title);
  expect(created).toMatchObject({ userId: 1, completed: false });

  // switch user
  await page.getByRole('button', { name: 'Switch user' }).click();
  const grace = await todosOf(2);
  await expect
    .poll(async () => (await titles(page)).map((text) => text.trim()), SOON)
    .toEqual(grace.map((todo) => todo.title));
  expect(errors).toEqual([]);
  await page.close();
}

describe("the README's pages, run as written", () => {
  it('the Svelte page', async () => {
    const url = await serve(
      {
        'api.ts': api(),
        'App.svelte': block('App.svelte').code,
        'TodoList.svelte': block('TodoList.svelte').code,
        'main.ts': block('main.ts').code,
      },
      'main.ts',
      svelte(),
    );
    await exercise(url, 'Svelte');
  }, 90_000);

  it('the Solid page', async () => {
    const url = await serve({ 'api.ts': api(), 'App.tsx': block('App.tsx').code }, 'App.tsx', solid());
    await exercise(url, 'Solid');
  }, 90_000);
});
