/**
 * `npx tsx test/bench/valuesAssign.ts`: what one single-entry write costs in a large Collection of
 * `schema.Values` (`assign`, `remove`) beside a list of the same size (`push`, `remove`), at n = 20,000 and
 * 200,000 entries, with no stream reading it (the write alone). Prints the median CPU time of a few writes.
 */
import { Controller, Entity, RestEndpoint, schema } from '../../core/index.js';

class Row extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'BenchRow';
}

const API = 'http://bench.invalid';
const byId = new schema.Collection(new schema.Values(Row));
const list = new schema.Collection([Row]);
const map = new RestEndpoint({ urlPrefix: API, path: '/map', schema: byId });
const assign = new RestEndpoint({ urlPrefix: API, path: '/map', method: 'POST', schema: byId.assign });
const removeEntry = new RestEndpoint({ urlPrefix: API, path: '/map/:id', method: 'DELETE', schema: byId.remove });
const rows = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: list });
const push = new RestEndpoint({ urlPrefix: API, path: '/rows', method: 'POST', schema: list.push });
const removeRow = new RestEndpoint({ urlPrefix: API, path: '/rows/:id', method: 'DELETE', schema: list.remove });

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function time(write: (i: number) => void, times = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = cpu();
    write(i);
    samples.push(cpu() - start);
  }
  return median(samples);
}

for (const n of [20_000, 200_000]) {
  const data = Array.from({ length: n }, (_, i) => ({ id: `r${i}`, name: `row ${i}` }));
  const c = new Controller({ environment: {} });
  c.setResponse(map, {}, Object.fromEntries(data.map((r) => [r.id, r])));
  c.setResponse(rows, {}, data);
  const assignMs = time((i) => c.setResponse(assign, {}, { [`new${i}`]: { id: `new${i}`, name: 'new' } }));
  const removeMs = time((i) => c.setResponse(removeEntry, { id: `r${i}` }, { [`r${i}`]: { id: `r${i}` } }));
  const pushMs = time((i) => c.setResponse(push, {}, { id: `p${i}`, name: 'new' }, { id: `p${i}`, name: 'new' }));
  const removeRowMs = time((i) => c.setResponse(removeRow, { id: `r${i}` }, { id: `r${i}` }));
  const entries = Object.keys(c.getState().entities['{BenchRow}']!['{}'] as object).length;
  const items = (c.getState().entities['[BenchRow]']!['{}'] as unknown[]).length;
  if (entries !== n) throw new Error(`Values collection holds ${entries}, expected ${n}`);
  if (items !== n) throw new Error(`list holds ${items}, expected ${n}`);
  console.log(
    `n=${n}: Values assign ${assignMs.toFixed(1)} ms, remove ${removeMs.toFixed(1)} ms; ` +
      `list push ${pushMs.toFixed(1)} ms, remove ${removeRowMs.toFixed(1)} ms`,
  );
  c.dispose();
}
