/**
 * `npm run screenshot:devtools`: docs/devtools-panel.png, the devtools panel in the Svelte demo (built,
 * served by `vite preview` against the real json-server, free ports), taken in Chromium with the todo
 * list query selected.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDemos, startDemo } from '../../demos/server/demoServers.mjs';
import { launchBrowser } from './browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'docs/devtools-panel.png');

await buildDemos({ logLevel: 'error' });
const demo = await startDemo({ mode: 'preview', ports: 'free', logLevel: 'silent' });
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1100, height: 760 });
  await page.goto(`${demo.apps.svelte}?rx-rest-devtools`);
  await page.getByTestId('todo-list').waitFor();
  await page.getByRole('tab', { name: 'Queries' }).waitFor();
  const row = page.getByRole('table', { name: 'Queries' }).getByRole('row').filter({ hasText: '/todos' }).first();
  await row.click();
  await page.getByRole('region', { name: 'Selected query' }).getByText('Todo', { exact: false }).first().waitFor();
  await page.screenshot({ path: out });
  console.log(`wrote ${path.relative(root, out)}`);
} finally {
  await browser.close();
  await demo.close();
}
