/** The benchmarks' clock and median, shared by the harness and the batch-write case. */

/** The clock of every timing: wall time, or with `BENCH_CLOCK=cpu` (`run.mjs --cpu`) the process's CPU time (user + system). */
export const now =
  process.env.BENCH_CLOCK === 'cpu'
    ? () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      }
    : () => performance.now();

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
