/** Where the REST server listens: `RX_REST_DEMO_API` (set by `npm run demo` and the tests), else the default. */
export function restServerUrl(): string {
  return process.env.RX_REST_DEMO_API ?? 'http://127.0.0.1:3210';
}
