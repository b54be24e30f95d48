/**
 * rx-rest/solid: the Solid adapter. Its API (createQuery, useLive, useSuspense and the controller
 * context) lands with the adapters issue; until then this entry point only exists so that the package
 * exports and the library build are in place.
 */
export {};
