/**
 * The demos' tabs share one cache (`rx-rest/sync`): open an app twice and a change in one tab shows in
 * the other. In dev builds (and builds made with `VITE_RX_REST_EXPOSE=1`, as the end-to-end tests do)
 * the controller is also on `window.rxRestDemo`, to try things from the console:
 * `rxRestDemo.controller.set(rxRestDemo.Todo, { id: 1, title: 'Hello from the other tab' })`.
 */
import type { Controller } from 'rx-rest';
import { syncTabs } from 'rx-rest/sync';
import { Todo, TodoResource } from './api';

/** What the demos put on `window` outside production builds. */
export interface DemoHandle {
  readonly controller: Controller;
  readonly Todo: typeof Todo;
  readonly TodoResource: typeof TodoResource;
}

declare global {
  interface Window {
    rxRestDemo?: DemoHandle;
  }
}

/** The apps' controller manager: syncs the tabs of the app and, outside production, exposes the controller. */
export function shareAcrossTabs(controller: Controller): () => void {
  if (import.meta.env.DEV || import.meta.env.VITE_RX_REST_EXPOSE)
    window.rxRestDemo = { controller, Todo, TodoResource };
  return syncTabs(controller);
}
