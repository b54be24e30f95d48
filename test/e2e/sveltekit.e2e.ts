/**
 * The SvelteKit demo (demos/sveltekit-todo) rendered on the server and hydrated in Chromium, in its
 * production build (adapter-node, `node build`) and in `vite dev`, against the real REST server, whose
 * request log counts what reaches it. The HTML holds the page's data; hydration asks the REST server for
 * nothing the server rendered (only the live stream opens); there is no hydration warning; concurrent
 * renders for two users never mix; the API down makes the page fail fast with a visible error; and a
 * mutation then a navigation shows the new data.
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copySeed, startRestServer, type RestServer } from '../../demos/server/restServer.mjs';
import { startSvelteKit } from '../../demos/server/sveltekitServer.mjs';
import { launchBrowser } from './browser.js';

const SOON = { timeout: 10_000, interval: 50 };

/** Where the demo's `persist` keeps the tab's data (demos/sveltekit-todo/src/routes/+layout.ts). */
const PERSIST_KEY = 'rx-rest-sveltekit-demo';

/** A persisted save, its todos' titles prefixed with `Saved: ` (as an earlier visit that saw other titles). */
interface Save {
  state: { entities: { Todo: Record<string, { title: string; userId: number }> } };
}

/** The REST server's requests other than the live stream. */
const dataRequests = (rest: RestServer) => rest.requests.filter((request) => !request.startsWith('GET /events'));

describe.each(['preview', 'dev'] as const)('the SvelteKit demo (%s)', (mode) => {
  let seed: ReturnType<typeof copySeed>;
  let rest: RestServer;
  let app: Awaited<ReturnType<typeof startSvelteKit>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const pages: Page[] = [];
  /** Console warnings and errors, and page errors, of the test's pages. */
  const problems: string[] = [];
  /** The browser's requests to the app's `/api` (the REST server behind it). */
  const apiRequests: string[] = [];

  beforeAll(async () => {
    seed = copySeed();
    rest = await startRestServer({ file: seed.file });
    app = await startSvelteKit({ mode, api: rest.url });
    browser = await launchBrowser();
    // every page starts without the demo's persisted state (a test that wants one seeds it after this)
    await browser.context.addInitScript((key) => localStorage.removeItem(key), PERSIST_KEY);
    if (mode === 'dev') await fetch(`${app.url}?userId=1`); // vite compiles the modules on the first request
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await rest?.close();
    seed?.remove();
  });
  beforeEach(() => {
    rest.reset();
    rest.requests.length = 0;
    problems.length = 0;
    apiRequests.length = 0;
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => page.close()));
    if (!rest.running) await rest.start();
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.context.newPage();
    pages.push(page);
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'warning' || message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiRequests.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.goto(new URL(path, app.url).href);
    await page.waitForSelector('body[data-hydrated="true"]', SOON);
    return page;
  }

  const titlesOf = (userId: number) =>
    rest
      .data()
      .todos.filter((todo) => todo.userId === userId)
      .map((todo) => todo.title);

  it('renders the todos of ?userId= on the server, and nothing of the other users', async () => {
    const response = await fetch(`${app.url}?userId=1`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const title of titlesOf(1)) expect(html).toContain(title);
    for (const title of [...titlesOf(2), ...titlesOf(3)]) expect(html).not.toContain(title);
    expect(dataRequests(rest)).toEqual(['GET /todos?userId=1', 'GET /users']);
  });

  it('hydrates what the server rendered without asking the REST server again, and without a warning', async () => {
    const page = await open('/?userId=2');
    await expect.poll(() => page.textContent('[data-testid=stream]'), SOON).toContain('streaming');
    const rows = await page.$$eval('[data-testid=todos] li a', (links) => links.map((link) => link.textContent));
    expect(rows).toEqual(titlesOf(2));
    // the server's render asked once for each; the browser asked for nothing but the live stream
    expect(dataRequests(rest)).toEqual(['GET /todos?userId=2', 'GET /users']);
    expect(apiRequests).toEqual(['GET /api/events']);
    expect(problems).toEqual([]);
  });

  it('serves a client navigation from the cache when fresh, and fetches a new list once', async () => {
    const page = await open('/?userId=1');
    rest.requests.length = 0;
    await page.click('nav.users a[href="/?userId=3"]');
    await expect
      .poll(() => page.$$eval('[data-testid=todos] li a', (links) => links.map((link) => link.textContent)), SOON)
      .toEqual(titlesOf(3));
    expect(dataRequests(rest)).toEqual(['GET /todos?userId=3']); // the users list came from the cache
    await page.click('nav.users a[href="/?userId=1"]');
    await expect
      .poll(() => page.$$eval('[data-testid=todos] li a', (links) => links.map((link) => link.textContent)), SOON)
      .toEqual(titlesOf(1));
    expect(dataRequests(rest)).toEqual(['GET /todos?userId=3']); // user 1's list is fresh: no request
    expect(apiRequests.filter((request) => !request.startsWith('GET /api/events'))).toEqual([
      'GET /api/todos?userId=3',
    ]);
    expect(problems).toEqual([]);
  });

  it('renders a todo from a server load (a snapshot) and hydrates it without a request', async () => {
    const page = await open('/todos/5');
    expect(await page.textContent('[data-testid=todo] h2')).toBe(rest.data().todos.find((t) => t.id === 5)?.title);
    expect(dataRequests(rest)).toEqual(['GET /todos/5']);
    expect(apiRequests).toEqual(['GET /api/events']);
    expect(problems).toEqual([]);
  });

  it('never mixes two users in 20 concurrent server renders', async () => {
    const users = Array.from({ length: 20 }, (_, index) => (index % 2) + 1);
    const pagesHtml = await Promise.all(
      users.map((userId) => fetch(`${app.url}?userId=${userId}`).then((r) => r.text())),
    );
    pagesHtml.forEach((html, index) => {
      const userId = users[index]!;
      for (const title of titlesOf(userId)) expect(html).toContain(title);
      for (const title of titlesOf(userId === 1 ? 2 : 1)) expect(html).not.toContain(title);
    });
  });

  it('fails fast with a visible error when the API is down', async () => {
    await rest.stop();
    const started = Date.now();
    const response = await fetch(`${app.url}?userId=1`);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('The todo server could not be reached');
    expect(elapsed).toBeLessThan(3_000); // no retries on the server (three would wait 1 s + 2 s + 4 s)
    const page = await browser.context.newPage();
    pages.push(page);
    await page.goto(`${app.url}?userId=1`);
    expect(await page.textContent('[data-testid=error]')).toContain('The todo server could not be reached');
  });

  it('shows the new data after a mutation and a navigation', async () => {
    const page = await open('/?userId=1');
    const first = rest.data().todos.find((todo) => todo.userId === 1)!;
    const box = page.locator(`input[aria-label="Done: ${first.title}"]`);
    const before = await box.isChecked();
    await box.click();
    await expect.poll(() => rest.data().todos.find((todo) => todo.id === first.id)?.completed, SOON).toBe(!before);
    await page.click(`a[href="/todos/${first.id}"]`);
    await expect.poll(() => page.textContent('[data-testid=status]'), SOON).toBe(before ? 'to do' : 'done');
    await page.click(`a[href="/?userId=1"]`);
    await expect.poll(() => box.isChecked(), SOON).toBe(!before);
    expect(problems).toEqual([]);
  });

  it('restores a persisted state only once the page is hydrated: the page hydrates the server data, no warning', async () => {
    // an earlier visit: user 2's list, then user 3's, kept in localStorage by persist (throttled)
    const first = await open('/?userId=2');
    await first.click('nav.users a[href="/?userId=3"]');
    const savedRaw = () => first.evaluate((key) => localStorage.getItem(key), PERSIST_KEY);
    await expect
      .poll(async () => {
        const raw = await savedRaw();
        return raw !== null && Object.values((JSON.parse(raw) as Save).state.entities.Todo).some((t) => t.userId === 3);
      }, SOON)
      .toBe(true);
    const saved = (await savedRaw())!;
    await first.close();
    // the save holds other titles than the server (still fresh: without waiting for the hydration, the
    // page's load would answer user 2's list from it and the first render would differ from the HTML)
    const save = JSON.parse(saved) as Save;
    for (const todo of Object.values(save.state.entities.Todo)) todo.title = `Saved: ${todo.title}`;
    rest.requests.length = 0;
    apiRequests.length = 0;
    const page = await browser.context.newPage();
    pages.push(page);
    // from the first parsed byte on: did a saved title ever show?
    await page.addInitScript(() => {
      (window as unknown as { sawSaved: boolean }).sawSaved = false;
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('Saved: '))
          (window as unknown as { sawSaved: boolean }).sawSaved = true;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'warning' || message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiRequests.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [PERSIST_KEY, JSON.stringify(save)]);
    await page.goto(`${app.url}?userId=2`);
    await page.waitForSelector('body[data-hydrated="true"]', SOON);
    await expect.poll(() => page.textContent('[data-testid=stream]'), SOON).toContain('streaming');
    const rows = () => page.$$eval('[data-testid=todos] li a', (links) => links.map((link) => link.textContent));
    expect(await rows()).toEqual(titlesOf(2)); // the server's data, newer than the save: the restore keeps it
    expect(await page.evaluate(() => (window as unknown as { sawSaved: boolean }).sawSaved)).toBe(false);
    expect(dataRequests(rest)).toEqual(['GET /todos?userId=2', 'GET /users']);
    expect(apiRequests).toEqual(['GET /api/events']);
    // the save was restored after the hydration: user 3's list (fresh in it) shows without a request
    await page.click('nav.users a[href="/?userId=3"]');
    await expect.poll(rows, SOON).toEqual(titlesOf(3).map((title) => `Saved: ${title}`));
    expect(apiRequests).toEqual(['GET /api/events']);
    expect(problems).toEqual([]);
  });
});
