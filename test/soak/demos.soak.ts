/**
 * The soak of the demo apps: the Svelte and the Solid app (built, served by `vite preview`) open in
 * Chromium against the real REST server (json-server, demos/server/restServer.mjs) while a change is
 * made through the server every 50 ms (create, update, delete) for `SOAK_MS` (default 3 minutes). The
 * server restarts twice and the browser goes offline once meanwhile; the pages learn the changes
 * through their live stream and its catch-up, while a reader clicks "Load more" every `READ_MS`. At
 * the end, once the changes stop, every page shows exactly what the server holds: the live panel's
 * counts per user, and the todo list for every filter with all its pages loaded (no row missing, none
 * extra, each as the server holds it). Heap (after a garbage collection, through CDP) and store size
 * are reported per 1,000 changes.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type Demo } from '../../demos/server/demoServers.mjs';
import type { SeedTodo } from '../../demos/server/restServer.mjs';
import { launchBrowser } from '../e2e/browser.js';

const SOAK_MS = Number(process.env.SOAK_MS ?? 180_000);
const CHANGE_MS = 50;
/** How often a reader clicks "Load more" during the changes (the list's first page is refetched after every delete, so pages come and go). */
const READ_MS = 700;
/** The end state is reached within this once the changes stop (catch-up refetches, polling every 2 s). */
const CONVERGE = { timeout: 20_000, interval: 250 };

type App = 'svelte' | 'solid';
const APPS: readonly App[] = ['svelte', 'solid'];

let demo: Demo;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
const pageErrors: string[] = [];

beforeAll(async () => {
  demo = await startDemo({ mode: 'preview', ports: 'free', logLevel: 'silent', sveltekit: false, solidstart: false });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

/** A deterministic random sequence (the run can be repeated with `SOAK_SEED`). */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

async function open(app: App): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${app}: ${error.message}`));
  await page.goto(demo.apps[app]);
  await page.getByTestId('todo-list').waitFor();
  await page.getByTestId('live-list').waitFor();
  await expect.poll(() => page.getByTestId('stream-status').getAttribute('data-status'), CONVERGE).toBe('live');
  return { page, cdp: await browser.context.newCDPSession(page) };
}

/** One change through the REST server, as another client would make it; `false` while it is down. */
async function change(next: () => number): Promise<boolean> {
  const todos = demo.rest.data().todos;
  const users = demo.rest.data().users;
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const roll = next();
  let method: string;
  let path: string;
  let body: unknown;
  if (todos.length < 20 || (roll < 0.35 && todos.length < 60)) {
    method = 'POST';
    path = '/todos';
    body = {
      userId: pick(users).id,
      title: `soak ${Math.floor(next() * 1e9)}`,
      completed: false,
      createdAt: new Date().toISOString(),
    };
  } else if (roll < 0.7) {
    const todo = pick(todos);
    method = 'PATCH';
    path = `/todos/${todo.id}`;
    const what = next();
    body =
      what < 0.4
        ? { completed: !todo.completed }
        : what < 0.8
          ? { title: `renamed ${Math.floor(next() * 1e9)}` }
          : { userId: pick(users).id };
  } else {
    method = 'DELETE';
    path = `/todos/${pick(todos).id}`;
  }
  try {
    const response = await fetch(`${demo.rest.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false; // the server is down (a restart)
  }
}

/** Clicks "Load more" when it is there and enabled (no wait: the changes go on). */
async function readMore(page: Page): Promise<void> {
  const more = page.getByTestId('load-more');
  try {
    if ((await more.isVisible()) && (await more.isEnabled())) await more.click({ timeout: 500 });
  } catch {
    // re-rendered or gone meanwhile: the next read tries again
  }
}

/** Heap after a full garbage collection, and the size of the page's store. */
async function measure(page: Page, cdp: CDPSession) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const store = await page.evaluate(() => {
    const state = (
      window as unknown as { rxRestDemo: { controller: { getState(): object } } }
    ).rxRestDemo.controller.getState() as {
      entities: Record<string, Record<string, unknown>>;
      meta: Record<string, unknown>;
    };
    let records = 0;
    let tombstones = 0; // records marked INVALID (deleted), kept until a collection drops them
    for (const table of Object.values(state.entities)) {
      records += Object.keys(table).length;
      for (const record of Object.values(table)) if (typeof record === 'symbol') tombstones++;
    }
    return { bytes: JSON.stringify(state).length, records, tombstones, keys: Object.keys(state.meta).length };
  });
  return { heapMB: usedSize / 2 ** 20, ...store };
}

const rowsOf = (page: Page) =>
  page.locator('[data-testid="todo-list"] [data-testid="todo-item"]').evaluateAll((items) =>
    items.map((item) => ({
      id: Number(item.getAttribute('data-id')),
      title: item.querySelector('[data-testid="todo-title"]')?.textContent?.trim() ?? '',
      completed: item.classList.contains('done'),
    })),
  );

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

/**
 * The todo list of `filter` ('' = all users) with every page loaded ("Load more" until "That's all"),
 * `{ id, title, completed }` sorted by id.
 */
async function listed(page: Page, filter: string) {
  await page.getByTestId('user-filter').selectOption(filter);
  await page.getByTestId('todo-list').waitFor();
  await page.waitForTimeout(200);
  for (let pages = 0; pages < 100; pages++) {
    const more = page.getByTestId('load-more');
    const end = page.getByTestId('list-end');
    await more.or(end).first().waitFor();
    if (await end.isVisible()) break;
    if (await more.isEnabled()) await more.click();
    await page.waitForTimeout(50);
  }
  return (await rowsOf(page)).sort(byId);
}

/**
 * What the list of `filter` must show, given the server's todos and every page loaded: exactly the
 * server's todos of that filter, none missing (a row of a middle page included), none the server does
 * not hold (a deleted todo), each as the server holds it.
 */
function verdict(
  rows: readonly { id: number; title: string; completed: boolean }[],
  todos: readonly SeedTodo[],
  filter: string,
) {
  const wanted = expected(todos, filter);
  const server = new Map(wanted.map((todo) => [todo.id, todo]));
  const shown = new Set(rows.map((row) => row.id));
  return {
    notOnServer: rows.filter((row) => !server.has(row.id)).map((row) => row.id),
    different: rows.filter((row) => server.has(row.id) && JSON.stringify(server.get(row.id)) !== JSON.stringify(row)),
    missing: wanted.flatMap((todo, index) => (shown.has(todo.id) ? [] : [`${todo.id} (row ${index + 1})`])),
  };
}

function expected(todos: readonly SeedTodo[], filter: string) {
  return todos
    .filter((todo) => filter === '' || `${todo.userId}` === filter)
    .map(({ id, title, completed }) => ({ id, title, completed }))
    .sort(byId);
}

describe('soak: the demo apps under sustained change', () => {
  it(`${SOAK_MS / 1000} s of a change every ${CHANGE_MS} ms, two server restarts, offline once: every page ends equal to the server`, async () => {
    const pages = Object.fromEntries(
      await Promise.all(APPS.map(async (app) => [app, await open(app)] as const)),
    ) as Record<App, { page: Page; cdp: CDPSession }>;
    const next = random(Number(process.env.SOAK_SEED ?? Date.now()));
    const samples: {
      changes: number;
      app: App;
      heapMB: number;
      bytes: number;
      records: number;
      tombstones: number;
      keys: number;
    }[] = [];
    for (const app of APPS) samples.push({ changes: 0, app, ...(await measure(pages[app].page, pages[app].cdp)) });

    const started = Date.now();
    const events = [
      { at: SOAK_MS * 0.25, run: () => demo.rest.stop(), then: () => demo.rest.start(), ms: 1_500 },
      {
        at: SOAK_MS * 0.5,
        run: () => browser.context.setOffline(true),
        then: () => browser.context.setOffline(false),
        ms: 3_000,
      },
      { at: SOAK_MS * 0.75, run: () => demo.rest.stop(), then: () => demo.rest.start(), ms: 1_500 },
    ];
    let made = 0;
    let failed = 0;
    let sampleAt = 1_000;
    let readAt = READ_MS;
    let tick = started;
    // a change every 50 ms, without waiting for the previous one (at most 4 in flight, as several clients would)
    const inFlight = new Set<Promise<void>>();
    while (Date.now() - started < SOAK_MS) {
      const elapsed = Date.now() - started;
      const due = events.find((event) => elapsed >= event.at);
      if (due) {
        events.splice(events.indexOf(due), 1);
        await due.run();
        setTimeout(() => void due.then(), due.ms);
      }
      if (inFlight.size < 4) {
        const running: Promise<void> = change(next)
          .then((ok) => void (ok ? made++ : failed++))
          .finally(() => inFlight.delete(running));
        inFlight.add(running);
      }
      // a reader on each page asks for more rows now and then (pages load while pushes land on the list)
      if (elapsed >= readAt) {
        readAt += READ_MS;
        for (const app of APPS) void readMore(pages[app].page);
      }
      if (made >= sampleAt) {
        sampleAt += 1_000;
        for (const app of APPS)
          samples.push({ changes: made, app, ...(await measure(pages[app].page, pages[app].cdp)) });
      }
      tick += CHANGE_MS;
      const wait = tick - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    await Promise.all(inFlight);
    if (!demo.rest.running) await demo.rest.start();
    await browser.context.setOffline(false);

    // the changes stopped: every page shows what the server holds
    const server = demo.rest.data();
    for (const app of APPS) {
      const { page } = pages[app];
      await expect.poll(() => page.getByTestId('stream-status').getAttribute('data-status'), CONVERGE).toBe('live');
      const counts = server.users.map((user) => {
        const mine = server.todos.filter((todo) => todo.userId === user.id);
        return `${mine.filter((todo) => todo.completed).length} of ${mine.length} done`;
      });
      await expect.poll(() => page.getByTestId('live-count').allTextContents(), CONVERGE).toEqual(counts);
      for (const filter of ['', ...server.users.map((user) => `${user.id}`)]) {
        try {
          await expect
            .poll(async () => verdict(await listed(page, filter), server.todos, filter), CONVERGE)
            .toEqual({ notOnServer: [], different: [], missing: [] });
        } catch (error) {
          // what the page's store holds for the list, to tell a lost row from a row not loaded
          const shown = new Set((await rowsOf(page)).map((row) => row.id));
          const missing = expected(server.todos, filter).filter((todo) => !shown.has(todo.id));
          const store = await page.evaluate(
            (ids) => {
              const state = (
                window as unknown as { rxRestDemo: { controller: { getState(): Record<string, any> } } }
              ).rxRestDemo.controller.getState();
              return {
                lists: Object.fromEntries(
                  Object.entries(state.entities['[Todo]'] ?? {}).map(([pk, list]) => [pk, JSON.stringify(list)]),
                ),
                missing: ids.map((id) => [id, state.entities.Todo?.[id], state.entitiesMeta.Todo?.[id]]),
                listMeta: state.entitiesMeta['[Todo]'],
                meta: state.meta,
              };
            },
            missing.map((todo) => `${todo.id}`),
          );
          console.log(`${app}, filter "${filter}": missing ${JSON.stringify(missing)}`, JSON.stringify(store, null, 1));
          throw error;
        }
      }
    }
    for (const app of APPS) samples.push({ changes: made, app, ...(await measure(pages[app].page, pages[app].cdp)) });

    console.log(
      `soak: ${made} changes in ${((Date.now() - started) / 1000).toFixed(0)} s (${failed} refused while the server was down)`,
    );
    console.log('changes  app     heap MB  store KB  records  deleted  keys');
    for (const s of samples)
      console.log(
        `${String(s.changes).padStart(7)}  ${s.app.padEnd(6)}  ${s.heapMB.toFixed(1).padStart(7)}  ${(s.bytes / 1024).toFixed(1).padStart(8)}  ${String(s.records).padStart(7)}  ${String(s.tombstones).padStart(7)}  ${String(s.keys).padStart(4)}`,
      );
    for (const app of APPS) {
      const mine = samples.filter((s) => s.app === app);
      const first = mine[0]!;
      const last = mine[mine.length - 1]!;
      const per = 1_000 / Math.max(1, last.changes);
      console.log(
        `soak ${app}: per 1,000 changes heap ${((last.heapMB - first.heapMB) * per).toFixed(2)} MB, store ${(((last.bytes - first.bytes) / 1024) * per).toFixed(1)} KB, ${((last.records - first.records) * per).toFixed(0)} records`,
      );
    }
    // deleted records do not pile up: once no request needs them they go within seconds, while the pages
    // stay open (docs/lifecycle.md, "Deleted records")
    for (const app of APPS) expect(samples.filter((s) => s.app === app).at(-1)!.tombstones).toBeLessThan(100);
    expect(pageErrors).toEqual([]);
  });
});
