/**
 * A server-rendered createQuery, hydrated (renderToStringAsync, review13's harness), whose entity is then
 * invalidated: the page keeps the server's data until the refetch answers, then shows the new data in place; the
 * boundary's fallback never shows (the resource holds what the server sent, not data, until its next load).
 */
import { hydrate } from 'solid-js/web';
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { NoteResource, pages } from '../../review13/ssr/asyncPages.js';
import { serverRenderedApp } from './serverHtml.js';

describe('a hydrated createQuery whose entity is invalidated', () => {
  it("keeps the server's data until the refetch answers, then shows the new data; no fallback", async () => {
    const app = serverRenderedApp('test/review13/ssr/renderAsync.ts', 'two');
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
