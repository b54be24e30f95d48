/**
 * The in-page devtools panel (`rx-rest/devtools`' `mountDevtools`) in the demos: mounted in development
 * (`npm run demo`), and on demand in production builds, by `?rx-rest-devtools` in the URL or by
 * `rxRestDevtools()` in the browser console. Its code is a chunk of its own, fetched only then: the
 * production bundle the page loads at start does not hold it (`npm run size` checks).
 */
import type { Controller } from 'rx-rest';

declare global {
  interface Window {
    /** Loads and opens the devtools panel of the demo's controller (resolves once it is mounted). */
    rxRestDevtools?: () => Promise<void>;
  }
}

/** The apps' controller manager: the devtools panel in development or on demand; returns its teardown. */
export function devtoolsPanel(controller: Controller): () => void {
  let unmount: (() => void) | undefined;
  let stopped = false;
  const load = async (open: boolean) => {
    const { mountDevtools } = await import('./devtoolsPanelChunk');
    if (stopped) return;
    if (open) unmount?.(); // the console call: mounted again, open
    if (open || unmount === undefined) unmount = mountDevtools(controller, { initialIsOpen: open });
  };
  const asked = new URLSearchParams(window.location.search).has('rx-rest-devtools');
  if (import.meta.env.DEV || asked) void load(asked);
  window.rxRestDevtools = () => load(true);
  return () => {
    stopped = true;
    unmount?.();
    delete window.rxRestDevtools;
  };
}
