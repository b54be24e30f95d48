/** The Solid page: each variant is a chunk of its own, loaded for the one the URL names. */
import { start } from '../harness.js';

void start({
  rx: () => import('./rx.jsx'),
  'rx-reconcile': () => import('./rxReconcile.jsx'),
  tanstack: () => import('./tanstack.jsx'),
  floor: () => import('./floor.jsx'),
});
