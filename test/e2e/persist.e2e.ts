/**
 * rx-rest/persist in Chromium: a small vite page (served in dev mode) lists the REST server's todos
 * with `persist` as a manager, on localStorage and on IndexedDB (the storage of docs/addons.md, as
 * written there). After a reload with the REST server unreachable, the list comes from the save.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySeed, startRestServer, type RestServer, type SeedTodo } from '../../demos/server/restServer.mjs';
import { ROOT, extractBlocks } from '../docs/codeBlocks.js';
import { launchBrowser } from './browser.js';

const SOON = { timeout: 15_000, interval: 100 };

/** The IndexedDB storage function of docs/addons.md, exported. */
function docsStorage(): string {
  const blocks = extractBlocks('docs/addons.md', readFileSync(join(ROOT, 'docs/addons.md'), 'utf8')).blocks;
  const code = blocks.find((block) => block.code.includes('function indexedDbStorage'))?.code;
  const fn = code?.match(/\nfunction indexedDbStorage[\s\S]*?\n}\n/)?.[0];
  if (!fn) throw new Error('docs/addons.md has no indexedDbStorage function');
  return `import type { PersistStorage } from 'rx-rest/persist';\nexport ${fn.trim()}\n`;
}

// the page's module imports the package as an app does, so it declares its own Todo (not the test fixtures')
const main = (api: string) => `
import { Controller, Entity, createResource } from 'rx-rest';
import { persist, type Persistence } from 'rx-rest/persist';
import { indexedDbStorage } from './storage';

class Todo extends Entity {
  id = 0;
  title = '';
  pk() {
    return \`\${this.id}\`;
  }
  static override key = 'Todo';
}
const TodoResource = createResource({ urlPrefix: ${JSON.stringify(api)}, path: '/todos/:id', schema: Todo });
const storage = new URL(location.href).searchParams.get('storage') === 'idb' ? indexedDbStorage() : localStorage;
let persistence: Persistence | undefined;
const controller = new Controller({
  retry: 0,
  managers: [(c) => (persistence = persist(c, { storage, key: 'e2e', version: 1 }))],
});
(window as unknown as { persistence: Persistence }).persistence = persistence!;
const list = document.getElementById('list')!;
// render once the save was read (at once for localStorage), as docs/addons.md advises for IndexedDB
void persistence!.restored.then(() =>
  controller.observe(TodoResource.getList, {}).subscribe((state) => {
    list.textContent = (state.data ?? []).map((todo) => todo.title).join('|');
  }),
);
`;

let seed: ReturnType<typeof copySeed>;
let rest: RestServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let server: ViteDevServer;
let url: string;
let dir: string;

beforeAll(async () => {
  seed = copySeed();
  rest = await startRestServer({ file: seed.file, port: 0 });
  browser = await launchBrowser();
  dir = mkdtempSync(join(tmpdir(), 'rx-rest-persist-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'storage.ts'), docsStorage());
  writeFileSync(join(dir, 'src', 'main.ts'), main(rest.url));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><body><p id="list"></p><script type="module" src="/src/main.ts"></script></body></html>',
  );
  server = await createServer({
    configFile: false,
    root: dir,
    cacheDir: join(dir, '.vite'),
    logLevel: 'silent',
    resolve: {
      alias: [
        { find: /^rx-rest$/, replacement: join(ROOT, 'core/index.ts') },
        { find: /^rx-rest\/persist$/, replacement: join(ROOT, 'adapters/persist/index.ts') },
      ],
    },
    server: { host: '127.0.0.1', port: 0, fs: { allow: [dir, ROOT, join(ROOT, 'node_modules')] } },
  });
  await server.listen();
  const address = server.httpServer!.address();
  if (!address || typeof address === 'string') throw new Error('vite did not listen on a port');
  url = `http://127.0.0.1:${address.port}/`;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await browser?.close();
  await rest?.close();
  seed?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const serverTitles = async () =>
  ((await (await fetch(`${rest.url}/todos`)).json()) as SeedTodo[]).map((todo) => todo.title).join('|');

const listed = (page: Page) => page.locator('#list').textContent();

/** Opens the page; records page errors, console warnings and requests to the REST server. */
async function open(storage: 'local' | 'idb') {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('request', (request) => {
    if (request.url().startsWith(rest.url)) requests.push(request.url());
  });
  await page.goto(`${url}?storage=${storage}`);
  return { page, errors, warnings, requests };
}

describe('rx-rest/persist in Chromium', () => {
  it('localStorage: the save made when the page was left shows the list after a reload, with no request', async () => {
    const expected = await serverTitles();
    const { page, errors, warnings, requests } = await open('local');
    await expect.poll(() => listed(page), SOON).toBe(expected);
    expect(requests).toHaveLength(1);
    // reload at once: if the throttled save is still pending, pagehide saves it
    await page.route(`${rest.url}/**`, (route) => route.abort());
    requests.length = 0;
    await page.reload();
    await expect.poll(() => listed(page), SOON).toBe(expected);
    expect(
      await page.evaluate(
        () => (window as unknown as { persistence: { restored: Promise<boolean> } }).persistence.restored,
      ),
    ).toBe(true);
    expect(requests).toEqual([]);
    const saved = JSON.parse((await page.evaluate(() => localStorage.getItem('e2e')))!) as {
      format: string;
      version: number;
    };
    expect(saved).toMatchObject({ format: 'rx-rest', version: 1 });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    await page.close();
  }, 60_000);

  it('IndexedDB (the storage of docs/addons.md): flushed, then restored when it answers while the server is unreachable', async () => {
    const expected = await serverTitles();
    const { page, errors, warnings } = await open('idb');
    await expect.poll(() => listed(page), SOON).toBe(expected);
    await page.evaluate(() => (window as unknown as { persistence: { flush(): Promise<void> } }).persistence.flush());
    await page.route(`${rest.url}/**`, (route) => route.abort());
    await page.reload();
    expect(
      await page.evaluate(
        () => (window as unknown as { persistence: { restored: Promise<boolean> } }).persistence.restored,
      ),
    ).toBe(true);
    await expect.poll(() => listed(page), SOON).toBe(expected);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    await page.close();
  }, 60_000);
});
