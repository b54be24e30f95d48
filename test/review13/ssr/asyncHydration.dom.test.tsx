/**
 * Pages rendered with renderToStringAsync (what SolidStart's `mode: 'async'` and, boundary by boundary, its
 * streaming render do), hydrated: the browser shows what the server rendered, makes no request for data the
 * server just rendered, and logs no hydration error (docs/ssr-solidstart.md).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { hydrate } from 'solid-js/web';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, holdHydration } from '../../../core/index.js';
import { answering, pages } from './asyncPages.js';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The page the server renders, hydrated in `#app`; `urls` logs the browser's requests. `hold`: under a hold on the
 * hydration, released when `hydrate` returned (as `controllerPerRequest` and `loadController` hold it).
 */
function hydrated(name: string, { hold = false } = {}) {
  const html = execFileSync('node_modules/.bin/tsx', ['test/review13/ssr/renderAsync.ts', name], {
    cwd: root,
    encoding: 'utf8',
  });
  document.body.innerHTML = `<div id="app"></div>`;
  const app = document.getElementById('app')!;
  app.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/g, '');
  const serverText = app.textContent;
  Object.assign(globalThis, { _$HY: { events: [], completed: new WeakSet(), r: {}, fe() {} } });
  for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) (0, eval)(script!);
  const sent = (globalThis as unknown as { _$HY: { r: Record<string, unknown> } })._$HY.r;
  for (const value of Object.values(sent)) if (value instanceof Promise) value.catch(() => {});
  const urls: string[] = [];
  const controller = new Controller({ retry: 0, fetch: answering(urls) });
  const release = hold ? holdHydration() : () => {};
  const dispose = hydrate(pages[name]!(controller), app);
  release();
  return { app, serverText, urls, controller, dispose };
}

const errors = vi.spyOn(console, 'error');
afterEach(() => errors.mockClear());

describe('a renderToStringAsync page, hydrated', () => {
  it('a createQuery and a createQueryState show the server text at once, with no request', async () => {
    const { app, serverText, urls, dispose } = hydrated('two');
    expect(serverText).toBe('one: one; list: one, two');
    expect(app.textContent).toBe(serverText);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(app.textContent).toBe(serverText);
    expect(urls).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    dispose();
  }, 30_000);

  it('data stale as soon as written (dataExpiryLength: 0) is shown, not fetched again, under the hydration hold', async () => {
    const { app, serverText, urls, dispose } = hydrated('expiring', { hold: true });
    expect(serverText).toBe('expiring: one');
    expect(app.textContent).toBe(serverText);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(urls).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    dispose();
  }, 30_000);

  it('a failed request shows the same error in the browser, named, with its status', async () => {
    const { app, serverText, dispose } = hydrated('missing');
    expect(serverText).toBe('failed: NetworkError 404');
    expect(app.textContent).toBe(serverText);
    dispose();
  }, 30_000);
});
