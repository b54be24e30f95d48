#!/usr/bin/env node
/**
 * `npm run size`: the bundle-size budget of issue 7. Bundles (vite/rolldown, minified) what a typical app
 * imports: the core (createResource, Entity, schema.Collection, Controller with observe) with the rxjs code
 * it pulls in, and each adapter with its framework, rxjs and the core left external; gzips each (level 9).
 * `budget` is issue 7's target; `limit` is what CI enforces (exit 1 above it): for the core, today's size
 * plus a small margin, so that no change grows it unnoticed while the target is still missed.
 */
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KiB = 1024;

const CASES = [
  {
    name: 'core: createResource, Entity, schema.Collection, Controller + observe, with rxjs',
    budget: 14 * KiB,
    limit: 18 * KiB,
    external: [],
    code: `
      import { Controller, Entity, createResource, schema } from ${JSON.stringify(path.join(root, 'core/index.ts'))};
      export class Todo extends Entity {
        id = 0; title = ''; completed = false;
        pk() { return String(this.id); }
        static key = 'Todo';
      }
      export const TodoResource = createResource({ urlPrefix: 'https://api.example.com', path: '/todos/:id', schema: Todo, optimistic: true });
      export const todos = new schema.Collection([Todo]);
      export const controller = new Controller();
      controller.observe(TodoResource.getList, {}).subscribe((state) => console.log(state));
    `,
  },
  {
    name: 'rx-rest/svelte (svelte, rxjs and the core external)',
    budget: 1.5 * KiB,
    limit: 1.5 * KiB,
    external: [/^svelte(\/.*)?$/, /^rxjs(\/.*)?$/, /\/core\/index\.(js|ts)$/],
    code: `export * from ${JSON.stringify(path.join(root, 'adapters/svelte/index.ts'))};`,
  },
  {
    name: 'rx-rest/solid (solid-js, rxjs and the core external)',
    budget: 1.5 * KiB,
    limit: 1.5 * KiB,
    external: [/^solid-js(\/.*)?$/, /^rxjs(\/.*)?$/, /\/core\/index\.(js|ts)$/],
    code: `export * from ${JSON.stringify(path.join(root, 'adapters/solid/index.ts'))};`,
  },
];

/** Minified bundle of one virtual entry module. */
async function bundle({ code, external }) {
  const entry = '\0size-entry.js';
  const output = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [
      {
        name: 'size-entry',
        resolveId: (id) => (id === 'size-entry' ? entry : undefined),
        load: (id) => (id === entry ? code : undefined),
      },
    ],
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      rolldownOptions: { input: 'size-entry', external, preserveEntrySignatures: 'strict', output: { format: 'es' } },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  return chunks.map((c) => c.code).join('\n');
}

let failed = false;
console.log('bundle size (minified, gzip -9)');
for (const item of CASES) {
  const code = await bundle(item);
  const gzipped = gzipSync(code, { level: 9 }).length;
  const overLimit = gzipped > item.limit;
  failed ||= overLimit;
  const verdict = overLimit
    ? 'OVER LIMIT'
    : gzipped > item.budget
      ? `over target by ${((gzipped - item.budget) / KiB).toFixed(2)} KiB`
      : 'ok';
  console.log(
    `  ${(gzipped / KiB).toFixed(2).padStart(6)} KiB gzip (${(code.length / KiB).toFixed(1)} KiB min)  target ${(item.budget / KiB).toFixed(1)} KiB, limit ${(item.limit / KiB).toFixed(2)} KiB: ${verdict}  ${item.name}`,
  );
  if (item.external.length === 0) {
    // the share of rxjs: the same entry with rxjs left out
    const own = gzipSync(await bundle({ ...item, external: [/^rxjs(\/.*)?$/] }), { level: 9 }).length;
    console.log(
      `        ${(own / KiB).toFixed(2).padStart(6)} KiB gzip of it without rxjs (rxjs adds ${((gzipped - own) / KiB).toFixed(2)} KiB)`,
    );
  }
}
if (failed) {
  console.error('bundle size: over the limit');
  process.exit(1);
}
