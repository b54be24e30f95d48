/**
 * The SolidStart demo (demos/solidstart-todo) rendered on the server and hydrated in Chromium, in dev
 * (`vinxi dev`) and in the production build (its Node server): the HTML holds the data, hydration makes
 * no request for it and logs no warning, concurrent renders never mix users, a REST server that is down
 * fails the page at once, and mutations and navigations fetch what they must, once. Every request that
 * reaches the REST server goes through a counting proxy, which tells the server render's requests
 * (Node's fetch) from the browser's (Chromium's user agent, through the app's /api route).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copySeed, startRestServer, type RestServer } from '../../demos/server/restServer.mjs';
import { startSolidStart } from '../../demos/server/solidStart.mjs';
import { launchBrowser } from './browser.js';

const SOON = { timeout: 10_000, interval: 100 };

interface Counted {
  readonly from: 'server' | 'browser';
  readonly method: string;
  readonly path: string;
}

/** A proxy in front of the REST server that logs every request (the live stream's included). */
async function countingProxy(target: () => string): Promise<{ url: string; log: Counted[]; close(): Promise<void> }> {
  const log: Counted[] = [];
  const server: Server = createServer((req, res) => {
    const from = /Chrome/.test(req.headers['user-agent'] ?? '') ? 'browser' : 'server';
    log.push({ from, method: req.method ?? 'GET', path: req.url ?? '/' });
    const upstream = httpRequest(`${target()}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"message":"REST server down"}');
    });
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const isData = (entry: Counted) => !entry.path.startsWith('/events');

/** Where the demo's `persist` keeps the tab's data (demos/solidstart-todo/src/controller.ts). */
const PERSIST_KEY = 'rx-rest-solidstart-demo';

/** A persisted save, as far as the test reads and edits it. */
interface Save {
  state: { entities: { Todo: Record<string, { title: string; userId: number }> } };
}

describe.each(['preview', 'dev'] as const)('SolidStart demo (%s)', (mode) => {
  let rest: RestServer;
  let seed: ReturnType<typeof copySeed>;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let app: Awaited<ReturnType<typeof startSolidStart>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const pages: Page[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    seed = copySeed();
    rest = await startRestServer({ file: seed.file });
    proxy = await countingProxy(() => rest.url);
    app = await startSolidStart({ mode, port: 0, api: proxy.url, logLevel: 'silent' });
    browser = await launchBrowser();
    // every page starts without the demo's persisted state (a test that wants one seeds it after this)
    await browser.context.addInitScript((key) => localStorage.removeItem(key), PERSIST_KEY);
    if (mode === 'dev') await (await fetch(`${app.url}todos/1`)).text(); // the first render compiles the routes
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await proxy?.close();
    await rest?.close();
    seed?.remove();
  });

  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
    if (!rest.running) await rest.start();
    rest.reset();
    expect(problems.splice(0)).toEqual([]);
  });

  /** Opens `path` and waits until the page is hydrated and its live stream is open. */
  async function open(path: string, setUp?: (page: Page) => Promise<void>): Promise<Page> {
    const page = await browser.context.newPage();
    pages.push(page);
    await setUp?.(page);
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      const text = message.text();
      if (message.type() === 'error' || message.type() === 'warning' || /hydrat/i.test(text)) {
        problems.push(`console ${message.type()}: ${text}`);
      }
    });
    await page.goto(new URL(path, app.url).href);
    await expect.poll(() => page.locator('[data-testid=stream-status]').getAttribute('data-status'), SOON).toBe('live');
    return page;
  }

  const html = async (path: string) => (await fetch(new URL(path, app.url))).text();
  const owners = (text: string) =>
    [...text.matchAll(/data-testid="todo-owner"[^>]*>user (?:<!--[^>]*-->)?(\d+)/g)].map((m) => m[1]);

  it('the server HTML holds the data of the page, and nothing of other users', async () => {
    const page = await html('/?userId=2');
    expect(page).toContain('Find the moth in the Mark II');
    expect(owners(page).length).toBeGreaterThan(0);
    expect(new Set(owners(page))).toEqual(new Set(['2']));
    expect(await html('/todos/3')).toContain(rest.data().todos.find((todo) => todo.id === 3)!.title);
  });

  it('hydrates without a request for the data the server rendered, and without a warning', async () => {
    proxy.log.length = 0;
    const page = await open('/?userId=1');
    await page.waitForTimeout(1_000); // a refetch by the hydrated page would go out by now
    const server = proxy.log.filter((entry) => entry.from === 'server');
    const browserData = proxy.log.filter((entry) => entry.from === 'browser' && isData(entry));
    expect(server.map((entry) => entry.path).sort()).toEqual(['/todos?_limit=5&userId=1', '/users']);
    expect(browserData).toEqual([]);
    expect(await page.locator('[data-testid=todo-item]').count()).toBe(5);
    // hydrated: a toggle works (optimistic, then the PATCH)
    await page.locator('[data-testid=todo-toggle]').first().click();
    await expect.poll(() => proxy.log.filter((entry) => entry.method === 'PATCH').length, SOON).toBe(1);
  });

  it('20 concurrent server renders for two users never mix their data', async () => {
    const users = Array.from({ length: 20 }, (_, i) => (i % 2) + 1);
    const pages = await Promise.all(users.map((userId) => html(`/?userId=${userId}`)));
    pages.forEach((page, i) => {
      expect(owners(page).length).toBeGreaterThan(0);
      expect(new Set(owners(page))).toEqual(new Set([`${users[i]}`]));
    });
  });

  it('with the REST server down the page fails at once with a visible error', async () => {
    await rest.stop();
    const started = Date.now();
    const page = await html('/todos/1');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(page).toContain('data-testid="load-error"');
    const tab = await browser.context.newPage();
    pages.push(tab);
    await tab.goto(new URL('/todos/1', app.url).href);
    await expect.poll(() => tab.locator('[data-testid=load-error]').first().isVisible(), SOON).toBe(true);
  });

  it('a mutation then a navigation shows the new data; /todos/1 → /todos/2 fetches todo 2 once', async () => {
    const page = await open('/todos/1');
    await page.fill('[data-testid=rename-input]', 'Renamed in SolidStart');
    await page.click('[data-testid=rename-save]');
    await expect.poll(() => rest.data().todos.find((todo) => todo.id === 1)?.title, SOON).toBe('Renamed in SolidStart');
    proxy.log.length = 0;
    await page.click('[data-testid=next]');
    await expect
      .poll(() => page.textContent('[data-testid=todo-title]'), SOON)
      .toBe(rest.data().todos.find((todo) => todo.id === 2)!.title);
    await page.waitForTimeout(500);
    expect(proxy.log.filter(isData)).toEqual([{ from: 'browser', method: 'GET', path: '/todos/2' }]);
    await page.click('[data-testid=back]');
    await expect
      .poll(() => page.locator('[data-testid=todo-title]', { hasText: 'Renamed in SolidStart' }).count(), SOON)
      .toBe(1);
  });

  it('restores a persisted state only once the page is hydrated: the page hydrates the server data, no warning', async () => {
    const firstTitles = (userId: number) =>
      rest
        .data()
        .todos.filter((todo) => todo.userId === userId)
        .slice(0, 5)
        .map((todo) => todo.title);
    // an earlier visit: user 2's list, then user 3's, kept in localStorage by persist (throttled)
    const first = await open('/?userId=2');
    await first.click('[data-testid=user-filter] a[href="/?userId=3"]');
    const savedRaw = () => first.evaluate((key) => localStorage.getItem(key), PERSIST_KEY);
    await expect
      .poll(async () => {
        const raw = await savedRaw();
        return raw !== null && Object.values((JSON.parse(raw) as Save).state.entities.Todo).some((t) => t.userId === 3);
      }, SOON)
      .toBe(true);
    const save = JSON.parse((await savedRaw())!) as Save;
    await first.close();
    // the save holds other titles than the server (still fresh)
    for (const todo of Object.values(save.state.entities.Todo)) todo.title = `Saved: ${todo.title}`;
    proxy.log.length = 0;
    const page = await open('/?userId=2', async (tab) => {
      await tab.addInitScript(
        ([key, value]) => localStorage.setItem(key!, value!),
        [PERSIST_KEY, JSON.stringify(save)],
      );
      // from the first parsed byte on: did a saved title ever show?
      await tab.addInitScript(() => {
        (window as unknown as { sawSaved: boolean }).sawSaved = false;
        new MutationObserver(() => {
          if (document.body?.textContent?.includes('Saved: '))
            (window as unknown as { sawSaved: boolean }).sawSaved = true;
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
    });
    const rows = () => page.locator('[data-testid=todo-title]').allTextContents();
    expect(await rows()).toEqual(firstTitles(2)); // the server's data, newer than the save: the restore keeps it
    expect(await page.evaluate(() => (window as unknown as { sawSaved: boolean }).sawSaved)).toBe(false);
    expect(proxy.log.filter((entry) => entry.from === 'browser' && isData(entry))).toEqual([]);
    // the save was restored after the hydration: user 3's list (fresh in it) shows without a request
    await page.click('[data-testid=user-filter] a[href="/?userId=3"]');
    await expect.poll(rows, SOON).toEqual(firstTitles(3).map((title) => `Saved: ${title}`));
    expect(proxy.log.filter((entry) => entry.from === 'browser' && isData(entry))).toEqual([]);
  });
});
