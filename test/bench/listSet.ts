/**
 * `npx tsx test/bench/listSet.ts`: what one `controller.set(Todo, { id }, { id, title })` costs while a stream
 * observes the whole list of n todos (what the browser benchmark, case H, does per update and per burst of
 * 100), without the DOM: per set, and per burst of 100 sets in one task, at n = 500 and 5,000. Prints the
 * median of batches (CPU time of the process) and checks each emission (the changed row new, the others kept).
 */
import { Controller, Entity, createResource } from '../../core/index.js';

class Todo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({ urlPrefix: 'http://bench.invalid', path: '/todos/:id', schema: Todo });

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function run(n: number, burst: number, batches = 7): number {
  const controller = new Controller();
  const rows = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    userId: (i % 10) + 1,
    title: `todo ${i + 1}`,
    completed: i % 3 === 0,
  }));
  controller.setResponse(TodoResource.getList, {}, rows);
  let list: readonly Todo[] = [];
  const subscription = controller.observe(TodoResource.getList, {}).subscribe((state) => {
    list = state.data as readonly Todo[];
  });
  let version = 0;
  const update = () => {
    const id = ((version * 7919) % n) + 1;
    const before = list;
    controller.set(Todo, { id }, { id, title: `todo ${id} #${++version}` });
    return [id, before] as const;
  };
  // checked: the changed row is new and holds the title, every other row is the same object
  for (let i = 0; i < 3; i++) {
    const [id, before] = update();
    if (list[id - 1]!.title !== `todo ${id} #${version}` || list[id - 1] === before[id - 1])
      throw new Error('wrong row');
    if (list.some((todo, j) => j !== id - 1 && todo !== before[j])) throw new Error('a row lost its identity');
  }
  const rounds = Math.max(1, Math.floor(200 / burst));
  for (let i = 0; i < rounds * burst; i++) update(); // warm-up
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = cpu();
    for (let r = 0; r < rounds; r++) for (let i = 0; i < burst; i++) update();
    samples.push((cpu() - start) / rounds);
  }
  subscription.unsubscribe();
  return median(samples);
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
console.log('| n | one set (stream re-emits) | burst of 100 sets |');
console.log('|---|---:|---:|');
for (const n of [500, 5000]) console.log(`| ${n} | ${fmt(run(n, 1))} | ${fmt(run(n, 100))} |`);
process.exit(0);
