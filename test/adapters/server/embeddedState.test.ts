// @vitest-environment jsdom
/**
 * A state carried into a server-rendered page as docs/reference.md says (`JSON.stringify(state)` with `<`
 * escaped, inside `<script type="application/json">`): data that users typed, such as a title holding
 * `</script>`, `<!--` or U+2028, stays inside the element and comes back unchanged in the browser's controller.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { Todo } from '../../fixtures/entities.js';

const hostile = '</script><script>window.ran = true</script><!-- \u2028\u2029 </SCRIPT >';

/** The recipe of docs/reference.md ("Server rendering"). */
const embed = (state: unknown) =>
  `<script type="application/json" id="state">${JSON.stringify(state).replace(/</g, '\\u003c')}</script>`;

describe('a state embedded in the page', () => {
  it('keeps a hostile title inside its element and restores it unchanged', () => {
    const server = new Controller({ environment: {} });
    server.set(Todo, { id: 1, title: hostile });
    const html = `<!doctype html><html><body><main>page</main>${embed(server.getState())}</body></html>`;
    const page = new DOMParser().parseFromString(html, 'text/html');
    expect(page.querySelectorAll('script')).toHaveLength(1);
    const text = page.getElementById('state')!.textContent!;
    const browser = new Controller({ environment: {}, initialState: JSON.parse(text) });
    expect(browser.get(Todo, { id: 1 })?.title).toBe(hostile);
    // unescaped, the same state would end the element early: the recipe's escape is what keeps it whole
    const raw = `<script type="application/json">${JSON.stringify(server.getState())}</script>`;
    expect(new DOMParser().parseFromString(raw, 'text/html').querySelectorAll('script').length).toBeGreaterThan(1);
  });
});
