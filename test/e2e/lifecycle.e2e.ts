/**
 * The app lifecycle in a real browser: going offline pauses the live panel's polling, coming back
 * refetches at once; a hidden tab does not poll. Both apps, built and served by `vite preview`, against
 * the real json-server (Playwright's `context.setOffline` takes the browser's network down).
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type Demo } from '../../demos/server/demoServers.mjs';
import { launchBrowser } from './browser.js';

const POLL_MS = 2_000; // the live panel's pollFrequency (demos/api.ts)
const SOON = { timeout: 8_000, interval: 100 };

let demo: Demo;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
const pages: Page[] = [];

beforeAll(async () => {
  demo = await startDemo({ mode: 'preview', ports: 'free', logLevel: 'silent', sveltekit: false, solidstart: false });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

afterEach(async () => {
  await browser.context.setOffline(false);
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

/** Opens an app and counts the live panel's requests (the list of all todos, no filter, no page size). */
async function open(app: 'svelte' | 'solid'): Promise<{ page: Page; polls: () => number }> {
  const page = await browser.context.newPage();
  pages.push(page);
  let polls = 0;
  const isPoll = (request: Request) => {
    const url = new URL(request.url());
    return request.method() === 'GET' && url.pathname === '/api/todos' && url.search === '';
  };
  page.on('request', (request) => {
    if (isPoll(request)) polls++;
  });
  await page.goto(demo.apps[app]);
  await page.getByTestId('live-list').waitFor();
  return { page, polls: () => polls };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(['svelte', 'solid'] as const)('%s app', (app) => {
  it('pauses polling while offline and refetches as soon as the network is back', async () => {
    const { page, polls } = await open(app);
    await expect.poll(polls, SOON).toBeGreaterThanOrEqual(2); // polling runs: the first load and a poll

    await browser.context.setOffline(true);
    await expect.poll(() => page.evaluate(() => navigator.onLine), SOON).toBe(false);
    const offlineAt = polls();
    await wait(POLL_MS * 2.5);
    expect(polls()).toBe(offlineAt); // no request while offline
    expect(await page.getByTestId('live-list').count()).toBe(1); // the data stays on screen

    await browser.context.setOffline(false);
    await expect.poll(polls, { timeout: POLL_MS - 500, interval: 50 }).toBeGreaterThan(offlineAt); // before the next poll was due
  });

  it('does not poll while the tab is hidden, and polls again when it is shown', async () => {
    const { page, polls } = await open(app);
    await expect.poll(polls, SOON).toBeGreaterThanOrEqual(2);
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { value: value ? 'hidden' : 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);

    await setHidden(true);
    const hiddenAt = polls();
    await wait(POLL_MS * 2.5);
    expect(polls()).toBe(hiddenAt);

    await setHidden(false);
    await expect.poll(polls, SOON).toBeGreaterThan(hiddenAt);
  });
});
