/**
 * rx-rest/sync in Chromium: two pages of one demo app (one origin, so one BroadcastChannel), built and
 * served by `vite preview` against the real json-server. Changes are made in page A's store only
 * (through the controller the test builds expose on `window.rxRestDemo`), so what page B shows came
 * through the channel, not from the server.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SeedTodo } from '../../demos/server/restServer.mjs';
import { demoHarness } from './harness.js';

const WITHIN_A_SECOND = { timeout: 1_000, interval: 50 };
const SOON = { timeout: 8_000, interval: 100 };

const h = demoHarness();
const { pages, pageErrors } = h;

type App = 'svelte' | 'solid';

async function open(app: App): Promise<Page> {
  const page = await h.browser.context.newPage();
  pages.push(page);
  page.on('pageerror', (error) => pageErrors.push(`${app}: ${error.message}`));
  await page.goto(h.demo.apps[app]);
  await page.getByTestId('todo-item').first().waitFor();
  await page.getByTestId('live-item').first().waitFor();
  return page;
}

/**
 * Holds every GET of the todos (lists and the live panel's polls) of `page` until `release()`, so that
 * no response changes the store meanwhile: what changes in it came through the channel.
 */
async function holdTodoReads(page: Page) {
  const held: Route[] = [];
  let holding = true;
  await page.route(
    (url) => url.pathname === '/api/todos',
    async (route) => {
      if (holding && route.request().method() === 'GET') held.push(route);
      else await route.continue();
    },
  );
  return {
    held: () => held.length,
    async release() {
      holding = false;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

const titleOf = (page: Page, id: number) =>
  page.locator(`[data-testid="todo-item"][data-id="${id}"] [data-testid="todo-title"]`).textContent();
const liveTitle = (page: Page, id: number) =>
  page.locator(`[data-testid="live-item"][data-id="${id}"] > span:first-child`).textContent();

async function serverTodo(id: number): Promise<SeedTodo> {
  return (await (await fetch(`${h.demo.rest.url}/todos/${id}`)).json()) as SeedTodo;
}

describe.each(['svelte', 'solid'] as const)('%s app, two pages', (app) => {
  it('a store-only change in one page shows in the other within a second', async () => {
    const [a, b] = [await open(app), await open(app)];
    const holds = [await holdTodoReads(a), await holdTodoReads(b)];
    const inList = Number(await b.getByTestId('todo-item').first().getAttribute('data-id'));
    const inLive = Number(await b.getByTestId('live-item').first().getAttribute('data-id'));
    const before = await serverTodo(inList);

    await a.evaluate(
      ([inList, inLive]) => {
        const { controller, Todo } = window.rxRestDemo!;
        controller.set(Todo, { id: inList, title: 'Renamed in page A only' });
        controller.set(Todo, { id: inLive, title: 'Also renamed in page A' });
      },
      [inList, inLive] as const,
    );
    await expect.poll(() => titleOf(b, inList), WITHIN_A_SECOND).toBe('Renamed in page A only');
    await expect.poll(() => liveTitle(b, inLive), WITHIN_A_SECOND).toBe('Also renamed in page A');
    expect(await titleOf(a, inList)).toBe('Renamed in page A only');
    expect((await serverTodo(inList)).title).toBe(before.title); // the server never heard of it
    await Promise.all(holds.map((hold) => hold.release()));
  });

  it('a reset in one page empties the other, which loads again', async () => {
    const [a, b] = [await open(app), await open(app)];
    const holds = [await holdTodoReads(a), await holdTodoReads(b)];
    await a.evaluate(() => window.rxRestDemo!.controller.resetEntireStore());
    // the live panel has nothing to show until its request is answered (the paged list keeps its rows)
    await b.getByTestId('live-loading').waitFor({ timeout: WITHIN_A_SECOND.timeout });
    expect(await b.getByTestId('live-item').count()).toBe(0);
    expect(await b.evaluate(() => Object.keys(window.rxRestDemo!.controller.getState().entities.Todo ?? {}))).toEqual(
      [],
    );
    await expect.poll(() => holds[1]!.held(), SOON).toBeGreaterThan(0); // page B asks the server again
    await Promise.all(holds.map((hold) => hold.release()));
    await b.getByTestId('live-item').first().waitFor({ timeout: SOON.timeout });
  });

  it('an invalidation in one page makes the other refetch its list', async () => {
    const [a, b] = [await open(app), await open(app)];
    const listRequests: string[] = [];
    b.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/todos' && url.searchParams.has('_limit')) listRequests.push(url.search);
    });
    await a.evaluate(() => {
      const { controller, TodoResource } = window.rxRestDemo!;
      controller.invalidateAll(TodoResource.getList);
    });
    await expect.poll(() => listRequests.length, WITHIN_A_SECOND).toBeGreaterThan(0);
    await b.getByTestId('todo-item').first().waitFor({ timeout: SOON.timeout });
  });
});
