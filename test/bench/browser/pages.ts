/**
 * The node side shared by `npm run bench:browser` (run.ts) and the profiler (profile.ts): builds the pages of
 * this folder with vite in production mode (rx-rest from the repository's source, as the demos do) into a
 * temporary folder, and serves that folder on a free port.
 */
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build } from 'vite';
import solid from 'vite-plugin-solid';

const here = fileURLToPath(new URL('.', import.meta.url));
const source = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** The built pages, served: `origin` to open them, `close()` to stop the server and delete the build. */
export interface ServedPages {
  readonly origin: string;
  readonly outDir: string;
  close(options?: { keep?: boolean }): void;
}

/** Builds `pages` (names of this folder's .html files), minified unless `minify` is false, and serves them. */
export async function servePages(pages: readonly string[], { minify = true } = {}): Promise<ServedPages> {
  const outDir = mkdtempSync(join(tmpdir(), 'rx-rest-bench-browser-'));
  await build({
    configFile: false,
    root: here,
    mode: 'production',
    logLevel: 'error',
    plugins: [svelte({ configFile: false }), solid()],
    resolve: {
      alias: [
        { find: /^rx-rest$/, replacement: source('core/index.ts') },
        { find: /^rx-rest\/svelte$/, replacement: source('adapters/svelte/index.ts') },
        { find: /^rx-rest\/solid$/, replacement: source('adapters/solid/index.ts') },
      ],
    },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify,
      rollupOptions: { input: Object.fromEntries(pages.map((page) => [page, join(here, `${page}.html`)])) },
    },
  });
  const server = createServer((request, response) => {
    const path = normalize(join(outDir, new URL(request.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(outDir) || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      // cross-origin isolated: performance.now() in 5 µs steps, not 100 µs (a one-row update takes about 1 ms)
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    createReadStream(path).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    origin,
    outDir,
    close({ keep = false } = {}) {
      server.close();
      if (!keep) rmSync(outDir, { recursive: true, force: true });
    },
  };
}
