/** The Svelte page: each variant is a chunk of its own, loaded for the one the URL names. */
import { start } from '../harness.js';

void start({
  'rx-store': () => import('./rxStore.js'),
  'rx-state': () => import('./rxState.js'),
  'rx-derived': () => import('./rxDerived.js'),
  'rx-reconcile': () => import('./rxReconcile.js'),
  'rx-store-reconcile': () => import('./rxStoreReconcile.js'),
  tanstack: () => import('./tanstack.js'),
  floor: () => import('./floor.js'),
  'floor-raw': () => import('./floorRaw.js'),
});
