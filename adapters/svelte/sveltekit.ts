/**
 * SvelteKit: one controller per server request and one per browser tab, made in the root `+layout.ts`
 * load with the load's `fetch`, so that the responses the server's loads fetched are replayed from the
 * page during hydration instead of being requested again.
 */
import { onMount } from 'svelte';
import { Controller, holdHydration, type ControllerOptions, type FetchFunction } from '../../core/index.js';

/** What `loadController` needs of a SvelteKit load event (`LoadEvent`, `ServerLoadEvent`): its `fetch`, and `untrack` where it has one. */
export interface LoadEventLike {
  readonly fetch: FetchFunction;
  /** SvelteKit's `untrack` (2.x): the tab's controller fetches through it, so its URLs are no dependency of the root load. */
  readonly untrack?: (<T>(fn: () => T) => T) | undefined;
}

/** The browser tab's controller (a browser runs one user's app: one controller for every page); `null` once it was disposed. */
let tabController: Controller | null | undefined;

/** The hold on the page's hydration that `loadController` took (released when `setController`'s component mounted). */
let pageHydration: (() => void) | undefined;

/**
 * Whether the page holds HTML that Svelte rendered on a server and is about to hydrate: its hydration
 * markers (`<!--[-->`) are in the body. A page rendered in the browser only (`ssr = false`) has none.
 */
function serverRendered(): boolean {
  const body = globalThis.document?.body;
  if (!body || typeof document.createTreeWalker !== 'function') return false;
  const comments = document.createTreeWalker(body, 128 /* NodeFilter.SHOW_COMMENT */);
  for (let node = comments.nextNode(); node !== null; node = comments.nextNode()) {
    if (node.nodeValue?.startsWith('[')) return true;
  }
  return false;
}

/**
 * Ends the hold `loadController` took on a server-rendered page's hydration: `setController` calls it
 * once its component mounted (the page is hydrated), and the add-ons that waited (`persist`'s restore,
 * `syncTabs`) start. Calling it again does nothing.
 */
export function pageHydrated(): void {
  const release = pageHydration;
  pageHydration = undefined;
  release?.();
}

/**
 * Ends the hold `loadController` took once the calling component mounted (the page is hydrated then):
 * `setController` calls it, and so do the queries given their controller explicitly, for an app that
 * never calls `setController`. With no hold, or outside a component, it does nothing.
 */
export function hydratedOnMount(): void {
  if (pageHydration) {
    try {
      onMount(pageHydrated);
    } catch {
      // outside a component's initialisation: the next component that mounts releases it
    }
  }
}

/**
 * The controller of a SvelteKit app, for its loads and pages: on the server a new one on every call,
 * in the browser one per tab (the same on every call until it is disposed: the call after
 * `controller.dispose()` makes a new one). Call it in the root `+layout.ts` load and return
 * it: that load runs once per server request, so two users never share a controller, and once in the
 * browser. Its requests go through the event's `fetch` (on the server, SvelteKit's `event.fetch`, whose
 * responses the page carries to the browser: the browser's first loads read them instead of the
 * network). `options` are the controller's (not `fetch`); in the browser only those of the call that
 * makes the tab's controller count. An app that disposes it runs the root load again (`invalidateAll()`)
 * and puts the new one in context: `setController` ran once, in the root layout that stays mounted
 * (docs/ssr.md keys the layout's children on `data.controller`).
 * On a server-rendered page, the add-ons among its `managers` (`persist`, `syncTabs`) write into the store
 * only once the page is hydrated (when the component that calls `setController` mounted, or without
 * `setController` the first component that passes the controller to a query explicitly), so the first
 * render shows the server's data.
 * In the browser the tab's GETs stay SvelteKit's load `fetch` after hydration too: a response the server
 * rendered with `Cache-Control: max-age=N` answers the same URL again from the page, without a request, for N
 * seconds after the page loaded (SvelteKit's `subsequent_fetch`), a refetch after `invalidate` or a mutation
 * included. Send no `max-age` on API responses the loads fetch, or give such endpoints `cache: 'no-cache'`
 * (`getRequestInit`), which SvelteKit's cache skips and the page's own replay while hydrating does not read.
 *
 * @example
 * // src/routes/+layout.ts
 * import { loadController } from 'rx-rest/svelte';
 * export const load = (event) => ({ controller: loadController(event) });
 *
 * // src/routes/+page.ts
 * export const load = async ({ parent }) => {
 *   const { controller } = await parent();
 *   await controller.fetchIfStale(TodoResource.getList, {}); // from the cache on a client navigation when fresh
 * };
 */
export function loadController(event: LoadEventLike, options: Omit<ControllerOptions, 'fetch'> = {}): Controller {
  if (typeof event?.fetch !== 'function') {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? 'loadController(event) expects a SvelteKit load event (an object with fetch): call it in a load function with its event.'
        : 'loadController(event)',
    );
  }
  if (typeof window === 'undefined') return new Controller({ ...options, fetch: event.fetch });
  if (!tabController) {
    // the first load of a server-rendered page: add-ons that write into the store (a persisted save,
    // another tab's state) wait until it is hydrated, so that it renders the server's data (not again
    // for a controller made after the first was disposed: that page hydrated then)
    if (tabController === undefined && serverRendered()) pageHydration = holdHydration();
    // a disposed controller is forgotten (its dispose() ends this manager too): the next call makes a live one
    const forget = () => () => (tabController = null);
    // the load's fetch, used by the tab for its whole life, would make every URL the controller requests later a
    // dependency of the root load (SvelteKit keeps tracking after the load returned): `invalidate(url)` of any of
    // them would run the root load (and the loads that await parent()) again; untracked, it replays the page all the same
    const { fetch, untrack } = event;
    tabController = new Controller({
      ...options,
      fetch: untrack ? (input, init) => untrack(() => fetch(input, init)) : fetch,
      managers: [...(options.managers ?? []), forget],
    });
  }
  return tabController;
}
