/**
 * A page rendered with renderToString (SolidStart's `mode: 'sync'`) from a controller that held its query's data,
 * hydrated by a tab whose controller starts empty (no state handed by hand): the page carries the query's data
 * as the async render does, so the browser shows the server's text without a request or a hydration error.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { hydrate } from 'solid-js/web';
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { HeldPage } from './partPage.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('a renderToString page whose data the controller held, hydrated by an empty controller', () => {
  it('shows the server text at once, without a request or an error', async () => {
    const html = execFileSync('node_modules/.bin/tsx', ['test/review13/ssr/renderHeldOnly.ts'], {
      cwd: root,
      encoding: 'utf8',
    });
    document.body.innerHTML = `<div id="app"></div>`;
    const app = document.getElementById('app')!;
    app.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/g, '');
    expect(app.textContent).toBe('todo: held 1; list: fetched 2, fetched 4');
    Object.assign(globalThis, { _$HY: { events: [], completed: new WeakSet(), r: {}, fe() {} } });
    for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) (0, eval)(script!);
    const urls: string[] = [];
    const fetch = vi.fn((input: string | URL | Request) => {
      urls.push(String(input));
      return new Promise<Response>(() => {}); // never answers: what shows is what hydration brought
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const dispose = hydrate(HeldPage(new Controller({ retry: 0, fetch })), app);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.textContent).toBe('todo: held 1; list: fetched 2, fetched 4');
    expect(urls).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    dispose();
  }, 30_000);
});
