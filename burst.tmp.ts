import { Controller, Entity, createResource, watchQuery } from '/work/wt/perf/core/index.ts';
class Todo extends Entity {
  id = 0; userId = 0; title = ''; completed = false;
  pk() { return `${this.id}`; }
  static override key = 'Todo';
}
const R = createResource({ urlPrefix: 'http://bench.invalid', path: '/todos/:id', schema: Todo });
const n = 500;
const controller = new Controller({ gcTime: Infinity });
controller.setResponse(R.getList, {}, Array.from({ length: n }, (_, i) => ({ id: i + 1, userId: 1, title: `t${i}`, completed: false })));
let emitted = 0;
watchQuery(controller, R.getList, [{}], { batch: true }).subscribe(() => emitted++);
const tick = () => new Promise((r) => setTimeout(r, 0));
const times: number[] = [], acts: number[] = [];
for (let b = 0; b < Number(process.env.BURSTS ?? 300); b++) {
  await tick();
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) { const id = 1 + ((b * 211 + i * 5) % n); controller.set(Todo, { id }, { id, title: `x${b}` }); }
  const t1 = performance.now();
  await Promise.resolve(); await Promise.resolve(); await Promise.resolve();
  const t2 = performance.now();
  acts.push(t1 - t0); times.push(t2 - t0);
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log('act', med(acts.slice(-100)).toFixed(3), 'total', med(times.slice(-100)).toFixed(3), 'emitted', emitted);
