/**
 * Review 14 of `rx-rest/sync` (API.md "Add-on entry points"; "The controller and the store": response keys such
 * as `__proto__` or `constructor`, and such strings as pks, are stored and read as plain data). A wiki whose page
 * is called "constructor", or an API whose records carry a `constructor` field (codegen keeps such properties),
 * is legitimate data: one tab that fetched it must share it with the others, as it shares any response, and
 * without reaching `Object.prototype`. Tabs are controllers on Node 20's BroadcastChannel; HTTP through msw.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Controller, Entity, INVALID, createResource } from '../../../core/index.js';
import { syncTabs } from '../../../adapters/sync/index.js';

const API = 'http://review14-sync-keys.test';

class Page extends Entity {
  slug = '';
  title = '';
  pk() {
    return this.slug;
  }
  static override key = 'Page';
}
const PageResource = createResource({ urlPrefix: API, path: '/pages/:slug', schema: Page });

// the server's pages as JSON text: a `__proto__` member is an own property once parsed, as from any API
const pages = new Map([
  ['constructor', '{"slug":"constructor","title":"The constructor page"}'],
  ['__proto__', '{"slug":"__proto__","title":"The proto page"}'],
  [
    'fields',
    '{"slug":"fields","title":"Odd fields","constructor":"a field","__proto__":{"polluted":true},"prototype":1}',
  ],
]);
const server = setupServer(
  http.get(`${API}/pages/:slug`, ({ params }) => {
    const page = pages.get(params.slug as string);
    return page === undefined
      ? HttpResponse.json({ message: 'not found' }, { status: 404 })
      : new HttpResponse(page, { headers: { 'content-type': 'application/json' } });
  }),
  http.delete(`${API}/pages/:slug`, () => new HttpResponse(null, { status: 204 })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let channel = '';
let count = 0;
const cleanups: (() => void)[] = [];
let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  channel = `review14-sync-keys-${++count}-${Math.random()}`;
  vi.stubGlobal('document', {}); // tabs of a browser
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function tab(): Controller {
  const controller = new Controller({
    retry: 0,
    gcTime: Infinity,
    environment: {},
    managers: [(c) => syncTabs(c, { channel })],
  });
  cleanups.push(() => controller.dispose());
  return controller;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => void) {
  for (let i = 0; ; i++) {
    try {
      return check();
    } catch (error) {
      if (i > 100) throw error;
      await sleep(10);
    }
  }
}

function expectPrototypesClean() {
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(Object.prototype).not.toHaveProperty('title');
  expect(Object.prototype).not.toHaveProperty('fetchedAt');
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

describe('syncTabs: keys named like Object.prototype members are data', () => {
  it('a page whose pk is "constructor" or "__proto__" reaches the other tab, with no warning', async () => {
    const [a, b] = [tab(), tab()];
    await sleep(20); // the hellos
    await a.fetch(PageResource.get, { slug: 'constructor' });
    await a.fetch(PageResource.get, { slug: '__proto__' });
    await until(() => expect(b.get(Page, { slug: '__proto__' })?.title).toBe('The proto page'));
    expect(b.get(Page, { slug: 'constructor' })?.title).toBe('The constructor page');
    expect(b.get(Page, { slug: 'constructor' })).toBeInstanceOf(Page);
    expect(b.getResponse(PageResource.get, { slug: 'constructor' }).data?.title).toBe('The constructor page');
    expect(warn).not.toHaveBeenCalled();
    expectPrototypesClean();
  });

  it('a record with fields named constructor, __proto__ and prototype reaches the other tab as it was stored', async () => {
    const [a, b] = [tab(), tab()];
    await sleep(20);
    await a.fetch(PageResource.get, { slug: 'fields' });
    await until(() => expect(b.getState().entities.Page?.['fields']).toBeDefined());
    expect(b.getState().entities.Page?.['fields']).toEqual(a.getState().entities.Page?.['fields']);
    const page = b.get(Page, { slug: 'fields' });
    expect(page?.title).toBe('Odd fields');
    expect(page).toBeInstanceOf(Page);
    expect(warn).not.toHaveBeenCalled();
    expectPrototypesClean();
  });

  it('a tab that opens later is given such pages too', async () => {
    const a = tab();
    await a.fetch(PageResource.get, { slug: 'constructor' });
    await a.fetch(PageResource.get, { slug: 'fields' });
    const late = tab();
    await until(() => expect(late.get(Page, { slug: 'fields' })?.title).toBe('Odd fields'));
    expect(late.get(Page, { slug: 'constructor' })?.title).toBe('The constructor page');
    expect(warn).not.toHaveBeenCalled();
    expectPrototypesClean();
  });

  it('deleting the page "__proto__" or "constructor" deletes it in the other tab, and a later tab is not given it back', async () => {
    const [a, b] = [tab(), tab()];
    await sleep(20);
    await a.fetch(PageResource.get, { slug: 'constructor' });
    await a.fetch(PageResource.get, { slug: '__proto__' });
    await until(() => expect(b.get(Page, { slug: '__proto__' })).toBeDefined());
    await b.fetch(PageResource.delete, { slug: '__proto__' });
    await b.fetch(PageResource.delete, { slug: 'constructor' });
    await until(() => expect(a.getState().entities.Page?.['constructor']).toBe(INVALID));
    expect(a.getState().entities.Page?.['__proto__']).toBe(INVALID);
    expect(a.get(Page, { slug: '__proto__' })).toBeUndefined();
    a.gc();
    b.gc();
    const late = tab();
    await sleep(50);
    expect(late.get(Page, { slug: '__proto__' })).toBeUndefined();
    expect(late.get(Page, { slug: 'constructor' })).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    expectPrototypesClean();
  });
});

describe('syncTabs: the deletions a tab remembers, under such pks', () => {
  it('a hello is answered with the deletion of the page "__proto__" once the store collected its mark', async () => {
    const clock = { now: Date.now() };
    const a = new Controller({
      retry: 0,
      gcTime: Infinity,
      environment: {},
      now: () => clock.now,
      managers: [(c) => syncTabs(c, { channel })],
    });
    cleanups.push(() => a.dispose());
    await a.fetch(PageResource.get, { slug: '__proto__' });
    await a.fetch(PageResource.delete, { slug: '__proto__' });
    expect(a.getState().entities.Page?.['__proto__']).toBe(INVALID);
    clock.now += 60_000;
    a.gc(); // the store no longer holds the mark: the tab remembers it
    expect(Object.hasOwn(a.getState().entities.Page ?? {}, '__proto__')).toBe(false);
    const page = new BroadcastChannel(channel);
    cleanups.push(() => page.close());
    const answer = new Promise<any>((resolve) => {
      page.onmessage = (event) => {
        if (event.data?.to === 'a late tab') resolve(event.data);
      };
    });
    page.postMessage({ format: 'rx-rest/sync@1', version: 2, from: 'a late tab', kind: 'hello' });
    const { snapshot } = await answer;
    expect(snapshot.invalid).toContainEqual(['Page', '__proto__']);
    expect(Object.hasOwn(snapshot.entitiesMeta.Page, '__proto__')).toBe(true);
    expect(snapshot.entitiesMeta.Page['__proto__'].fetchedAt).toEqual(expect.any(Number));
    expectPrototypesClean();
  });
});

describe('syncTabs: a hostile page posting __proto__, constructor and prototype at every level', () => {
  it('nothing reaches Object.prototype, the tab keeps its data and still syncs', async () => {
    const [a, b] = [tab(), tab()];
    await sleep(20);
    await a.fetch(PageResource.get, { slug: 'constructor' });
    await until(() => expect(b.get(Page, { slug: 'constructor' })).toBeDefined());
    const time = { date: Date.now(), fetchedAt: Date.now(), expiresAt: Date.now() + 60_000 };
    const page = new BroadcastChannel(channel);
    cleanups.push(() => page.close());
    const json = JSON.stringify({
      format: 'rx-rest/sync@1',
      version: 2,
      from: 'a hostile page',
      kind: 'snapshot',
      snapshot: {
        entities: { PROTO: { PROTO: { slug: 'PROTO', title: 'hostile', PROTO: { polluted: true } } } },
        entitiesMeta: { PROTO: { PROTO: time } },
        endpoints: { PROTO: 'PROTO', constructor: { prototype: { polluted: true } } },
        meta: { PROTO: time, constructor: time },
        invalid: [['PROTO', 'toString']],
      },
    }).replaceAll('PROTO', '__proto__');
    page.postMessage(JSON.parse(json));
    await sleep(30);
    expectPrototypesClean();
    expect(({} as Record<string, unknown>).title).toBeUndefined();
    expect(b.get(Page, { slug: 'constructor' })?.title).toBe('The constructor page');
    await a.fetch(PageResource.get, { slug: 'fields' });
    await until(() => expect(b.get(Page, { slug: 'fields' })?.title).toBe('Odd fields'));
    expectPrototypesClean();
  });
});
