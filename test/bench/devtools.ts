/**
 * `npm run bench:devtools`: what the in-page devtools panel costs the app, in jsdom. A controller with
 * 1,000 live queries (one subscriber each, on a todo each); the action is `controller.set` of one todo,
 * which one query reads. Three set-ups: no panel (absent), a mounted closed panel, an open panel on the
 * Queries tab (1,000 rows). Three measures:
 *
 * - action: the synchronous cost of one action (an open panel logs it and asks for a frame);
 * - action + frame: one action, then the frame's redraw (the worst case: every action in a frame of its own);
 * - burst: 1,000 actions, then one frame's redraw (the panel batches them), per action.
 *
 * and, apart, the whole redraw an open panel makes once a second (ages, requests started without an
 * action, observer counts). Prints the median of several batches and the ratios to "absent" (target: at most 2x open, about 1x closed).
 * Times are wall-clock medians: run it on a quiet machine.
 */
import { performance } from 'node:perf_hooks';
import { Panel } from '../../adapters/devtools/panel.js';
import { Controller, createResource } from '../../core/index.js';
import { PlainTodo as Todo } from '../fixtures/entities.js';

const TodoResource = createResource({ urlPrefix: 'http://bench.invalid', path: '/todos/:id', schema: Todo });
const QUERIES = 1_000;
const BATCHES = 9;

type Setup = 'absent' | 'closed' | 'open';
const jsdom = 'jsdom'; // it ships no types
const { JSDOM } = (await import(jsdom)) as {
  JSDOM: new (html: string, options: object) => { window: Window & { close(): void } };
};

function world(setup: Setup) {
  const dom = new JSDOM('<!doctype html><body></body>', { pretendToBeVisual: true });
  const controller = new Controller({ environment: {}, gcTime: Number.POSITIVE_INFINITY });
  for (let id = 0; id < QUERIES; id++)
    controller.setResponse(TodoResource.get, { id }, { id, title: `todo ${id}`, completed: false });
  const subscriptions: { unsubscribe(): void }[] = [];
  for (let id = 0; id < QUERIES; id++) subscriptions.push(controller.observe(TodoResource.get, { id }).subscribe());
  const panel =
    setup === 'absent' ? undefined : new Panel(controller, dom.window.document, { initialIsOpen: setup === 'open' });
  let n = 0;
  const act = () => {
    const id = n++ % QUERIES;
    controller.set(Todo, { id }, { id, title: `todo ${id} #${n}`, completed: n % 2 === 0 });
  };
  const close = () => {
    panel?.destroy();
    for (const s of subscriptions) s.unsubscribe();
    controller.dispose();
    dom.window.close();
  };
  if (panel?.isOpen && panel.host.shadowRoot!.querySelectorAll('tbody tr').length !== 500)
    throw new Error('the open panel does not show its rows');
  return { act, render: () => panel?.render(), redraw: () => panel?.select('Queries'), close };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Microseconds per action, median of the batches. */
function measure(setup: Setup, kind: 'action' | 'frame' | 'burst'): number {
  const { act, render, close } = world(setup);
  const perBatch = 1_000;
  const results: number[] = [];
  for (let batch = -2; batch < BATCHES; batch++) {
    const start = performance.now();
    for (let i = 0; i < perBatch; i++) {
      act();
      if (kind === 'frame') render();
    }
    if (kind === 'burst') render();
    const elapsed = ((performance.now() - start) * 1000) / perBatch;
    if (batch >= 0) results.push(elapsed); // two warm-up batches
  }
  close();
  return median(results);
}

/** Milliseconds of a whole redraw of the open panel (what its once-a-second tick costs), median. */
function redraw(): number {
  const { render, redraw, close } = world('open');
  const results: number[] = [];
  for (let batch = -2; batch < BATCHES; batch++) {
    const start = performance.now();
    redraw();
    render();
    if (batch >= 0) results.push(performance.now() - start);
  }
  close();
  return median(results);
}

console.log(
  `devtools panel cost: controller.set of one todo among ${QUERIES} live queries (jsdom; µs per action, median of ${BATCHES})`,
);
for (const kind of ['action', 'frame', 'burst'] as const) {
  const label = { action: 'action', frame: 'action + frame', burst: 'burst of 1,000 + one frame' }[kind];
  const absent = measure('absent', kind);
  const closed = measure('closed', kind);
  const open = measure('open', kind);
  console.log(
    `  ${label.padEnd(28)} absent ${absent.toFixed(1).padStart(8)} µs   closed ${closed.toFixed(1).padStart(8)} µs (${(closed / absent).toFixed(2)}x)   open ${open.toFixed(1).padStart(8)} µs (${(open / absent).toFixed(2)}x)`,
  );
}
const full = redraw();
console.log(
  `  whole redraw of the open panel (once a second, and on opening, filtering, switching tabs): ${full.toFixed(2)} ms (${(full / 10).toFixed(2)}% of a second)`,
);
