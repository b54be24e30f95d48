/**
 * A server-rendered createQuery, hydrated (renderToStringAsync, review13's harness), whose entity is then
 * invalidated: the page keeps the server's data until the refetch answers, then shows the new data in place; the
 * boundary's fallback never shows (the resource holds what the server sent, not data, until its next load).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { hydrate } from 'solid-js/web';
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { NoteResource, pages } from '../../review13/ssr/asyncPages.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('a hydrated createQuery whose entity is invalidated', () => {
  it("keeps the server's data until the refetch answers, then shows the new data; no fallback", async () => {
    const html = execFileSync('node_modules/.bin/tsx', ['test/review13/ssr/renderAsync.ts', 'two'], {
      cwd: root,
      encoding: 'utf8',
    });
    document.body.innerHTML = `<div id="app"></div>`;
    const app = document.getElementById('app')!;
    app.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/g, '');
    Object.assign(globalThis, { _$HY: { events: [], completed: new WeakSet(), r: {}, fe() {} } });
    for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) (0, eval)(script!);
    const urls: string[] = [];
    const fetch = (input: string | URL | Request) => {
      urls.push(String(input));
      return new Promise<Response>((resolve) => setTimeout(() => resolve(Response.json({ id: 1, title: 'uno' })), 40));
    };
    const errors = vi.spyOn(console, 'error');
    const controller = new Controller({ retry: 0, fetch });
    const dispose = hydrate(pages.two!(controller), app);
    const texts = [app.textContent];
    const observer = new MutationObserver(() => texts.push(app.textContent));
    observer.observe(app, { subtree: true, childList: true, characterData: true });
    expect(app.textContent).toBe('one: one; list: one, two');
    controller.invalidate(NoteResource.get, { id: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.textContent).toBe('one: one; list: one, two');
    await vi.waitFor(() => expect(app.textContent).toBe('one: uno; list: uno, two'));
    expect(texts.filter((text) => text?.includes('Loading'))).toEqual([]);
    expect(urls).toEqual(['http://notes.test/notes/1']);
    expect(errors).not.toHaveBeenCalled();
    observer.disconnect();
    dispose();
  }, 30_000);
});
