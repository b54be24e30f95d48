/**
 * The demos, end to end: both apps (built, served by `vite preview`) in Debian's Chromium against the
 * real json-server. Every action is checked on the page and in the server's data over HTTP.
 * (devmode.e2e.ts starts them with `npm run demo` in dev mode.)
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemo, type Demo } from '../../demos/server/demoServers.mjs';
import type { SeedTodo } from '../../demos/server/restServer.mjs';
import { timeAgo } from '../../demos/format.js';
import { launchBrowser } from './browser.js';

const SCREENSHOTS = new URL('../../test-results/screenshots/', import.meta.url).pathname;
const SOON = { timeout: 8_000, interval: 100 }; // the live panel polls every 2 s

let demo: Demo;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
const pages: Page[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  demo = await startDemo({ mode: 'preview', ports: 'free', logLevel: 'silent', sveltekit: false, solidstart: false });
  browser = await launchBrowser();
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

beforeEach(() => {
  demo.rest.reset();
  pageErrors.length = 0;
});

afterEach(async () => {
  await demo.rest.start(); // in case a test stopped it
  await Promise.all(pages.splice(0).map((page) => page.close()));
  expect(pageErrors).toEqual([]);
});

// ---- helpers -------------------------------------------------------------------------------------

type App = 'svelte' | 'solid';

/**
 * Opens an app and waits until its lists show and its live stream is open. `stream: false` keeps the
 * stream from connecting: the page hears of another client's change only by polling, as when it acts
 * before the change's message arrived (realtime.e2e.ts tests the stream).
 */
async function open(app: App, { stream = true } = {}): Promise<Page> {
  const page = await context.newPage();
  pages.push(page);
  page.on('pageerror', (error) => pageErrors.push(`${app}: ${error.message}`));
  if (!stream)
    await page.route(
      (url) => url.pathname === '/api/events',
      (route) => route.abort(),
    );
  await page.goto(demo.apps[app]);
  await page.getByTestId('todo-list').waitFor();
  await page.getByTestId('live-list').waitFor();
  if (stream) await page.locator('[data-testid="stream-status"][data-status="live"]').waitFor();
  return page;
}

/** GET from the REST server directly (not through the app). */
async function server<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${demo.rest.url}${path}`);
  return { status: response.status, body: (await response.json()) as T };
}
const serverTodo = async (id: number) => (await server<SeedTodo>(`/todos/${id}`)).body;

const titles = (page: Page) => page.getByTestId('todo-title').allTextContents();
const row = (page: Page, id: number) => page.locator(`[data-testid="todo-item"][data-id="${id}"]`);
const liveTitles = (page: Page) => page.locator('[data-testid="live-item"] > span:first-child').allTextContents();
const isDone = async (page: Page, id: number) => /\bdone\b/.test((await row(page, id).getAttribute('class')) ?? '');

async function showUser(page: Page, userId: number | '', expected: SeedTodo[]) {
  await page.getByTestId('user-filter').selectOption(`${userId}`);
  await expect.poll(() => titles(page), SOON).toEqual(expected.map((todo) => todo.title));
}

/**
 * Holds the app's requests of `method` to `/api/todos/:id` (or, for `id` `'list'`, to the list with
 * `search`) until `release()`: meanwhile the page shows its optimistic or loading state.
 */
async function hold(page: Page, method: string, id: number | 'list', search = '') {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen = false;
  const path = id === 'list' ? '/api/todos' : `/api/todos/${id}`;
  const matches = (url: URL) => url.pathname === path && (search === '' || url.search.includes(search));
  await page.route(matches, async (route: Route) => {
    if (route.request().method() === method) {
      seen = true;
      await released;
    }
    await route.continue();
  });
  return { release, seen: () => seen };
}

// ---- each app, every action ----------------------------------------------------------------------

describe.each(['svelte', 'solid'] as const)('%s app', (app) => {
  it('lists the todos, filtered by user, with relative creation times (deserialized Temporal.Instant)', async () => {
    const page = await open(app);
    const all = (await server<SeedTodo[]>('/todos?_limit=5')).body;
    expect(await titles(page)).toEqual(all.map((todo) => todo.title));

    const grace = (await server<SeedTodo[]>('/todos?userId=2&_limit=5')).body;
    await showUser(page, 2, grace);
    const times = await page.getByTestId('todo-time').allTextContents();
    expect(times).toEqual(grace.map((todo) => timeAgo(Temporal.Instant.from(todo.createdAt))));
    expect(times[0]).toMatch(/^\d+ days ago$/);
    expect(await liveTitles(page)).toContain('Plan the chess program'); // the newest todo, "20 minutes ago"

    // a list not loaded yet: the rows on screen stay, dimmed (keepPreviousData), until the new ones arrive
    const request = await hold(page, 'GET', 'list', 'userId=3');
    await page.getByTestId('user-filter').selectOption('3');
    await expect.poll(() => request.seen(), SOON).toBe(true);
    await expect.poll(() => page.getByTestId('todo-list').getAttribute('aria-busy'), SOON).toBe('true');
    expect(await page.getByTestId('todo-list').getAttribute('class')).toMatch(/\bplaceholder\b/);
    expect(await titles(page)).toEqual(grace.map((todo) => todo.title));
    expect(await page.getByTestId('list-loading').count()).toBe(0);
    expect(await page.getByTestId('list-switching').textContent()).toBe('Loading…');
    expect(await page.getByTestId('load-more').count()).toBe(0);
    request.release();
    await expect
      .poll(() => titles(page), SOON)
      .toEqual((await server<SeedTodo[]>('/todos?userId=3&_limit=5')).body.map((todo) => todo.title));
    expect(await page.getByTestId('todo-list').getAttribute('aria-busy')).toBe('false');
    expect(await page.getByTestId('todo-list').getAttribute('class')).not.toMatch(/\bplaceholder\b/);
    expect(await page.getByTestId('list-loading').count()).toBe(0);
  });

  it('shows "Loading todos…" on the first load, when there are no rows to keep', async () => {
    const page = await context.newPage();
    pages.push(page);
    page.on('pageerror', (error) => pageErrors.push(`${app}: ${error.message}`));
    const request = await hold(page, 'GET', 'list', '_limit=5');
    await page.goto(demo.apps[app]);
    await page.getByTestId('list-loading').waitFor({ timeout: SOON.timeout });
    expect(await page.getByTestId('todo-list').count()).toBe(0);
    request.release();
    await page.getByTestId('todo-list').waitFor({ timeout: SOON.timeout });
    expect(await page.getByTestId('list-loading').count()).toBe(0);
  });

  it('loads more pages (createInfiniteQuery over getList.getPage) until hasNext is false', async () => {
    const page = await open(app);
    const grace = (await server<SeedTodo[]>('/todos?userId=2')).body;
    await showUser(page, 2, grace.slice(0, 5));
    const nextPage = await hold(page, 'GET', 'list', '_page=2');
    await page.getByTestId('load-more').click();
    await expect.poll(() => nextPage.seen(), SOON).toBe(true);
    // while the page loads, the button says so and cannot be clicked again
    expect(await page.getByTestId('load-more').textContent()).toBe('Loading…');
    expect(await page.getByTestId('load-more').isDisabled()).toBe(true);
    nextPage.release();
    await expect.poll(() => titles(page), SOON).toEqual(grace.map((todo) => todo.title)); // 8: the second page had 3
    await page.getByTestId('list-end').waitFor();
    expect(await page.getByTestId('load-more').count()).toBe(0);

    await showUser(page, '', (await server<SeedTodo[]>('/todos?_limit=5')).body);
    await page.getByTestId('load-more').click();
    await expect
      .poll(() => titles(page), SOON)
      .toEqual((await server<SeedTodo[]>('/todos?_limit=10')).body.map((todo) => todo.title));
  });

  it('creates a todo (getList.push): it joins every matching cached list and the server has it', async () => {
    const page = await open(app);
    const all = (await server<SeedTodo[]>('/todos?_limit=5')).body;
    const grace = (await server<SeedTodo[]>('/todos?userId=2&_limit=5')).body;
    const ada = (await server<SeedTodo[]>('/todos?userId=1&_limit=5')).body;
    await showUser(page, 2, grace); // cache Grace's list, then go to Ada's
    await showUser(page, 1, ada);

    const title = `Write the ${app} e2e notes`;
    await page.getByTestId('new-title').fill(title);
    await page.getByTestId('add-todo').click();
    await expect.poll(() => titles(page), SOON).toEqual([...ada.map((todo) => todo.title), title]);
    expect(await page.getByTestId('new-title').inputValue()).toBe('');

    const created = (await server<SeedTodo[]>(`/todos?title=${encodeURIComponent(title)}`)).body;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ userId: 1, completed: false, id: 25 });
    expect(created[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(created[0]!.createdAt) - Date.now())).toBeLessThan(60_000);
    const newRow = row(page, 25);
    expect(await newRow.getByTestId('todo-time').textContent()).toBe('just now');
    await expect.poll(() => liveTitles(page), SOON).toContain(title);

    // the cached "all users" list received it too (its first page from the server would not hold it) ...
    await showUser(page, '', [...all, created[0]!]);
    // ... and Grace's list did not
    await showUser(page, 2, grace);
  });

  it('toggles a todo optimistically (partialUpdate): shown at once, then saved', async () => {
    const page = await open(app);
    expect(await isDone(page, 1)).toBe(false);
    const request = await hold(page, 'PATCH', 1);
    await row(page, 1).getByTestId('todo-toggle').click();
    await expect.poll(() => request.seen(), SOON).toBe(true);
    await expect.poll(() => isDone(page, 1), SOON).toBe(true); // before the server answered
    expect((await serverTodo(1)).completed).toBe(false);

    request.release();
    await expect.poll(async () => (await serverTodo(1)).completed, SOON).toBe(true);
    expect(await isDone(page, 1)).toBe(true);
    expect(await row(page, 1).getByTestId('todo-toggle').isChecked()).toBe(true);
    await expect.poll(() => page.getByTestId('live-count').first().textContent(), SOON).toBe('3 of 8 done');

    await row(page, 1).getByTestId('todo-toggle').click(); // and back
    await expect.poll(async () => (await serverTodo(1)).completed, SOON).toBe(false);
    expect(await isDone(page, 1)).toBe(false);
  });

  it('renames a todo (update): the page and the server show the new title, other fields kept', async () => {
    const page = await open(app);
    const before = await serverTodo(4);
    await row(page, 4).getByTestId('todo-rename').click();
    const input = row(page, 4).getByTestId('rename-input');
    await input.fill('Translate Menabrea, with notes');
    await input.press('Enter');
    await expect
      .poll(() => row(page, 4).getByTestId('todo-title').textContent(), SOON)
      .toBe('Translate Menabrea, with notes');
    await expect.poll(() => serverTodo(4), SOON).toEqual({ ...before, title: 'Translate Menabrea, with notes' });
  });

  it('deletes a todo optimistically (delete): gone from every list at once, then from the server', async () => {
    const page = await open(app);
    const grace = (await server<SeedTodo[]>('/todos?userId=2&_limit=5')).body;
    await showUser(page, 2, grace); // cache Grace's list
    await showUser(page, '', (await server<SeedTodo[]>('/todos?_limit=5')).body);
    await expect.poll(() => page.getByTestId('live-count').nth(1).textContent(), SOON).toBe('3 of 8 done');

    const request = await hold(page, 'DELETE', 2);
    await row(page, 2).getByTestId('todo-delete').click();
    await expect.poll(() => request.seen(), SOON).toBe(true);
    await expect.poll(() => row(page, 2).count(), SOON).toBe(0); // before the server answered
    expect((await server(`/todos/2`)).status).toBe(200);
    await expect.poll(() => page.getByTestId('live-count').nth(1).textContent(), SOON).toBe('3 of 7 done');

    request.release();
    await expect.poll(async () => (await server(`/todos/2`)).status, SOON).toBe(404);
    await page.getByTestId('user-filter').selectOption('2');
    await expect
      .poll(() => titles(page), SOON)
      .toEqual(grace.filter((todo) => todo.id !== 2).map((todo) => todo.title));
  });

  it('rolls an optimistic toggle back when the server refuses it', async () => {
    const page = await open(app, { stream: false }); // it must not hear of the delete below
    // another client deletes todo 1: the app still shows it, and the server refuses to update it (404)
    expect((await fetch(`${demo.rest.url}/todos/1`, { method: 'DELETE' })).status).toBe(200);
    const request = await hold(page, 'PATCH', 1);
    await row(page, 1).getByTestId('todo-toggle').click();
    await expect.poll(() => request.seen(), SOON).toBe(true);
    await expect.poll(() => isDone(page, 1), SOON).toBe(true); // optimistic
    request.release();
    await expect.poll(() => isDone(page, 1), SOON).toBe(false); // rolled back
    expect(await row(page, 1).getByTestId('todo-toggle').isChecked()).toBe(false);
    // the row says why, from its createMutation state (no app-wide notice for a row that stays)
    expect(await row(page, 1).getByTestId('todo-error').textContent()).toMatch(/Could not update: 404 Not Found/);
    expect(await page.getByTestId('notice').count()).toBe(0);
    expect(await row(page, 1).getByTestId('todo-toggle').isEnabled()).toBe(true);
    await row(page, 1).getByRole('button', { name: 'Dismiss' }).click();
    expect(await row(page, 1).getByTestId('todo-error').count()).toBe(0);
    expect((await server('/todos/1')).status).toBe(404);
  });

  it('shows each action pending (createMutation): the control is disabled and says so until the server answers', async () => {
    const page = await open(app);
    // toggle: the checkbox flips at once and stays disabled until the PATCH is answered
    const patch = await hold(page, 'PATCH', 1);
    await row(page, 1).getByTestId('todo-toggle').click();
    await expect.poll(() => patch.seen(), SOON).toBe(true);
    await expect.poll(() => row(page, 1).getByTestId('todo-toggle').isDisabled(), SOON).toBe(true);
    expect(await isDone(page, 1)).toBe(true);
    patch.release();
    await expect.poll(() => row(page, 1).getByTestId('todo-toggle').isEnabled(), SOON).toBe(true);
    expect((await serverTodo(1)).completed).toBe(true);

    // rename: "Saving…" until the PUT is answered
    const put = await hold(page, 'PUT', 4);
    await row(page, 4).getByTestId('todo-rename').click();
    await row(page, 4).getByTestId('rename-input').fill('Translate Menabrea, slowly');
    await row(page, 4).getByTestId('rename-input').press('Enter');
    await expect.poll(() => put.seen(), SOON).toBe(true);
    await expect.poll(() => row(page, 4).getByTestId('todo-rename').textContent(), SOON).toBe('Saving…');
    expect(await row(page, 4).getByTestId('todo-rename').isDisabled()).toBe(true);
    expect(await row(page, 4).getByTestId('todo-title').textContent()).toBe('Translate Menabrea, slowly');
    put.release();
    await expect.poll(() => row(page, 4).getByTestId('todo-rename').textContent(), SOON).toBe('Rename');
    expect(await row(page, 4).getByTestId('todo-rename').isEnabled()).toBe(true);
    expect((await serverTodo(4)).title).toBe('Translate Menabrea, slowly');

    // create: "Adding…" until the POST is answered, then the form is empty again
    const post = await hold(page, 'POST', 'list');
    await page.getByTestId('new-title').fill('Wait for the server');
    await page.getByTestId('add-todo').click();
    await expect.poll(() => post.seen(), SOON).toBe(true);
    await expect.poll(() => page.getByTestId('add-todo').textContent(), SOON).toBe('Adding…');
    expect(await page.getByTestId('add-todo').isDisabled()).toBe(true);
    post.release();
    await expect.poll(() => page.getByTestId('add-todo').textContent(), SOON).toBe('Add');
    await row(page, 25).waitFor({ timeout: SOON.timeout });
    expect(await page.getByTestId('new-title').inputValue()).toBe('');
    expect(await page.getByTestId('add-error').count()).toBe(0);
  });

  it('shows a failed create or rename inline (createMutation error), keeps what was typed, and clears on dismiss', async () => {
    const page = await open(app, { stream: false }); // it must not hear of the delete below
    const shown = await titles(page);
    await page.route(
      (url) => url.pathname === '/api/todos',
      (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"disk full"}' })
          : route.continue(),
    );
    await page.getByTestId('new-title').fill('This one fails');
    await page.getByTestId('add-todo').click();
    await expect.poll(() => page.getByTestId('add-error').textContent(), SOON).toMatch(/Could not add the todo: 500\b/);
    expect(await page.getByTestId('new-title').inputValue()).toBe('This one fails');
    expect(await page.getByTestId('add-todo').textContent()).toBe('Add');
    await expect.poll(() => titles(page), SOON).toEqual(shown); // the optimistic row is rolled back
    expect((await server<SeedTodo[]>('/todos?title=This%20one%20fails')).body).toEqual([]);
    await page.getByTestId('add-error').getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByTestId('add-error').count()).toBe(0);

    // another client deletes todo 4: renaming it fails (404), the old title comes back with the reason
    expect((await fetch(`${demo.rest.url}/todos/4`, { method: 'DELETE' })).status).toBe(200);
    await row(page, 4).getByTestId('todo-rename').click();
    await row(page, 4).getByTestId('rename-input').fill('Renamed too late');
    await row(page, 4).getByTestId('rename-input').press('Enter');
    await expect
      .poll(() => row(page, 4).getByTestId('todo-error').textContent(), SOON)
      .toMatch(/Could not rename: 404 Not Found/);
    expect(await row(page, 4).getByTestId('todo-title').textContent()).toBe('Translate Menabrea’s paper');
    expect(await row(page, 4).getByTestId('todo-rename').textContent()).toBe('Rename');
    expect(await page.getByTestId('notice').count()).toBe(0);
  });

  it('moves a todo to another user (getList.move): it leaves one list and joins the other at once', async () => {
    const page = await open(app);
    const grace = (await server<SeedTodo[]>('/todos?userId=2&_limit=5')).body;
    const ada = (await server<SeedTodo[]>('/todos?userId=1&_limit=5')).body;
    await showUser(page, 2, grace); // cache Grace's list, then go to Ada's
    await showUser(page, 1, ada);
    await expect
      .poll(() => page.getByTestId('live-count').allTextContents(), SOON)
      .toEqual(['2 of 8 done', '3 of 8 done', '3 of 8 done']);

    const request = await hold(page, 'PATCH', 1);
    await row(page, 1).getByTestId('todo-move').selectOption('2');
    await expect.poll(() => request.seen(), SOON).toBe(true);
    // before the server answered: gone from Ada's list, counted for Grace in the live panel
    await expect.poll(() => row(page, 1).count(), SOON).toBe(0);
    expect(await titles(page)).toEqual(ada.filter((todo) => todo.id !== 1).map((todo) => todo.title));
    expect(await page.getByTestId('live-count').allTextContents()).toEqual([
      '2 of 7 done',
      '3 of 9 done',
      '3 of 8 done',
    ]);
    expect((await serverTodo(1)).userId).toBe(1);

    request.release();
    await expect.poll(async () => (await serverTodo(1)).userId, SOON).toBe(2);
    // Grace's cached list holds it without a new page from the server
    await page.getByTestId('user-filter').selectOption('2');
    await expect
      .poll(() => titles(page), SOON)
      .toEqual([...grace.map((todo) => todo.title), 'Sketch the analytical engine notes']);
    // in "All users" it stays, with its new owner
    await page.getByTestId('user-filter').selectOption('');
    await expect.poll(() => row(page, 1).getByTestId('todo-time').textContent(), SOON).toMatch(/^Grace Hopper · /);
    expect(await row(page, 1).getByTestId('todo-move').inputValue()).toBe('2');

    // and back, in the "All users" list: the select is disabled while the PATCH is on its way
    const back = await hold(page, 'PATCH', 1);
    await row(page, 1).getByTestId('todo-move').selectOption('1');
    await expect.poll(() => back.seen(), SOON).toBe(true);
    await expect.poll(() => row(page, 1).getByTestId('todo-move').isDisabled(), SOON).toBe(true);
    expect(await row(page, 1).getByTestId('todo-time').textContent()).toMatch(/^Ada Lovelace · /);
    back.release();
    await expect.poll(async () => (await serverTodo(1)).userId, SOON).toBe(1);
    await expect.poll(() => row(page, 1).getByTestId('todo-move').isEnabled(), SOON).toBe(true);
  });

  it('a move the server refuses goes back to its list and is reported', async () => {
    const page = await open(app, { stream: false }); // it must not hear of the delete below
    const ada = (await server<SeedTodo[]>('/todos?userId=1&_limit=5')).body;
    await showUser(page, 1, ada);
    expect((await fetch(`${demo.rest.url}/todos/1`, { method: 'DELETE' })).status).toBe(200);
    await row(page, 1).getByTestId('todo-move').selectOption('3', { timeout: SOON.timeout });
    await expect
      .poll(() => page.getByTestId('notice').textContent(), SOON)
      .toMatch(/Could not move "Sketch the analytical engine notes".*404/);
    await expect.poll(() => titles(page), SOON).toEqual(ada.map((todo) => todo.title));
    expect(await row(page, 1).getByTestId('todo-move').inputValue()).toBe('1');
  });

  it('shows an error and keeps its data while the server is down, and recovers when it is back', async () => {
    const page = await open(app);
    const shown = await titles(page);
    const live = await liveTitles(page);
    expect(await page.getByTestId('connection').textContent()).toMatch(/Live/);

    await demo.rest.stop();
    await expect.poll(() => page.getByTestId('connection').textContent(), SOON).toMatch(/Server unreachable/);
    await page.getByTestId('live-error').waitFor();
    expect(await titles(page)).toEqual(shown);
    expect(await liveTitles(page)).toEqual(live);

    // a change while the server is down is rolled back and reported
    await row(page, 1).getByTestId('todo-toggle').click();
    await row(page, 1).getByTestId('todo-error').waitFor({ timeout: SOON.timeout });
    await expect.poll(() => isDone(page, 1), SOON).toBe(false);
    expect(await row(page, 1).getByTestId('todo-error').textContent()).toMatch(/Could not update: 502/);
    await page.screenshot({ path: `${SCREENSHOTS}${app}-offline.png` });
    // a list that was never loaded shows the error (and a button to retry at once)
    await page.getByTestId('user-filter').selectOption('3');
    await expect
      .poll(() => page.getByTestId('list-error').textContent(), SOON)
      .toMatch(/Could not load todos \(502 Bad Gateway\); trying again every 3 s/);
    expect(await page.getByTestId('list-error').getByRole('button', { name: 'Retry now' }).count()).toBe(1);

    // the server comes back: everything recovers by itself, without a click
    await demo.rest.start();
    await expect.poll(() => page.getByTestId('connection').textContent(), SOON).toMatch(/Live/);
    expect(await page.getByTestId('live-error').count()).toBe(0);
    const alan = (await server<SeedTodo[]>('/todos?userId=3&_limit=5')).body;
    await expect.poll(() => titles(page), SOON).toEqual(alan.map((todo) => todo.title));
    expect(await page.getByTestId('list-error').count()).toBe(0);
    await row(page, 3).getByTestId('todo-toggle').click(); // and changes work again
    await expect.poll(async () => (await serverTodo(3)).completed, SOON).toBe(false);
  });

  it('loaded while the server is down: every panel shows its error, not "Loading…", then recovers by itself', async () => {
    await demo.rest.stop();
    const page = await context.newPage();
    pages.push(page);
    page.on('pageerror', (error) => pageErrors.push(`${app}: ${error.message}`));
    let listRequests = 0;
    page.on('request', (request) => new URL(request.url()).pathname === '/api/todos' && listRequests++);
    await page.goto(demo.apps[app]);

    await expect.poll(() => page.getByTestId('list-error').textContent(), SOON).toMatch(/Could not load todos \(502/);
    await expect
      .poll(() => page.getByTestId('live-error').textContent(), SOON)
      .toMatch(/Could not load the todos \(502/);
    await expect
      .poll(() => page.getByTestId('users-error').textContent(), SOON)
      .toMatch(/Could not load the users \(502/);
    expect(await page.getByTestId('connection').textContent()).toMatch(/Server unreachable/);
    // the apps keep trying; between the attempts the errors stay (no panel goes back to "Loading…")
    const seen = listRequests;
    await expect.poll(() => listRequests, SOON).toBeGreaterThan(seen);
    await page.getByTestId('list-error').waitFor();
    expect(await page.getByTestId('live-error').count()).toBe(1);
    expect(await page.getByTestId('users-error').count()).toBe(1);
    expect(await page.getByTestId('list-loading').count()).toBe(0);
    expect(await page.getByTestId('live-loading').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}${app}-server-down.png` });

    await demo.rest.start();
    await page.getByTestId('todo-list').waitFor({ timeout: SOON.timeout });
    await page.getByTestId('live-list').waitFor({ timeout: SOON.timeout });
    const all = (await server<SeedTodo[]>('/todos?_limit=5')).body;
    expect(await titles(page)).toEqual(all.map((todo) => todo.title));
    await expect.poll(() => page.locator('#user-filter option').count(), SOON).toBe(4);
    await expect.poll(() => page.getByTestId('connection').textContent(), SOON).toMatch(/Live/);
    expect(await page.getByTestId('users-error').count()).toBe(0);
    expect(await page.getByTestId('list-error').count()).toBe(0);
  });

  it('takes a screenshot', async () => {
    const page = await open(app);
    const name = app === 'svelte' ? 'Svelte 5' : 'Solid';
    await page.getByTestId('new-title').fill(`Try rx-rest with ${name}`);
    await page.getByTestId('new-owner').selectOption('2');
    await page.getByTestId('add-todo').click();
    await row(page, 25).waitFor();
    await row(page, 4).getByTestId('todo-toggle').click();
    await expect.poll(async () => (await serverTodo(4)).completed, SOON).toBe(true);
    await expect.poll(() => liveTitles(page), SOON).toContain(`Try rx-rest with ${name}`);
    await page.locator('.app').screenshot({ path: `${SCREENSHOTS}${app}.png` });
  });
});

// ---- both apps at once ---------------------------------------------------------------------------

describe('both apps', () => {
  it('a todo created in the Svelte app shows up in the Solid app, and a toggle in Solid shows in Svelte', async () => {
    const svelte = await open('svelte');
    const solid = await open('solid');

    await svelte.getByTestId('new-title').fill('Made in Svelte');
    await svelte.getByTestId('new-owner').selectOption('3');
    await svelte.getByTestId('add-todo').click();
    await row(svelte, 25).waitFor();
    await expect.poll(() => liveTitles(solid), SOON).toContain('Made in Svelte'); // streamed in (or polled)
    await expect.poll(() => solid.getByTestId('live-count').nth(2).textContent(), SOON).toBe('3 of 9 done');

    expect(await isDone(svelte, 3)).toBe(true);
    await row(solid, 3).getByTestId('todo-toggle').click();
    await expect.poll(async () => (await serverTodo(3)).completed, SOON).toBe(false);
    await expect.poll(() => isDone(svelte, 3), SOON).toBe(false); // the entity in Svelte's list, streamed in (or polled)
  });
});
