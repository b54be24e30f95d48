/** `mountDevtools`: one panel per controller, nothing on a server. */
import { Controller } from '../../core/index.js';
import { Panel } from './panel.js';
import type { DevtoolsPosition } from './styles.js';

/** What `mountDevtools` takes besides the controller. */
export interface MountDevtoolsOptions {
  /** Open at once (default false: only the toggle shows). */
  readonly initialIsOpen?: boolean | undefined;
  /** The corner of the viewport of the toggle and the panel. Default `'bottom-right'`. */
  readonly position?: DevtoolsPosition | undefined;
  /** The element the panel's host is appended to. Default `document.body`. */
  readonly target?: Element | undefined;
}

const POSITIONS: readonly DevtoolsPosition[] = ['bottom-right', 'bottom-left', 'top-right', 'top-left'];
const mounted = new WeakMap<Controller, { readonly panel: Panel; mounts: number }>();

/**
 * Mounts the in-page devtools panel of `controller`: a toggle button ("rx-rest devtools") in a corner of
 * the page that opens tabs of its queries, entities and actions. The panel lives in an element with the
 * attribute `data-rx-rest-devtools` and an open shadow root (its styles do not leak in or out). Returns a
 * teardown that removes the panel and everything it holds.
 *
 * Options that are not an object, a `position` that is not one of the four corners, or a `target` that is not
 * an element, are a TypeError.
 * Without `document` (server rendering) it does nothing. Mounting the same controller again shows the
 * same one panel (put back in the page if the app removed it); it goes when every mount's teardown has run. Closed, the panel does no work per action;
 * open but removed from the document by the app, it draws nothing until it is back (a new mount, or the app putting it back).
 *
 * Keep it out of production bundles with a dynamic import of `rx-rest/devtools` under your bundler's
 * development flag (docs/addons.md).
 *
 * @example
 * const unmount = mountDevtools(controller, { initialIsOpen: true, position: 'bottom-left' });
 */
export function mountDevtools(controller: Controller, options: MountDevtoolsOptions = {}): () => void {
  if (!(controller instanceof Controller))
    throw new TypeError('mountDevtools expects a Controller as its first argument');
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `mountDevtools: options must be an object ({ initialIsOpen?, position?, target? }), not ${JSON.stringify(options)}.`,
    );
  const { position, target } = options;
  if (position !== undefined && !POSITIONS.includes(position))
    throw new TypeError(
      `mountDevtools: position must be one of ${POSITIONS.map((p) => `"${p}"`).join(', ')}, not ${JSON.stringify(position)}.`,
    );
  if (target !== undefined && typeof (target as Partial<Element> | null)?.append !== 'function')
    throw new TypeError(
      `mountDevtools: target must be an Element (document.querySelector(...)), not ${target === null ? 'null' : `a ${typeof target}`}.`,
    );
  const doc = options.target?.ownerDocument ?? (typeof document === 'undefined' ? undefined : document);
  if (doc === undefined || doc.defaultView === null) return () => {};
  let entry = mounted.get(controller);
  if (entry === undefined || entry.panel.destroyed) {
    entry = { panel: new Panel(controller, doc, options), mounts: 0 };
    mounted.set(controller, entry);
  } else if (!entry.panel.host.isConnected) {
    // the app removed the host (a page that rewrote its body): this mount shows the same panel again
    entry.panel.reattach(options.target ?? doc.body);
  }
  const own = entry;
  own.mounts++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--own.mounts > 0) return;
    own.panel.destroy();
    if (mounted.get(controller) === own) mounted.delete(controller);
  };
}
