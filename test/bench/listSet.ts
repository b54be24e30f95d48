/**
 * `npx tsx test/bench/listSet.ts`: what one `controller.set(Todo, { id }, { id, title })` costs while a stream
 * observes the whole list of n todos (what the browser benchmark, case H, does per update and per burst of
 * 100), without the DOM: per set, and per burst of 100 sets in one task, at n = 500 and 5,000. Prints the
 * median of batches (CPU time of the process) and checks each emission (the changed row new, the others kept).
 *
 * The sets are timed once the engine has optimized the write path (a warm-up of at least `WARM_SETS` sets and
 * `WARM_MS`): before that, a set costs several times more, most of it the engine compiling the path (its first
 * 1,000 sets, printed apart, include that compilation; in a page it is paid once, by the first writes).
 */
import { Controller, createResource } from '../../core/index.js';
import { PlainTodo as Todo } from '../fixtures/entities.js';

const TodoResource = createResource({ urlPrefix: 'http://bench.invalid', path: '/todos/:id', schema: Todo });

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** The warm-up before timing: at least this many sets, and this long (ms of CPU time). */
const WARM_SETS = 3_000;
const WARM_MS = 300;

/** A controller with a stream over the list of n todos, and its update (one set; checked, see below). */
function setUp(n: number) {
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
  return { update, stop: () => subscription.unsubscribe() };
}

/** The first 1,000 sets of the process (the write path not optimized yet), per set. */
function cold(n: number): number {
  const { update, stop } = setUp(n);
  const start = cpu();
  for (let i = 0; i < 1_000; i++) update();
  const ms = (cpu() - start) / 1_000;
  stop();
  return ms;
}

function run(n: number, burst: number, batches = 7): number {
  const { update, stop } = setUp(n);
  const rounds = Math.max(1, Math.floor(1_000 / burst));
  const warmStart = cpu();
  for (let i = 0; i < WARM_SETS || cpu() - warmStart < WARM_MS; i++) update();
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = cpu();
    for (let r = 0; r < rounds; r++) for (let i = 0; i < burst; i++) update();
    samples.push((cpu() - start) / rounds);
  }
  stop();
  return median(samples);
}

const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
const first = cold(500);
console.log('| n | one set (stream re-emits) | burst of 100 sets |');
console.log('|---|---:|---:|');
for (const n of [500, 5000]) console.log(`| ${n} | ${fmt(run(n, 1))} | ${fmt(run(n, 100))} |`);
console.log(
  `\nThe first 1,000 sets of the process (n = 500; the engine compiling the write path): ${fmt(first)} per set.`,
);
process.exit(0);
