/**
 * The live stream end to end: both apps (built, served by `vite preview`) in Chromium, the REST
 * server's `GET /events` read by an `EventSource` through vite's proxy and applied with
 * `controller.connect` (demos/live.ts). A change made in one app, or with a plain HTTP request, shows
 * in the other within a second. To show that the stream brought it (not the live panel's poll, every
 * 2 s), the pages' GETs of todos and users are held unanswered before each change: nothing on screen
 * can come from a response.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SeedTodo } from '../../demos/server/restServer.mjs';
import { demoHarness } from './harness.js';

const SOON = { timeout: 8_000, interval: 100 };
/**
 * A change shows in the other app within this. It takes about 0.1–0.2 s (under a load of 15 on two cores,
 * at worst 1.3 s): the bound leaves room for a loaded machine, and with every GET held nothing else but
 * the stream can bring the change.
 */
const LIVE = { timeout: 2_000, interval: 20 };

type App = 'svelte' | 'solid';

const releases: (() => void)[] = [];
const h = demoHarness({
  beforeClose: async () => {
    await h.demo.rest.start(); // in case a test stopped it
    releases.splice(0).forEach((release) => release());
  },
  // a closed page's stream ends on the server too (through the proxy)
  afterClose: () => expect.poll(() => h.demo.rest.events.clients, SOON).toBe(0),
});
const { pages, pageErrors } = h;

// ---- helpers -------------------------------------------------------------------------------------

const streamStatus = (page: Page) => page.getByTestId('stream-status').getAttribute('data-status');

/** Opens an app and waits until its lists show and its stream is open. */
async function open(app: App): Promise<Page> {
  const page = await h.browser.context.newPage();
  pages.push(page);
  page.on('pageerror', (error) => pageErrors.push(`${app}: ${error.message}`));
  await page.goto(h.demo.apps[app]);
  await page.getByTestId('todo-list').waitFor();
  await page.getByTestId('live-list').waitFor();
  await expect.poll(() => streamStatus(page), SOON).toBe('live');
  return page;
}

/**
 * From now on the page's GETs matching `which` (default: every todo and user request) are held
 * unanswered until the test ends: whatever changes on screen afterwards came through the stream.
 * Returns how many were held.
 */
async function holdGets(page: Page, which = (url: URL) => /^\/api\/(todos|users)\b/.test(url.pathname)) {
  let held = 0;
  const released = new Promise<void>((resolve) => releases.push(resolve));
  await page.route(which, async (route: Route) => {
    if (route.request().method() !== 'GET') return route.continue();
    held++;
    await released;
    await route.continue().catch(() => undefined); // the page may be closed by then
  });
  return () => held;
}

/** A request to the REST server itself, as `curl` would make it. */
async function curl(method: string, path: string, body?: unknown): Promise<SeedTodo> {
  const response = await fetch(`${h.demo.rest.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as SeedTodo;
}
const serverTodos = async (query: string) =>
  (await (await fetch(`${h.demo.rest.url}/todos?${query}`)).json()) as SeedTodo[];

const titles = (page: Page) => page.getByTestId('todo-title').allTextContents();
const row = (page: Page, id: number) => page.locator(`[data-testid="todo-item"][data-id="${id}"]`);
const rowTitle = (page: Page, id: number) => row(page, id).getByTestId('todo-title').textContent();
const liveTitles = (page: Page) => page.locator('[data-testid="live-item"] > span:first-child').allTextContents();
const isDone = async (page: Page, id: number) => /\bdone\b/.test((await row(page, id).getAttribute('class')) ?? '');

async function showUser(page: Page, userId: number | '', expected: SeedTodo[]) {
  await page.getByTestId('user-filter').selectOption(`${userId}`);
  await expect.poll(() => titles(page), SOON).toEqual(expected.map((todo) => todo.title));
}

// ---- tests ---------------------------------------------------------------------------------------

describe('the live stream', () => {
  it('a change made in the Svelte app shows in the Solid app within a second, and the reverse', async () => {
    const svelte = await open('svelte');
    const solid = await open('solid');
    const alan = await serverTodos('userId=3&_limit=5');
    await showUser(solid, 3, alan);
    const held = [await holdGets(svelte), await holdGets(solid)];

    // create in Svelte (for Alan): it joins Solid's Alan list and live panel
    await svelte.getByTestId('new-title').fill('Made in Svelte');
    await svelte.getByTestId('new-owner').selectOption('3');
    await svelte.getByTestId('add-todo').click();
    await expect.poll(() => titles(solid), LIVE).toEqual([...alan.map((todo) => todo.title), 'Made in Svelte']);
    await expect.poll(() => liveTitles(solid), LIVE).toContain('Made in Svelte');
    expect(await row(solid, 25).getByTestId('todo-time').textContent()).toBe('just now');
    await row(svelte, 25).waitFor({ timeout: SOON.timeout });

    // toggle in Solid: done in Svelte
    await row(solid, 25).getByTestId('todo-toggle').click();
    await expect.poll(() => isDone(svelte, 25), LIVE).toBe(true);

    // rename in Svelte: renamed in Solid's list and live panel
    await row(svelte, 25).getByTestId('todo-rename').click();
    await row(svelte, 25).getByTestId('rename-input').fill('Renamed in Svelte');
    await row(svelte, 25).getByTestId('rename-input').press('Enter');
    await expect.poll(() => rowTitle(solid, 25), LIVE).toBe('Renamed in Svelte');
    await expect.poll(() => liveTitles(solid), LIVE).toContain('Renamed in Svelte');

    // move Alan's todo 3 to Ada in Svelte: it leaves Solid's Alan list, Solid's counts follow
    await row(svelte, 3).getByTestId('todo-move').selectOption('1');
    await expect.poll(() => row(solid, 3).count(), LIVE).toBe(0);
    await expect
      .poll(() => solid.getByTestId('live-count').allTextContents(), LIVE)
      .toEqual(['3 of 9 done', '3 of 8 done', '3 of 8 done']);

    // delete in Solid: gone from Svelte's list and live panel
    await row(solid, 25).getByTestId('todo-delete').click();
    await expect.poll(() => row(svelte, 25).count(), LIVE).toBe(0);
    await expect.poll(() => liveTitles(svelte), LIVE).not.toContain('Renamed in Svelte');

    expect(await serverTodos('userId=3')).toHaveLength(7);
    // the live panels polled meanwhile, and nothing answered them
    for (const count of held) expect(count()).toBeGreaterThan(0);
  });

  it('a change made with plain HTTP requests (like curl) shows in both apps within a second', async () => {
    const svelte = await open('svelte');
    const solid = await open('solid');
    const grace = await serverTodos('userId=2&_limit=5');
    const all = await serverTodos('_limit=5');
    await showUser(svelte, 2, grace);
    await holdGets(svelte);
    await holdGets(solid);

    const created = await curl('POST', '/todos', {
      userId: 2,
      title: 'Posted with curl',
      completed: false,
      createdAt: new Date().toISOString(),
    });
    expect(created.id).toBe(25);
    await expect.poll(() => titles(svelte), LIVE).toEqual([...grace.map((todo) => todo.title), 'Posted with curl']);
    await expect.poll(() => titles(solid), LIVE).toEqual([...all.map((todo) => todo.title), 'Posted with curl']);
    for (const page of [svelte, solid]) await expect.poll(() => liveTitles(page), LIVE).toContain('Posted with curl');

    await curl('PATCH', '/todos/25', { completed: true });
    for (const page of [svelte, solid]) await expect.poll(() => isDone(page, 25), LIVE).toBe(true);

    await curl('PUT', '/todos/2', { ...grace[0], title: 'Replaced with curl' });
    for (const page of [svelte, solid]) await expect.poll(() => rowTitle(page, 2), LIVE).toBe('Replaced with curl');

    await curl('DELETE', '/todos/25');
    for (const page of [svelte, solid]) {
      await expect.poll(() => row(page, 25).count(), LIVE).toBe(0);
      await expect.poll(() => liveTitles(page), LIVE).not.toContain('Posted with curl');
    }
  });

  it('reconnects when the REST server comes back: a change after the reconnect shows within a second', async () => {
    const svelte = await open('svelte');
    const solid = await open('solid');
    await h.demo.rest.stop();
    for (const page of [svelte, solid]) await expect.poll(() => streamStatus(page), SOON).toBe('reconnecting');
    expect(await svelte.getByTestId('stream-status').textContent()).toMatch(/reconnecting/);

    await h.demo.rest.start();
    // the retry delays double up to 2 s: back within a few seconds of the server
    for (const page of [svelte, solid]) await expect.poll(() => streamStatus(page), SOON).toBe('live');
    await expect.poll(() => h.demo.rest.events.clients, SOON).toBe(2);
    await holdGets(svelte);
    await holdGets(solid);
    await curl('PATCH', '/todos/1', { title: 'After the restart' });
    for (const page of [svelte, solid]) await expect.poll(() => rowTitle(page, 1), LIVE).toBe('After the restart');
  });

  it('reconnects when its streams are dropped while the server runs', async () => {
    const svelte = await open('svelte');
    const solid = await open('solid');
    await holdGets(svelte);
    await holdGets(solid);
    const opened = h.demo.rest.events.connections;
    h.demo.rest.events.drop();
    await expect.poll(() => h.demo.rest.events.connections, SOON).toBe(opened + 2);
    await expect.poll(() => h.demo.rest.events.clients, SOON).toBe(2);
    for (const page of [svelte, solid]) await expect.poll(() => streamStatus(page), SOON).toBe('live');
    await curl('PATCH', '/todos/4', { completed: true });
    for (const page of [svelte, solid]) await expect.poll(() => isDone(page, 4), LIVE).toBe(true);
  });

  it('a change made while an app’s stream was cut shows once it reconnects: its lists catch up', async () => {
    const solid = await open('solid');
    // the live panel's poll (every todo, no query) gets no answer: only the list's own refetch can show the change
    await holdGets(solid, (url) => url.pathname === '/api/todos' && url.search === '');
    const cut = (url: URL) => url.pathname === '/api/events';
    await solid.route(cut, (route) => route.abort());
    h.demo.rest.events.drop();
    await expect.poll(() => streamStatus(solid), SOON).toBe('reconnecting');

    await curl('PATCH', '/todos/1', { title: 'Changed while cut off' });
    expect(await rowTitle(solid, 1)).toBe('Sketch the analytical engine notes'); // nothing told the app yet
    await solid.unroute(cut);
    await expect.poll(() => streamStatus(solid), SOON).toBe('live');
    await expect.poll(() => rowTitle(solid, 1), SOON).toBe('Changed while cut off');
  });

  it('a malformed message does not break the stream: a later change still shows, nothing broken on the page', async () => {
    const svelte = await open('svelte');
    const solid = await open('solid');
    await holdGets(svelte);
    await holdGets(solid);
    const opened = h.demo.rest.events.connections;
    for (const text of [
      '{not json',
      '{"type":"created"}',
      '{"type":"exploded","id":1}',
      '{"type":"deleted","id":{}}',
      '{"type":"updated","todo":{"title":"no id"}}',
    ])
      h.demo.rest.events.send(text);

    await curl('PATCH', '/todos/1', { title: 'After the bad messages' });
    for (const page of [svelte, solid]) {
      await expect.poll(() => rowTitle(page, 1), LIVE).toBe('After the bad messages');
      expect(await streamStatus(page)).toBe('live');
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.getByTestId('connection').textContent()).toMatch(/Live/);
      expect(await titles(page)).toEqual((await serverTodos('_limit=5')).map((todo) => todo.title));
    }
    expect(h.demo.rest.events.connections).toBe(opened); // the same streams: none was reopened
  });
});
