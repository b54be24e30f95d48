/** rx-rest, Svelte: the list of RxListState.svelte. */
import { rxVariant } from './rx.js';
import RxListState from './RxListState.svelte';

export default rxVariant(RxListState);
