/**
 * API.md: `invalidateAll(endpoint)` / `expireAll(endpoint)` mark every stored result of that endpoint. A result
 * restored from a snapshot (a server render, persist, another tab) is stored too, before anything observes it: the
 * marks must reach it, so that the first subscriber afterwards refetches it (invalid: no data shown; expired: the
 * data shown, stale, and refetched in the background) instead of reading it as fresh.
 */
import { describe, expect, it } from 'vitest';
import { TodoResource, restoredFromServer, useTodoServer } from '../../reliability/faultHarness.js';

useTodoServer();

/** A controller holding `todo 1` and the list through a snapshot, and the URLs it requests afterwards. */
const restored = () =>
  restoredFromServer(async (server) => {
    await server.fetch(TodoResource.get, { id: 1 });
    await server.fetch(TodoResource.getList);
  });

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('invalidateAll / expireAll reach results restored and not yet observed', () => {
  it('invalidateAll: the restored result reads invalid and its first subscriber refetches it', async () => {
    const { browser, urls } = await restored();
    browser.invalidateAll(TodoResource.get);
    const states: { title?: string; fetching: boolean }[] = [];
    const subscription = browser
      .observe(TodoResource.get, { id: 1 })
      .subscribe((state) => states.push({ title: state.data?.title, fetching: state.fetching }));
    expect(states[0]).toEqual({ title: undefined, fetching: true });
    await settle();
    expect(urls).toEqual([expect.stringMatching(/\/todos\/1$/)]);
    expect(states.at(-1)?.title).toEqual(expect.any(String));
    // the list of another endpoint was not marked
    expect(browser.getResponse(TodoResource.getList).invalid).toBe(false);
    subscription.unsubscribe();
    browser.dispose();
  });

  it('expireAll: the restored result reads stale, is shown, and is refetched in the background', async () => {
    const { browser, urls } = await restored();
    browser.expireAll(TodoResource.getList);
    const states: { rows?: number; stale: boolean }[] = [];
    const subscription = browser
      .observe(TodoResource.getList)
      .subscribe((state) => states.push({ rows: state.data?.length, stale: state.stale }));
    expect(states[0]).toEqual({ rows: expect.any(Number), stale: true });
    await settle();
    expect(urls).toEqual([expect.stringMatching(/\/todos$/)]);
    subscription.unsubscribe();
    browser.dispose();
  });
});
