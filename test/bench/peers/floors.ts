/** Case F, the floors: `JSON.parse` of the response text and one walk over every field; and the parsed JSON's heap. */
import { generate } from '../data.js';
import { keep, measure, report, retained, type Job } from '../harness.js';

/** Visits every field of a JSON value once; returns a checksum so the walk cannot be optimized away. */
function walk(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value === 'number') return 1;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null || typeof value !== 'object') return 0;
  let sum = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) sum += walk(value[i]);
    return sum;
  }
  for (const key in value) sum += walk((value as Record<string, unknown>)[key]);
  return sum;
}

{
  const job = JSON.parse(process.argv[2] ?? '{}') as Job;
  const data = generate(job.n);
  let result: unknown;
  if (job.kind === 'size') {
    const parse = measure({ batches: job.batches, setup: () => data.text, run: (text) => JSON.parse(text) });
    const parsed: unknown = JSON.parse(data.text);
    const walkTiming = measure({ batches: job.batches, setup: () => parsed, run: (value) => walk(value) });
    result = { parse, walk: walkTiming, bytes: Buffer.byteLength(data.text) };
  } else if (job.kind === 'memory') {
    const samples = [0, 1, 2].map(() => retained(() => JSON.parse(data.text)));
    samples.sort((a, b) => a - b);
    result = { n: job.n, bytes: samples[1] };
  } else {
    throw new Error('floors: no fan-out case');
  }
  keep(undefined);
  report('floors', job, result);
}
