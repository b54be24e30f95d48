/**
 * The page's hydration, as the add-ons see it: while a framework hydrates a server-rendered page, the
 * first render in the browser must read the same data as the server's render. An adapter that starts
 * hydrating holds it (`holdHydration`) and releases the hold once the page is hydrated; an add-on that
 * would write into the store from outside the page (a persisted save, another tab's state) waits for
 * that with `afterHydration`. A browser tab hydrates one page, so the state is the tab's; nothing on a
 * server ever holds it (the adapters hold only in a browser).
 */

import { reportLater } from '../errors.js';

let holds = 0;
const waiting = new Set<() => void>();

/** Runs what waited for the hydration, once no hold is left. */
function releaseWaiting(): void {
  if (holds > 0) return;
  const runs = [...waiting];
  waiting.clear();
  for (const run of runs) {
    try {
      run();
    } catch (error) {
      // one add-on that fails must not keep the others from starting
      reportLater(error);
    }
  }
}

/**
 * Marks the page as hydrating until the returned release is called (calling it again does nothing).
 * The adapters call it when a server-rendered page starts hydrating (`loadController` in SvelteKit,
 * `controllerPerRequest` in SolidStart) and release it once the page mounted; call it yourself around
 * a hand-written `hydrate()`.
 *
 * @example
 * const release = holdHydration();
 * const controller = new Controller({ managers: [(c) => persist(c)] }); // its restore waits
 * hydrate(App, { target: document.body, props: { controller } });
 * release(); // the save is restored now
 */
export function holdHydration(): () => void {
  holds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    releaseWaiting();
  };
}

/**
 * Whether a server-rendered page is hydrating (an adapter holds the hydration).
 *
 * @example
 * if (!isHydrating()) restoreSnapshot(controller, saved);
 */
export function isHydrating(): boolean {
  return holds > 0;
}

/**
 * Runs `run` now when no page is hydrating, else once the hydration is released. Returns a cancel
 * that keeps a run that has not happened yet from happening. For add-ons that write into the store
 * from outside the page (`persist`'s restore, `syncTabs`' messages): written during hydration, their
 * data would render other HTML than the server's.
 *
 * @example
 * const cancel = afterHydration(() => restoreSnapshot(controller, saved));
 */
export function afterHydration(run: () => void): () => void {
  if (holds === 0) {
    run();
    return () => {};
  }
  const once = () => run();
  waiting.add(once);
  return () => void waiting.delete(once);
}
