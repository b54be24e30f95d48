/**
 * A page rendered with renderToString (SolidStart's `mode: 'sync'`) whose one <Suspense> reads a query the
 * controller held and one it did not: the server renders the boundary's fallback (Solid's synchronous render waits
 * for nothing), and the browser, given the server controller's state (docs/reference.md, "Server rendering"),
 * hydrates that fallback, fetches only the request the server did not hold, and then shows both.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { hydrate } from 'solid-js/web';
import { describe, expect, it, vi } from 'vitest';
import { Controller, type State } from '../../../core/index.js';
import { list2, PartPage } from './partPage.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('a renderToString page whose boundary the controller partly held, hydrated', () => {
  it('hydrates the fallback, fetches only what the server did not hold, then shows both', async () => {
    const { html, state } = JSON.parse(
      execFileSync('node_modules/.bin/tsx', ['test/review13/ssr/renderPart.ts'], { cwd: root, encoding: 'utf8' }),
    ) as { html: string; state: State };
    expect(html).toContain('Loading…');
    expect(html).not.toContain('todo:');
    document.body.innerHTML = `<div id="app"></div>`;
    const app = document.getElementById('app')!;
    app.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/g, '');
    Object.assign(globalThis, { _$HY: { events: [], completed: new WeakSet(), r: {}, fe() {} } });
    for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) (0, eval)(script!);
    const urls: string[] = [];
    const fetch = vi.fn((input: string | URL | Request) => {
      urls.push(String(input));
      return Promise.resolve(Response.json(list2));
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const controller = new Controller({ retry: 0, fetch, initialState: state });
    const dispose = hydrate(PartPage(controller), app);
    expect(app.textContent).toBe('Loading…');
    await vi.waitFor(() => expect(app.textContent).toBe('todo: held 1; list: fetched 2, fetched 4'));
    expect(urls).toEqual(['http://api.test/todos?userId=2']);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    dispose();
  }, 30_000); // a child process renders the page
});
