/**
 * Review of paged lists from API.md alone: list members (`push`, `unshift`, `move`, `remove`,
 * `getPage`) interleaved with pages in flight, and `observeInfinite`'s `loadNext`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { filter, firstValueFrom, type Observable, type Subscription } from 'rxjs';
import { Controller, Entity, createResource, observeInfinite, type InfiniteState } from '../../core/index.js';
import { API } from '../fixtures/todoServer.js';

class Card extends Entity {
  id = 0;
  group = '';
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Card';
}

const PAGE = 3;

const CardResource = createResource({
  urlPrefix: API,
  path: '/cards/:id',
  schema: Card,
  searchParams: {} as { group?: string } | undefined,
  paginationField: 'page',
  optimistic: true,
});

interface CardJson {
  id: number;
  group: string;
  title: string;
}

/** Cards paged by number; `hold()` keeps the next matching request's answer until released. */
let cards: CardJson[];
let nextId: number;
const requests: string[] = [];
const holds: { match: (r: Request) => boolean; gate: Promise<void>; release: () => void }[] = [];
let malformed: ((r: Request) => Response | undefined) | undefined;
let failPost = 0;

function hold(match: (url: URL, method: string) => boolean) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  holds.push({ match: (r) => match(new URL(r.url), r.method), gate, release });
  return release;
}
const pageOf = (n: number) => (url: URL, method: string) =>
  method === 'GET' && (url.searchParams.get('page') ?? '1') === String(n);

async function gateOf(request: Request) {
  const url = new URL(request.url);
  requests.push(`${request.method} ${url.pathname}${url.search}`);
  const at = holds.findIndex((h) => h.match(request));
  if (at >= 0) {
    const [h] = holds.splice(at, 1);
    await h!.gate;
  }
}

const server = setupServer(
  http.get(`${API}/cards`, async ({ request }) => {
    await gateOf(request);
    const bad = malformed?.(request);
    if (bad) return bad;
    const url = new URL(request.url);
    const group = url.searchParams.get('group');
    const page = Number(url.searchParams.get('page') ?? 1);
    const list = cards.filter((c) => group === null || c.group === group);
    return HttpResponse.json(list.slice((page - 1) * PAGE, page * PAGE));
  }),
  http.post(`${API}/cards`, async ({ request }) => {
    await gateOf(request);
    if (failPost > 0) {
      failPost--;
      return HttpResponse.json({ message: 'no' }, { status: 500 });
    }
    const body = (await request.json()) as Partial<CardJson>;
    const card = { id: nextId++, group: 'a', title: '', ...body };
    cards.push(card);
    return HttpResponse.json(card, { status: 201 });
  }),
  http.patch(`${API}/cards/:id`, async ({ request, params }) => {
    await gateOf(request);
    const card = cards.find((c) => c.id === Number(params.id))!;
    Object.assign(card, (await request.json()) as object);
    return HttpResponse.json(card);
  }),
  http.patch(`${API}/cards`, async ({ request }) => {
    await gateOf(request);
    const body = (await request.json()) as CardJson;
    return HttpResponse.json(cards.find((c) => c.id === body.id) ?? body);
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let controller: Controller;
let subscriptions: Subscription[];
beforeEach(() => {
  cards = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, group: 'a', title: `card ${i + 1}` }));
  nextId = 8;
  requests.length = 0;
  holds.length = 0;
  malformed = undefined;
  failPost = 0;
  controller = new Controller({ retry: false });
  subscriptions = [];
});
afterEach(() => {
  subscriptions.forEach((s) => s.unsubscribe());
  holds.forEach((h) => h.release());
});

function follow<T>(state$: Observable<InfiniteState<T>>) {
  const states: InfiniteState<T>[] = [];
  subscriptions.push(state$.subscribe((s) => states.push(s)));
  return {
    get last() {
      return states[states.length - 1]!;
    },
    until: (p: (s: InfiniteState<T>) => boolean) => firstValueFrom(state$.pipe(filter(p))),
  };
}

const ids = (list: readonly { id: number }[] | undefined) => list?.map((c) => c.id) ?? [];
const pageRequests = () => requests.filter((r) => r.startsWith('GET /cards'));
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

/** The list of group a, first page loaded. */
async function firstPage() {
  const feed = observeInfinite(controller, CardResource.getList, { group: 'a' }, { pageSize: PAGE });
  const view = follow(feed.state$);
  await view.until((s) => s.data !== undefined && !s.fetching);
  return { feed, view };
}

/** Loads pages until there is none; resolves the ids. */
async function loadAll(feed: { loadNext(): Promise<void> }, view: Awaited<ReturnType<typeof firstPage>>['view']) {
  for (let i = 0; i < 10 && view.last.hasNext; i++) {
    await feed.loadNext();
    await view.until((s) => !s.fetching && !s.fetchingNext);
  }
  return ids(view.last.data as Card[]);
}

describe('pages against a refetch of the first page', () => {
  it('a page answered after the list refetched neither duplicates nor loses rows', async () => {
    const { feed, view } = await firstPage();
    const release = hold(pageOf(2));
    const loading = feed.loadNext();
    controller.invalidate(CardResource.getList, { group: 'a' });
    await view.until((s) => s.data !== undefined && !s.fetching);
    release();
    await loading;
    await settle();
    const shown = ids(view.last.data as Card[]);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown).toEqual(ids(cards).slice(0, shown.length));
    expect(await loadAll(feed, view)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a page answered before the refetch of the first page ends neither duplicates nor loses rows', async () => {
    const { feed, view } = await firstPage();
    const releaseFirst = hold(pageOf(1));
    controller.invalidate(CardResource.getList, { group: 'a' });
    await feed.loadNext();
    releaseFirst();
    await view.until((s) => s.data !== undefined && !s.fetching && !s.fetchingNext);
    const shown = ids(view.last.data as Card[]);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown).toEqual(ids(cards).slice(0, shown.length));
    expect(await loadAll(feed, view)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('the server lost a card meanwhile: the refetched first page and the pages after it hold each card once', async () => {
    const { feed, view } = await firstPage();
    const release = hold(pageOf(2));
    const loading = feed.loadNext();
    await settle();
    cards.shift(); // card 1 deleted on the server: every later card moves one place up
    controller.invalidate(CardResource.getList, { group: 'a' });
    await view.until((s) => s.data !== undefined && !s.fetching);
    expect(ids(view.last.data as Card[])).toEqual([2, 3, 4]);
    release();
    await loading;
    await settle();
    expect(await loadAll(feed, view)).toEqual([2, 3, 4, 5, 6, 7]);
  });
});

describe('list members while a page is in flight', () => {
  it('push during getPage: the new card shows once, also when a later page returns it', async () => {
    const { feed, view } = await firstPage();
    const release = hold(pageOf(2));
    const loading = feed.loadNext();
    const created = await controller.fetch(CardResource.getList.push, { group: 'a' }, { group: 'a', title: 'new' });
    expect(created).toBeInstanceOf(Card);
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 8]);
    release();
    await loading;
    await settle();
    const shown = ids(view.last.data as Card[]);
    expect(shown.filter((id) => id === 8)).toHaveLength(1);
    const all = await loadAll(feed, view);
    expect([...all].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('unshift during getPage: the new card stays first and shows once', async () => {
    const { feed, view } = await firstPage();
    const release = hold(pageOf(2));
    const loading = feed.loadNext();
    await controller.fetch(CardResource.getList.unshift, { group: 'a' }, { group: 'a', title: 'new' });
    expect(ids(view.last.data as Card[])).toEqual([8, 1, 2, 3]);
    release();
    await loading;
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([8, 1, 2, 3, 4, 5, 6]);
    expect(await loadAll(feed, view)).toEqual([8, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('remove of a card a later page returns: the page does not duplicate it nor lose its other rows', async () => {
    const { feed, view } = await firstPage();
    // removed from the list on the client only: page 2 still returns card 4
    await controller.fetch(CardResource.getList.remove, { group: 'a' }, { id: 4, group: 'a', title: 'card 4' });
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3]);
    expect(controller.get(Card, { id: 4 })).toBeInstanceOf(Card);
    await feed.loadNext();
    await settle();
    const shown = ids(view.last.data as Card[]);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.filter((id) => id !== 4)).toEqual([1, 2, 3, 5, 6]);
    expect(view.last.hasNext).toBe(true);
  });

  it('remove while the page that returns the card is in flight: the page joins without it', async () => {
    const { feed, view } = await firstPage();
    const release = hold(pageOf(2));
    const loading = feed.loadNext();
    await settle();
    await controller.fetch(CardResource.getList.remove, { group: 'a' }, { id: 4, group: 'a', title: 'card 4' });
    release();
    await loading;
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 5, 6]);
    expect(view.last.hasNext).toBe(true);
  });

  it('remove of a card on the first page: the following page joins without it', async () => {
    const { feed, view } = await firstPage();
    await controller.fetch(CardResource.getList.remove, { group: 'a' }, { id: 2, group: 'a', title: 'card 2' });
    expect(ids(view.last.data as Card[])).toEqual([1, 3]);
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 3, 4, 5, 6]);
  });

  it('move takes a card from the list of one group to the list of another', async () => {
    const a = await firstPage();
    const b = follow(observeInfinite(controller, CardResource.getList, { group: 'b' }, { pageSize: PAGE }).state$);
    await b.until((s) => s.data !== undefined && !s.fetching);
    expect(ids(b.last.data as Card[])).toEqual([]);
    await controller.fetch(CardResource.getList.move, { id: 2 }, { group: 'b' });
    expect(ids(a.view.last.data as Card[])).toEqual([1, 3]);
    expect(ids(b.last.data as Card[])).toEqual([2]);
    expect((b.last.data as Card[])[0]!.group).toBe('b');
    // the next pages of group a follow on without bringing card 2 back or repeating a card
    const all = await loadAll(a.feed, a.view);
    expect(all).not.toContain(2);
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, 2)).toEqual([1, 3]);
    expect(all.slice(-3)).toEqual([5, 6, 7]);
  });

  it('an optimistic push that fails rolls back to exactly the pages loaded meanwhile', async () => {
    const { feed, view } = await firstPage();
    failPost = 1;
    const releasePost = hold((_url, method) => method === 'POST');
    // a body with its id: the expected card has a pk, so it shows at once
    const pushed = controller.fetch(CardResource.getList.push, { group: 'a' }, { id: 8, group: 'a', title: 'new' });
    pushed.catch(() => undefined);
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 8]);
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[]).slice(0, 3)).toEqual([1, 2, 3]);
    releasePost();
    await expect(pushed).rejects.toMatchObject({ name: 'NetworkError', status: 500 });
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(view.last.hasNext).toBe(true);
  });
});

describe('optimistic unshift', () => {
  it('that fails rolls back to exactly the pages loaded meanwhile', async () => {
    const { feed, view } = await firstPage();
    failPost = 1;
    const releasePost = hold((_url, method) => method === 'POST');
    const unshifted = controller.fetch(
      CardResource.getList.unshift,
      { group: 'a' },
      { id: 9, group: 'a', title: 'first' },
    );
    unshifted.catch(() => undefined);
    expect(ids(view.last.data as Card[])).toEqual([9, 1, 2, 3]);
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([9, 1, 2, 3, 4, 5, 6]);
    releasePost();
    await expect(unshifted).rejects.toMatchObject({ name: 'NetworkError', status: 500 });
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(controller.getState().entities.Card?.['9']).toBeUndefined();
  });
});

describe('loadNext', () => {
  it('called twice quickly sends one request for the next page', async () => {
    const { feed, view } = await firstPage();
    requests.length = 0;
    const release = hold(pageOf(2));
    const one = feed.loadNext();
    const two = feed.loadNext();
    await settle();
    release();
    await Promise.all([one, two]);
    await settle();
    expect(pageRequests()).toEqual(['GET /cards?group=a&page=2']);
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('after the last page sends nothing', async () => {
    const { feed, view } = await firstPage();
    expect(await loadAll(feed, view)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(view.last.hasNext).toBe(false);
    requests.length = 0;
    await feed.loadNext();
    await settle();
    expect(requests).toEqual([]);
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a page answered with HTML keeps the loaded pages and reports a named error', async () => {
    const { feed, view } = await firstPage();
    malformed = (r) =>
      new URL(r.url).searchParams.get('page') === '2'
        ? new HttpResponse('<!doctype html><p>maintenance</p>', { headers: { 'Content-Type': 'text/html' } })
        : undefined;
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3]);
    expect(view.last.error).toBeInstanceOf(Error);
    expect(view.last.error!.name).toBe('ParseError');
    expect(view.last.error!.message).toContain('page=2');
    expect(view.last.fetchingNext).toBe(false);
    expect(view.last.hasNext).toBe(true);
    // once the server answers well, the same page loads
    malformed = undefined;
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a page answered with the wrong shape keeps the loaded pages and reports a named error', async () => {
    const { feed, view } = await firstPage();
    malformed = (r) =>
      new URL(r.url).searchParams.get('page') === '2' ? HttpResponse.json({ rows: [{ id: 4 }] }) : undefined;
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3]);
    expect(view.last.error).toBeInstanceOf(Error);
    expect(view.last.error!.name).toBe('NormalizeError');
    expect(view.last.hasNext).toBe(true);
    expect(controller.getState().entities.Card?.['4']).toBeUndefined();
  });

  it('a page whose JSON is cut short keeps the loaded pages and reports a ParseError', async () => {
    const { feed, view } = await firstPage();
    malformed = (r) =>
      new URL(r.url).searchParams.get('page') === '2'
        ? new HttpResponse('[{"id": 4, "group": "a"', { headers: { 'Content-Type': 'application/json' } })
        : undefined;
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3]);
    expect(view.last.error?.name).toBe('ParseError');
    expect(view.last.loading).toBe(false);
  });

  it('a page answered 500 keeps the loaded pages; the next loadNext asks for the same page', async () => {
    const { feed, view } = await firstPage();
    malformed = (r) =>
      new URL(r.url).searchParams.get('page') === '2'
        ? HttpResponse.json({ message: 'down' }, { status: 500 })
        : undefined;
    await feed.loadNext();
    await settle();
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3]);
    expect(view.last.error).toMatchObject({ name: 'NetworkError', status: 500 });
    malformed = undefined;
    requests.length = 0;
    await feed.loadNext();
    await settle();
    expect(pageRequests()).toEqual(['GET /cards?group=a&page=2']);
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(view.last.error).toBeUndefined();
  });

  it('before the first page arrived sends nothing', async () => {
    const release = hold(pageOf(1));
    const feed = observeInfinite(controller, CardResource.getList, { group: 'a' }, { pageSize: PAGE });
    const view = follow(feed.state$);
    expect(view.last).toMatchObject({ loading: true, hasNext: false });
    await feed.loadNext();
    await settle();
    expect(pageRequests()).toEqual(['GET /cards?group=a']);
    release();
    await view.until((s) => s.data !== undefined);
    expect(ids(view.last.data as Card[])).toEqual([1, 2, 3]);
  });
});

describe('getPage through controller.fetch', () => {
  it('a page fetched while the list refetches: the refetched list holds each card once', async () => {
    const list = follow(observeInfinite(controller, CardResource.getList, { group: 'a' }, { pageSize: PAGE }).state$);
    await list.until((s) => s.data !== undefined && !s.fetching);
    const releaseFirst = hold(pageOf(1));
    controller.invalidate(CardResource.getList, { group: 'a' });
    const page = await controller.fetch(CardResource.getList.getPage, { group: 'a', page: 2 });
    expect(ids(page as Card[])).toEqual([4, 5, 6]);
    releaseFirst();
    await list.until((s) => s.data !== undefined && !s.fetching);
    const shown = ids(list.last.data as Card[]);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown.slice(0, 3)).toEqual([1, 2, 3]);
  });

  it('a page of one group never joins the list of another', async () => {
    const a = await firstPage();
    const b = follow(observeInfinite(controller, CardResource.getList, { group: 'b' }, { pageSize: PAGE }).state$);
    await b.until((s) => s.data !== undefined && !s.fetching);
    await controller.fetch(CardResource.getList.getPage, { group: 'a', page: 2 });
    await controller.fetch(CardResource.getList.push, { group: 'b' }, { group: 'b', title: 'in b' });
    expect(ids(a.view.last.data as Card[])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(b.last.data as Card[])).toEqual([8]);
  });
});
