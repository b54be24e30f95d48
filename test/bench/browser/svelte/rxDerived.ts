/** rx-rest, Svelte: the list of RxListDerived.svelte. */
import { rxVariant } from './rx.js';
import RxListDerived from './RxListDerived.svelte';

export default rxVariant(RxListDerived);
