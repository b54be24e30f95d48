/**
 * The demos as a user starts them: `npm run demo` (vite dev servers, fresh dependency caches), both apps
 * in Chromium showing the server's data, then the whole thing stopped by a signal to npm, leaving no
 * process and no listening port behind.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SOON = { timeout: 15_000, interval: 200 };

interface RunningDemo {
  npm: ChildProcess;
  urls: { svelte: string; solid: string; rest: string };
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm run demo` in the repository, resolved once it printed its URLs. */
async function startNpmDemo(): Promise<RunningDemo> {
  // its own process group, as in a terminal, so that a Ctrl-C can be sent the way a terminal sends it
  const npm = spawn('npm', ['run', 'demo'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let text = '';
  npm.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  const url = (label: string) => new RegExp(`${label}\\s+(http://127\\.0\\.0\\.1:\\d+/?)`).exec(text)?.[1];
  await expect
    .poll(() => url('Solid app') !== undefined || npm.exitCode !== null, { timeout: 60_000, interval: 100 })
    .toBe(true);
  if (url('Solid app') === undefined) throw new Error(`npm run demo exited before printing its URLs:\n${text}`);
  return {
    npm,
    urls: { svelte: url('Svelte app')!, solid: url('Solid app')!, rest: url('REST server')! },
    output: () => text,
    exited,
  };
}

/** Whether something accepts connections at the URL's host and port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** The pids of every process below `pid` (npm's shell and the demo's node), from `ps`. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the demo and checks that every server and process it started is gone: `kill -TERM <npm's pid>`,
 * or Ctrl-C in its terminal (SIGINT to its whole process group).
 */
async function stopAndCheck(demo: RunningDemo, how: 'SIGTERM to npm' | 'Ctrl-C') {
  const ports = [demo.urls.rest, demo.urls.svelte, demo.urls.solid];
  for (const url of ports) expect(await listening(url)).toBe(true);
  const started = descendants(demo.npm.pid!);
  expect(started.length).toBeGreaterThanOrEqual(1); // at least node demos/demo.mjs
  if (how === 'Ctrl-C') process.kill(-demo.npm.pid!, 'SIGINT');
  else demo.npm.kill('SIGTERM');
  await demo.exited;
  await expect.poll(async () => (await Promise.all(ports.map(listening))).some(Boolean), SOON).toBe(false);
  await expect.poll(() => started.filter(alive), SOON).toEqual([]);
}

describe('npm run demo (dev mode)', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let demo: RunningDemo | undefined;
  let leftovers: number[] = [];

  beforeAll(async () => {
    // a first run, as on a fresh clone: no pre-bundled dependencies yet
    for (const app of ['svelte-todo', 'solid-todo']) {
      rmSync(`${ROOT}node_modules/.vite/demo-${app}`, { recursive: true, force: true });
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    // a failed test must not leave servers behind for the next run
    for (const pid of [...leftovers, ...(demo ? descendants(demo.npm.pid!) : [])]) if (alive(pid)) process.kill(pid);
    if (demo && demo.npm.exitCode === null) demo.npm.kill('SIGKILL');
  });

  it('serves both apps, each rendering the server data and its live stream, and stops everything on SIGTERM', async () => {
    demo = await startNpmDemo();
    const users = (await (await fetch(`${demo.urls.rest}users`)).json()) as { name: string }[];
    const errors: string[] = [];
    for (const app of ['svelte', 'solid'] as const) {
      const todos = (await (await fetch(`${demo.urls.rest}todos?_limit=5`)).json()) as { title: string }[];
      const page = await browser.context.newPage();
      page.on('pageerror', (error) => errors.push(`${app}: ${error.message}`));
      page.on('console', (message) => message.type() === 'error' && errors.push(`${app}: ${message.text()}`));
      await page.goto(demo.urls[app]);
      await page.getByTestId('todo-list').waitFor({ timeout: 30_000 });
      await page.getByTestId('live-list').waitFor();
      expect(await page.getByTestId('todo-title').allTextContents()).toEqual(todos.map((todo) => todo.title));
      expect(await page.locator('#user-filter option').allTextContents()).toEqual([
        'All users',
        ...users.map((user) => user.name),
      ]);
      // the live stream comes through vite's dev proxy too: a change made with curl shows
      await page.locator('[data-testid="stream-status"][data-status="live"]').waitFor({ timeout: 15_000 });
      const title = `Streamed to the ${app} dev server`;
      await fetch(`${demo.urls.rest}todos/1`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      await page
        .locator('[data-testid="todo-item"][data-id="1"] [data-testid="todo-title"]', { hasText: title })
        .waitFor();
      await page.close();
    }
    expect(errors).toEqual([]);

    leftovers = descendants(demo.npm.pid!);
    await stopAndCheck(demo, 'SIGTERM to npm');
  }, 120_000);

  it('stops everything on Ctrl-C (SIGINT to the process group)', async () => {
    demo = await startNpmDemo();
    leftovers = descendants(demo.npm.pid!);
    await stopAndCheck(demo, 'Ctrl-C');
  }, 90_000);
});
