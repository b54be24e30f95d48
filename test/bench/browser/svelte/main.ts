/** The Svelte page: each variant is a chunk of its own, loaded for the one the URL names. */
import { start } from '../harness.js';

void start({
  'rx-store': () => import('./rxStore.js'),
  'rx-state': () => import('./rxState.js'),
  'rx-derived': () => import('./rxDerived.js'),
  tanstack: () => import('./tanstack.js'),
});
