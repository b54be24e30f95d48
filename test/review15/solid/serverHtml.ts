/** A page rendered on the server (Solid's server build, run with tsx) and put in the document, ready to hydrate. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * Runs `script` (a path from the repository's root) with `name` and puts the HTML it prints in `#app`, as the
 * browser receives it: the markup, then its scripts run (the hydration data in `_$HY.r`). Returns `#app`.
 */
export function serverRenderedApp(script: string, name: string): HTMLElement {
  const html = execFileSync('node_modules/.bin/tsx', [script, name], { cwd: root, encoding: 'utf8' });
  document.body.innerHTML = `<div id="app"></div>`;
  const app = document.getElementById('app')!;
  app.innerHTML = html.replace(/<script>[\s\S]*?<\/script>/g, '');
  Object.assign(globalThis, { _$HY: { events: [], completed: new WeakSet(), r: {}, fe() {} } });
  for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) (0, eval)(script!);
  return app;
}
