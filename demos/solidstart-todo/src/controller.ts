/**
 * The app's controller: one per server request, one per browser tab (`controllerPerRequest`). On the
 * server, requests to `/api/...` go straight to the REST server (a server has no origin to resolve a
 * relative URL against) and are not retried (the core's default outside a browser: a page whose API is
 * down fails at once); in the browser they go through the app's `/api` route, retried as in the other demos.
 */
import { Controller } from 'rx-rest';
import { persist } from 'rx-rest/persist';
import { controllerPerRequest } from 'rx-rest/solid';
import { isServer } from 'solid-js/web';
import { API_PREFIX, CONTROLLER_OPTIONS } from '../../api';
import { restServerUrl } from './restServer';

/** `fetch` with `/api/...` sent to the REST server itself. */
function serverFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(`${API_PREFIX}/`)) return fetch(input, init);
  return fetch(`${restServerUrl()}${url.slice(API_PREFIX.length)}`, init);
}

/** Where the demo keeps its data in localStorage. */
export const PERSIST_KEY = 'rx-rest-solidstart-demo';

/**
 * The controller of the request being rendered (server) or of this tab (browser). The tab's keeps its
 * data in localStorage: made while the page hydrates, its save is restored once the page is hydrated,
 * so the first render shows the server's data.
 */
export const appController = controllerPerRequest(() =>
  isServer
    ? new Controller({ fetch: serverFetch })
    : new Controller({ ...CONTROLLER_OPTIONS, managers: [(c) => persist(c, { key: PERSIST_KEY, version: 1 })] }),
);
