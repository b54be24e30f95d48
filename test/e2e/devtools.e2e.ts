/**
 * rx-rest/devtools in Chromium: the Svelte demo (built, served by `vite preview`, against the real
 * json-server) with a stand-in for the Redux DevTools extension installed before the page loads (the
 * extension itself cannot be loaded in headless Chromium here). The stand-in implements the extension's
 * page API (`window.__REDUX_DEVTOOLS_EXTENSION__.connect`) and records, as JSON, what the page sends;
 * the test sends the monitor's messages through it.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DevtoolsAction } from '../../adapters/devtools/index.js';
import type { StateSnapshot } from '../../core/index.js';
import type { SeedTodo } from '../../demos/server/restServer.mjs';
import { demoHarness } from './harness.js';

const SOON = { timeout: 8_000, interval: 100 };

const h = demoHarness();
const { pages, pageErrors } = h;

/** What the stand-in recorded, as the page holds it. */
interface Recorded {
  connects: Record<string, unknown>[];
  inits: string[];
  sends: string[];
}

/**
 * Runs in the page before its scripts: the extension's page API, recording every call as JSON (as the
 * extension serializes what it posts to its monitor), and `__devtoolsMonitor(message)` to send a
 * monitor message to the page's listeners.
 */
function installRecorder() {
  type Listener = (message: unknown) => void;
  const record = { connects: [] as unknown[], inits: [] as string[], sends: [] as string[] };
  const listeners: Listener[] = [];
  Object.assign(window, {
    __devtoolsRecord: record,
    __devtoolsMonitor: (message: unknown) => [...listeners].forEach((listener) => listener(message)),
    __REDUX_DEVTOOLS_EXTENSION__: {
      connect(options: object) {
        record.connects.push(JSON.parse(JSON.stringify(options)));
        return {
          init: (state: unknown) => record.inits.push(JSON.stringify(state)),
          send: (action: unknown, state: unknown) => record.sends.push(JSON.stringify({ action, state })),
          subscribe(listener: Listener) {
            listeners.push(listener);
            return () => listeners.splice(listeners.indexOf(listener), 1);
          },
          unsubscribe: () => (listeners.length = 0),
          error: () => {},
        };
      },
    },
  });
}

async function openSvelte({ extension }: { extension: boolean }): Promise<{ page: Page; warnings: string[] }> {
  const page = await h.browser.context.newPage();
  pages.push(page);
  const warnings: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  if (extension) await page.addInitScript(installRecorder);
  await page.goto(h.demo.apps.svelte);
  await page.getByTestId('todo-list').waitFor();
  return { page, warnings };
}

const recorded = (page: Page) =>
  page.evaluate(() => (window as unknown as { __devtoolsRecord: Recorded }).__devtoolsRecord);
const sends = async (page: Page) =>
  (await recorded(page)).sends.map((json) => JSON.parse(json) as { action: DevtoolsAction; state: StateSnapshot });
const monitor = (page: Page, message: unknown) =>
  page.evaluate(
    (m) => (window as unknown as { __devtoolsMonitor: (m: unknown) => void }).__devtoolsMonitor(m),
    message,
  );
const title = (page: Page, id: number) =>
  page.locator(`[data-testid="todo-item"][data-id="${id}"]`).getByTestId('todo-title').textContent();
const todoTitle = (state: StateSnapshot, id: number) => (state.entities.Todo?.[id] as SeedTodo | undefined)?.title;

/** Holds the page's GETs of the todo lists (the live panel's polls) until `release()`. */
async function holdListGets(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === '/api/todos',
    async (route: Route) => {
      if (route.request().method() === 'GET') await released;
      await route.continue();
    },
  );
  return release;
}

describe('connectDevtools in the Svelte demo', () => {
  it('reports the initial state and every action, and a JUMP_TO_STATE changes the page without being sent back', async () => {
    const { page, warnings } = await openSvelte({ extension: true });
    const first = await (await fetch(`${h.demo.rest.url}/todos/4`)).json();

    const { connects, inits } = await recorded(page);
    expect(connects).toEqual([
      { name: 'rx-rest Svelte demo', features: { pause: true, export: true, import: 'custom', jump: true } },
    ]);
    expect(inits).toHaveLength(1);
    expect(JSON.parse(inits[0]!)).toEqual({ entities: {}, entitiesMeta: {}, endpoints: {}, meta: {} });
    // the first loads: the users, the todo list and the live panel, each a fetch with its state
    await expect
      .poll(async () => (await sends(page)).filter(({ action }) => action.type === 'rx-rest/fetch').length, SOON)
      .toBeGreaterThanOrEqual(3);
    const loaded = await sends(page);
    const listFetch = loaded.find(({ action }) => action.key?.includes('/api/todos?'))!;
    expect(listFetch.action).toMatchObject({ type: 'rx-rest/fetch', method: 'GET', endpoint: expect.any(String) });
    expect(todoTitle(listFetch.state, 4)).toBe(first.title);

    // a rename: an optimistic layer (not in the state) and the PUT's response
    await page.locator('[data-testid="todo-item"][data-id="4"]').getByTestId('todo-rename').click();
    await page.getByTestId('rename-input').fill('Renamed in the app');
    await page.getByTestId('rename-input').press('Enter');
    await expect.poll(() => title(page, 4), SOON).toBe('Renamed in the app');
    await expect
      .poll(async () => (await sends(page)).some(({ state }) => todoTitle(state, 4) === 'Renamed in the app'), SOON)
      .toBe(true);
    const history = await sends(page);
    const rename = history.filter(({ action }) => action.method === 'PUT');
    expect(rename.map(({ action }) => action.type)).toEqual(['rx-rest/optimistic', 'rx-rest/fetch']);
    expect(rename[1]!.action.args).toEqual([{ id: 4 }, { ...first, title: 'Renamed in the app' }]);
    const before = history.findLast(({ state }) => todoTitle(state, 4) === first.title)!;

    // the monitor travels back to before the rename (the polls held, so that none brings the new title back)
    const release = await holdListGets(page);
    const count = history.length;
    await monitor(page, {
      type: 'DISPATCH',
      payload: { type: 'JUMP_TO_STATE', index: 1, actionId: 1 },
      state: JSON.stringify(before.state),
    });
    await expect.poll(() => title(page, 4), SOON).toBe(first.title);
    const after = await sends(page);
    expect(after.slice(count).map(({ action }) => action.type)).not.toContain('rx-rest/restore');

    // a state it cannot apply: warned, the page unchanged
    await monitor(page, { type: 'DISPATCH', payload: { type: 'JUMP_TO_STATE' }, state: 'not json' });
    await expect
      .poll(() => warnings.filter((text) => text.startsWith('rx-rest/devtools: ignored a JUMP_TO_STATE message')), SOON)
      .toHaveLength(1);
    expect(await title(page, 4)).toBe(first.title);

    // the polls resume: the server's title comes back, and is reported
    release();
    await expect.poll(() => title(page, 4), SOON).toBe('Renamed in the app');
    await expect.poll(async () => todoTitle((await sends(page)).at(-1)!.state, 4), SOON).toBe('Renamed in the app');
  });

  it('without the extension the app runs as before, and nothing is warned', async () => {
    const { page, warnings } = await openSvelte({ extension: false });
    expect(await page.evaluate(() => '__REDUX_DEVTOOLS_EXTENSION__' in window)).toBe(false);
    const todos = (await (await fetch(`${h.demo.rest.url}/todos?_limit=5`)).json()) as SeedTodo[];
    await expect.poll(() => page.getByTestId('todo-title').allTextContents(), SOON).toEqual(todos.map((t) => t.title));
    expect(warnings.filter((text) => text.includes('rx-rest/devtools'))).toEqual([]);
  });
});
