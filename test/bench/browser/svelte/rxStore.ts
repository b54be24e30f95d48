/** rx-rest, Svelte: the list of RxListStore.svelte. */
import { rxVariant } from './rx.js';
import RxListStore from './RxListStore.svelte';

export default rxVariant(RxListStore);
