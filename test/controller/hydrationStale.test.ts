/**
 * API.md, server rendering: a server-rendered page hydrates "so that queries whose data arrived render it at once
 * and make no request", and "nothing refetches data that the server just rendered". Data that is stale as soon as it
 * is written (`dataExpiryLength: 0`), or that expired between the server's render and the browser's, is still what
 * the server rendered: while the page hydrates (an adapter holds the hydration, or the app around its own
 * `hydrate()`), a subscriber does not refetch it for its age. Data missing, invalidated or failed is fetched as
 * before, and after the hydration the usual triggers (a new subscriber, focus, polling) refetch stale data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { holdHydration } from '../../core/index.js';
import { TodoResource, restoredFromServer, useTodoServer } from '../reliability/faultHarness.js';

useTodoServer();

const releases: (() => void)[] = [];
afterEach(() => releases.splice(0).forEach((release) => release()));

const Expiring = TodoResource.get.extend({ dataExpiryLength: 0 });

/** A browser controller holding what a server controller fetched (through a snapshot), and its requests. */
const fromServer = (endpoint = Expiring) => restoredFromServer((server) => server.fetch(endpoint, { id: 1 }));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('subscribers while a server-rendered page hydrates', () => {
  it('render data that is stale as it was written (a lifetime of 0) and do not refetch it', async () => {
    const { browser, urls } = await fromServer();
    releases.push(holdHydration());
    const states: { title?: string; fetching: boolean; stale: boolean }[] = [];
    const subscription = browser
      .observe(Expiring, { id: 1 })
      .subscribe((state) => states.push({ title: state.data?.title, fetching: state.fetching, stale: state.stale }));
    await settle();
    expect(urls).toEqual([]);
    expect(states[0]).toEqual({ title: expect.any(String), fetching: false, stale: true });
    expect(states.every((state) => !state.fetching)).toBe(true);
    subscription.unsubscribe();
    browser.dispose();
  });

  it('still fetch what the page does not hold, and refetch stale data for a subscriber after the hydration', async () => {
    const { browser, urls } = await fromServer();
    const release = holdHydration();
    const held = browser.observe(Expiring, { id: 1 }).subscribe();
    const missing = browser.observe(TodoResource.get, { id: 2 }).subscribe();
    await settle();
    expect(urls).toEqual([expect.stringMatching(/\/todos\/2$/)]);
    release();
    await settle();
    expect(urls).toHaveLength(1); // the release itself fetches nothing
    const later = browser.observe(Expiring, { id: 1 }).subscribe();
    await settle();
    expect(urls).toEqual([expect.stringMatching(/\/todos\/2$/), expect.stringMatching(/\/todos\/1$/)]);
    for (const subscription of [held, missing, later]) subscription.unsubscribe();
    browser.dispose();
  });

  it('refetch data the app invalidated, hydrating or not', async () => {
    const { browser, urls } = await fromServer(TodoResource.get);
    releases.push(holdHydration());
    browser.invalidate(TodoResource.get, { id: 1 });
    const subscription = browser.observe(TodoResource.get, { id: 1 }).subscribe();
    await settle();
    expect(urls).toEqual([expect.stringMatching(/\/todos\/1$/)]);
    subscription.unsubscribe();
    browser.dispose();
  });

  it('without a hold (restoreSnapshot alone), stale data is refetched in the background as before', async () => {
    const { browser, urls } = await fromServer();
    const subscription = browser.observe(Expiring, { id: 1 }).subscribe();
    await settle();
    expect(urls).toEqual([expect.stringMatching(/\/todos\/1$/)]);
    subscription.unsubscribe();
    browser.dispose();
  });
});
