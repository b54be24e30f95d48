/** Whether `error` is the engine's stack overflow (an input nested tens of thousands of levels deep). */
export function tooDeep(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
