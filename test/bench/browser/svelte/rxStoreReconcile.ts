/** rx-rest, Svelte: the list of RxListStoreReconcile.svelte. */
import { rxVariant } from './rx.js';
import RxListStoreReconcile from './RxListStoreReconcile.svelte';

export default rxVariant(RxListStoreReconcile);
