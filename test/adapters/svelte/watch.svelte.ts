/** `watch(read)`: runs `read` in an effect (outside any component) and records each value it returns. */
import { flushSync } from 'svelte';

/** The values an effect that runs `read` saw, and `stop()` to end it. */
export function watch<T>(read: () => T): { values: T[]; stop(): void } {
  const values: T[] = [];
  const stop = $effect.root(() => {
    $effect(() => {
      values.push(read());
    });
  });
  flushSync();
  return { values, stop };
}
