/**
 * A server-rendered query whose data is still streaming while the browser hydrates it (its value in the page a
 * promise not yet resolved), and whose args change meanwhile: once the first args' data arrives, the page shows
 * the new args' state, never the first args' data under the new args.
 */
import { hydrate } from 'solid-js/web';
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../../../core/index.js';
import { answering, answers } from '../../review13/ssr/asyncPages.js';
import { serverRenderedApp } from './serverHtml.js';
import { setNoteId, streamPages } from './streamPage.js';

answers['http://notes.test/notes/2'] = { status: 200, body: { id: 2, title: 'two' } };

/** The page hydrated with every value the server sent still streaming; `arrive` resolves them. */
function hydratedStreaming(name: string) {
  const app = serverRenderedApp('test/review15/solid/renderStreamPage.ts', name);
  const sent = (globalThis as unknown as { _$HY: { r: Record<string, unknown> } })._$HY.r;
  const arrivals: (() => void)[] = [];
  // each value a promise that settled (`v`), as a complete page sends it: one still on its way instead
  for (const [id, value] of Object.entries(sent) as [string, { v?: unknown }][]) {
    if (value instanceof Promise && 'v' in value)
      sent[id] = new Promise((resolve) => arrivals.push(() => resolve(value.v)));
  }
  expect(arrivals.length).toBeGreaterThan(0);
  const urls: string[] = [];
  const controller = new Controller({ retry: 0, fetch: answering(urls) });
  const texts: string[] = [];
  const dispose = hydrate(streamPages[name]!(controller), app);
  const look = () => {
    if (texts.at(-1) !== app.textContent) texts.push(app.textContent);
  };
  const observer = new MutationObserver(look);
  observer.observe(app, { subtree: true, childList: true, characterData: true });
  look();
  return { app, texts, urls, arrive: () => arrivals.forEach((arrive) => arrive()), observer, dispose };
}

describe.each(['query', 'state'])('args changed while the %s is still streaming', (name) => {
  it("shows the new args' data once the first args' data arrived, never the first args' data under the new args", async () => {
    setNoteId(1);
    const { app, texts, urls, arrive, observer, dispose } = hydratedStreaming(name);
    setNoteId(2);
    await new Promise((resolve) => setTimeout(resolve, 10));
    arrive();
    await vi.waitFor(() => expect(app.textContent).toBe(`${name} 2: two`));
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const text of texts) expect(text).not.toBe(`${name} 2: one`);
    expect(app.textContent).toBe(`${name} 2: two`);
    expect(urls).toEqual(['http://notes.test/notes/2']);
    observer.disconnect();
    dispose();
  }, 30_000);
});
