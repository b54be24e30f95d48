/** rx-rest, Svelte: the list of RxListReconcile.svelte. */
import { rxVariant } from './rx.js';
import RxListReconcile from './RxListReconcile.svelte';

export default rxVariant(RxListReconcile);
