/** `$state.snapshot` outside a component, for tests of what it makes of a value. */
export const snapshot = <T>(value: T): unknown => $state.snapshot(value);
