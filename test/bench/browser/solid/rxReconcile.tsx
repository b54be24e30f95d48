/** rx-rest, Solid: the list of rx.tsx with `reconcile: true` (each todo a store, updated field by field). */
import { rxVariant } from './rx.jsx';

export default rxVariant(true);
