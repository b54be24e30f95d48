/**
 * A ValidationError raised while a server renders a page, after the browser hydrated it: the page is rendered
 * by Solid's server build in a child process (renderRefused.ts), its scripts run here, and Solid's browser
 * build hydrates the same components. The error boundary's fallback gets a `ValidationError` with the issues
 * (their JSON-safe form), entity and pk of the server's, as thrown in the browser it would be.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { hydrate } from 'solid-js/web';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../core/index.js';
import { RefusedPage, refusingController } from './refusedPage.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** The page a server renders (its HTML and scripts). */
const serverPage = () =>
  execFileSync('node_modules/.bin/tsx', ['test/adapters/solid/renderRefused.ts'], { cwd: root, encoding: 'utf8' });

describe('a ValidationError of a server render, hydrated', () => {
  it('reaches the error boundary as a ValidationError with its issues, entity and pk', () => {
    const page = serverPage();
    expect(page).toContain('failed: ValidationError');
    expect(page).not.toMatch(/at .*RestEndpoint|node_modules|\.ts:\d+/); // the error sent holds no stack
    document.body.innerHTML = `<div id="app"></div>`;
    const app = document.getElementById('app')!;
    app.innerHTML = page.replace(/<script>[\s\S]*?<\/script>/g, '');
    // what the page's scripts do: Solid's hydration globals, then the values the server's resources resolved
    Object.assign(globalThis, { _$HY: { events: [], completed: new WeakSet(), r: {}, fe() {} } });
    for (const [, script] of page.matchAll(/<script>([\s\S]*?)<\/script>/g)) (0, eval)(script!);
    // the failed resources' own promises, which nothing reads once the boundary shows its fallback
    const sent = (globalThis as unknown as { _$HY: { r: Record<string, unknown> } })._$HY.r;
    for (const value of Object.values(sent)) if (value instanceof Promise) value.catch(() => {});
    const seen: { error?: unknown } = {};
    const dispose = hydrate(RefusedPage(refusingController(), seen), app);
    expect(seen.error).toBeInstanceOf(ValidationError);
    expect(seen.error).toMatchObject({
      name: 'ValidationError',
      entity: 'RefusedTodo',
      pk: '1',
      issues: [{ message: 'Invalid input: expected string, received number', path: ['title'] }],
    });
    expect((seen.error as Error).message).toMatch(/RefusedTodo "1" failed its validator .* at title/);
    expect(app.textContent).toBe('failed: ValidationError');
    dispose();
  });
});
