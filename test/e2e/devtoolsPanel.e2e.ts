/**
 * The in-page devtools panel (`mountDevtools`) in Chromium, in both built demo apps against the real
 * json-server: loaded on demand in a production build (`?rx-rest-devtools`), it opens, lists the demo's
 * queries and entities, follows a mutation made in the app, and its Invalidate refetches.
 */
import { describe, expect, it } from 'vitest';
import { demoHarness } from './harness.js';

const SOON = { timeout: 8_000, interval: 100 };
const h = demoHarness();

describe.each(['svelte', 'solid'] as const)('the devtools panel in the %s demo', (app) => {
  it('opens on demand, shows the queries and entities, follows a mutation live, and Invalidate refetches', async () => {
    const page = await h.browser.context.newPage();
    h.pages.push(page);
    page.on('pageerror', (error) => h.pageErrors.push(error.message));
    await page.goto(`${h.demo.apps[app]}?rx-rest-devtools`);
    await page.getByTestId('todo-list').waitFor();

    // loaded on demand and open; closed and opened again by its toggle
    const toggle = page.getByRole('button', { name: 'rx-rest devtools' });
    await toggle.waitFor({ timeout: SOON.timeout });
    expect(await page.locator('[data-rx-rest-devtools]').count()).toBe(1);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('tab', { name: 'Queries' }).isVisible()).toBe(false);
    await toggle.click();
    expect(await page.getByRole('tab', { name: 'Queries' }).getAttribute('aria-selected')).toBe('true');

    // the demo's queries, with the app's observers
    const queries = page.getByRole('table', { name: 'Queries' });
    const usersRow = queries.getByRole('row').filter({ hasText: '/users' }).first();
    await expect.poll(() => usersRow.textContent(), SOON).toMatch(/fresh/);
    const observers = Number(await usersRow.locator('td').nth(2).textContent());
    expect(observers).toBeGreaterThanOrEqual(1);
    expect(await queries.getByRole('row').filter({ hasText: '/todos' }).count()).toBeGreaterThanOrEqual(1);

    // the entity tables, with their counts, and a record's stored JSON
    await page.getByRole('tab', { name: 'Entities' }).click();
    const tables = page.getByRole('table', { name: 'Entity tables' });
    const users = h.demo.rest.data().users.length;
    await expect
      .poll(() => tables.getByRole('row', { name: /^User/ }).locator('td').nth(1).textContent(), SOON)
      .toBe(String(users));
    await tables.getByRole('row', { name: /^Todo\b/ }).click();
    await page.getByRole('table', { name: 'Records' }).getByRole('row').nth(1).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Selected record' }).textContent(), SOON)
      .toMatch(/"title"/);

    // a mutation in the app shows in the Actions tab at once
    await page.getByRole('tab', { name: 'Actions' }).click();
    await page.getByTestId('todo-toggle').first().click();
    const actions = page.getByRole('table', { name: 'Actions' });
    await expect
      .poll(() => actions.getByRole('row').filter({ hasText: 'optimistic' }).count(), SOON)
      .toBeGreaterThan(0);
    await expect
      .poll(
        () =>
          actions
            .getByRole('row')
            .filter({ hasText: /fetch.*(PATCH|PUT)/ })
            .count(),
        SOON,
      )
      .toBeGreaterThan(0);

    // Invalidate on the users query: the app fetches it again
    await page.getByRole('tab', { name: 'Queries' }).click();
    await page.getByRole('searchbox', { name: 'Filter' }).fill('/users');
    await usersRow.click();
    const refetch = page.waitForRequest((request) => request.method() === 'GET' && /\/api\/users/.test(request.url()));
    await page.getByRole('region', { name: 'Selected query' }).getByRole('button', { name: 'Invalidate' }).click();
    await refetch;
    await expect.poll(() => usersRow.textContent(), SOON).toMatch(/fresh/);
  });

  // vitest runs with NODE_ENV=test, under which vite builds with import.meta.env.DEV true: the e2e builds
  // mount the panel as development does (npm run size checks that a production build leaves it out)
  it('without being asked for, it is mounted closed, as in development; rxRestDevtools() opens it', async () => {
    const page = await h.browser.context.newPage();
    h.pages.push(page);
    page.on('pageerror', (error) => h.pageErrors.push(error.message));
    await page.goto(h.demo.apps[app]);
    await page.getByTestId('todo-list').waitFor();
    const toggle = page.getByRole('button', { name: 'rx-rest devtools' });
    await toggle.waitFor({ timeout: SOON.timeout });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.evaluate(() => window.rxRestDevtools?.()); // the console call
    await expect.poll(() => toggle.getAttribute('aria-expanded'), SOON).toBe('true');
    expect(await page.locator('[data-rx-rest-devtools]').count()).toBe(1);
    await page.getByRole('tab', { name: 'Queries' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Entities' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
