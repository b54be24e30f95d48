/**
 * A page rendered with renderToString from a controller that holds its data (reference.md, "Server rendering":
 * render with the request's controller, restore its state in the browser before the first render), hydrated:
 * the HTML holds the data, not the Suspense fallback, and the browser shows the same, without a request.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { hydrate } from 'solid-js/web';
import { describe, expect, it, vi } from 'vitest';
import { Controller, type State } from '../../../../core/index.js';
import { HeldPage } from './heldPage.js';

const root = path.resolve(import.meta.dirname, '../../../..');

describe('a renderToString page whose data the controller held, hydrated', () => {
  it('shows the data on the server and in the browser, without the fallback or a request', async () => {
    const { html, state } = JSON.parse(
      execFileSync('node_modules/.bin/tsx', ['test/review11/adapters/solid/renderHeld.ts'], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as { html: string; state: State };
    const shown = 'todos: held 1, held 3; loading: false';
    expect(html).toContain(shown);
    expect(html).not.toContain('Loading…');
    document.body.innerHTML = `<div id="app"></div>`;
    const app = document.getElementById('app')!;
    app.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/g, '');
    Object.assign(globalThis, { _$HY: { events: [], completed: new WeakSet(), r: {}, fe() {} } });
    for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) (0, eval)(script!);
    const fetch = vi.fn(() => Promise.reject(new Error('no request expected')));
    const controller = new Controller({ retry: 0, fetch, initialState: state });
    const dispose = hydrate(HeldPage(controller), app);
    expect(app.textContent).toBe(shown);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.textContent).toBe(shown);
    expect(fetch).not.toHaveBeenCalled();
    dispose();
  }, 30_000); // a child process renders the page
});
