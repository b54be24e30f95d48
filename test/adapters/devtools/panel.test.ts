// @vitest-environment jsdom
/**
 * The in-page devtools panel (`mountDevtools`) in jsdom: its host and shadow root, the toggle, the tabs and
 * what each shows, the buttons, the filter, the keyboard, text-only rendering, mounting twice, the
 * teardown, and that it costs nothing while closed. HTTP goes through the msw todo server.
 */
import { configure, fireEvent, within } from '@testing-library/dom';
import { BehaviorSubject, Observable, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mountDevtools } from '../../../adapters/devtools/index.js';
import { Controller, type ControllerAction } from '../../../core/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource, settled, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();
// jsdom keeps the computed style of shadow-tree elements from before a `hidden` attribute changed: queries
// include hidden elements, and the tests check the `hidden` attributes themselves (Chromium: the e2e tests)
configure({ defaultHidden: true });
/** Whether an element or one of its ancestors carries `hidden`. */
const isHidden = (element: Element) => element.closest('[hidden]') !== null;
const teardowns: (() => void)[] = [];
const subscriptions: Subscription[] = [];

afterEach(() => {
  for (const teardown of teardowns.splice(0)) teardown();
  for (const subscription of subscriptions.splice(0)) subscription.unsubscribe();
  document.body.replaceChildren();
});

const hosts = () => document.querySelectorAll('[data-rx-rest-devtools]');
const shadow = () => {
  const host = hosts()[0] as HTMLElement | undefined;
  if (!host?.shadowRoot) throw new Error('no panel');
  return host.shadowRoot;
};
const ui = () => within(shadow().querySelector<HTMLElement>('.root')!);
/** Waits for the next animation frame (the panel's renders). */
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const rows = (label: string) =>
  [...ui().getByRole('table', { name: label }).querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent),
  );
const row = (label: string, first: string) =>
  [...ui().getByRole('table', { name: label }).querySelectorAll('tbody tr')].find(
    (tr) => tr.querySelector('td')?.textContent === first,
  ) as HTMLElement;

/** A controller whose app observes the todo list twice and todo 1 once. */
async function appController() {
  const controller = new Controller({ retry: 0, environment: {} });
  subscriptions.push(
    controller.observe(TodoResource.getList, {}).subscribe(),
    controller.observe(TodoResource.getList, {}).subscribe(),
    controller.observe(TodoResource.get, { id: 1 }).subscribe(),
  );
  await settled(() => expect(controller.getResponse(TodoResource.getList, {}).data).toHaveLength(4));
  await settled(() => expect(controller.getResponse(TodoResource.get, { id: 1 }).data).toBeDefined());
  return controller;
}

function mount(controller: Controller, options: Parameters<typeof mountDevtools>[1] = {}) {
  const teardown = mountDevtools(controller, options);
  teardowns.push(teardown);
  return teardown;
}

const LIST = TodoResource.getList.key({});
const ONE = TodoResource.get.key({ id: 1 });

describe('mountDevtools', () => {
  it('puts a host with an open shadow root and a closed toggle in the page; the toggle opens and closes it', async () => {
    mount(new Controller());
    expect(hosts()).toHaveLength(1);
    expect(hosts()[0]!.parentElement).toBe(document.body);
    expect(hosts()[0]!.shadowRoot?.mode).toBe('open');
    const toggle = ui().getByRole('button', { name: 'rx-rest devtools' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(isHidden(ui().getByRole('tab', { name: 'Queries' }))).toBe(true); // the body is hidden
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Queries', 'Entities', 'Actions'])
      expect(isHidden(ui().getByRole('tab', { name }))).toBe(false);
    expect(ui().getByRole('tab', { name: 'Queries' }).getAttribute('aria-selected')).toBe('true');
    const panels = ui().getAllByRole('tabpanel');
    expect(panels.filter((panel) => !isHidden(panel))).toHaveLength(1);
    fireEvent.click(ui().getByRole('tab', { name: 'Actions' }));
    expect(panels.filter((panel) => !isHidden(panel)).map((panel) => panel.getAttribute('aria-labelledby'))).toEqual([
      ui().getByRole('tab', { name: 'Actions' }).id,
    ]);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(isHidden(ui().getByRole('tab', { name: 'Queries' }))).toBe(true);
  });

  it('opens at once with initialIsOpen, in the corner and the target asked for', () => {
    const target = document.body.appendChild(document.createElement('section'));
    mount(new Controller(), { initialIsOpen: true, position: 'top-left', target });
    expect(hosts()[0]!.parentElement).toBe(target);
    expect(ui().getByRole('button', { name: 'rx-rest devtools' }).getAttribute('aria-expanded')).toBe('true');
    expect(shadow().querySelector('.root')!.classList.contains('top-left')).toBe(true);
  });

  it('lists every key with its state, the app’s observer count (never its own) and the age of its data', async () => {
    const controller = await appController();
    await controller.fetch(TodoResource.get, { id: 2 });
    mount(controller, { initialIsOpen: true });
    const table = rows('Queries');
    expect(table.map((cells) => cells[0])).toEqual([LIST, ONE, TodoResource.get.key({ id: 2 })].sort());
    expect(table.find((cells) => cells[0] === LIST)).toEqual([
      LIST,
      'fresh',
      '2',
      expect.stringMatching(/^(now|\d+s)$/),
    ]);
    expect(table.find((cells) => cells[0] === ONE)?.slice(1, 3)).toEqual(['fresh', '1']);
    expect(table.find((cells) => cells[0] === TodoResource.get.key({ id: 2 }))?.slice(1, 3)).toEqual(['fresh', '0']);
    controller.invalidate(TodoResource.get, { id: 2 }); // nobody observes it: it stays invalid
    fake.setLatency(10_000);
    controller.invalidate(TodoResource.get, { id: 1 }); // observed: refetches
    await frame();
    expect(row('Queries', TodoResource.get.key({ id: 2 })).children[1]!.textContent).toBe('invalid');
    expect(row('Queries', ONE).children[1]!.textContent).toBe('fetching');
  });

  it('sits in the bottom-right corner by default; names a key stale past its expiry and paused while its request waits for the network', async () => {
    let now = 1_000_000;
    const online$ = new BehaviorSubject(true);
    const controller = new Controller({ retry: 0, now: () => now, environment: { online$ } });
    await controller.fetch(TodoResource.get, { id: 2 });
    now += 2 * 60_000; // past the default expiry (a minute), before the default gcTime (five)
    online$.next(false);
    subscriptions.push(controller.observe(TodoResource.get, { id: 3 }).subscribe());
    mount(controller, { initialIsOpen: true });
    expect(shadow().querySelector('.root')!.classList.contains('bottom-right')).toBe(true);
    expect(row('Queries', TodoResource.get.key({ id: 2 })).children[1]!.textContent).toBe('stale');
    expect(row('Queries', TodoResource.get.key({ id: 3 })).children[1]!.textContent).toBe('paused');
    online$.next(true);
    await settled(() => expect(controller.getResponse(TodoResource.get, { id: 3 }).data).toBeDefined());
    await frame();
    expect(row('Queries', TodoResource.get.key({ id: 3 })).children[1]!.textContent).toBe('fresh');
  });

  it('shows a selected query’s data, error and the records it reads; Refetch, Invalidate and Remove act on it', async () => {
    const controller = await appController();
    await controller.fetch(TodoResource.get, { id: 7 }).catch(() => {});
    mount(controller, { initialIsOpen: true });
    fireEvent.click(row('Queries', ONE));
    await frame();
    const detail = ui().getByRole('region', { name: 'Selected query' });
    expect(detail.querySelector('[data-part="data"]')!.textContent).toContain('"title"');
    expect(within(detail).getByRole('button', { name: 'Todo 1' })).toBeTruthy();

    const requests = fake.requests.length;
    fireEvent.click(within(detail).getByRole('button', { name: 'Refetch' }));
    await settled(() => expect(fake.requests.length).toBe(requests + 1));
    expect(fake.requests.at(-1)).toBe('GET /todos/1');
    await settled(() => expect(controller.getState().meta[ONE]?.date).toBeGreaterThan(0));

    fireEvent.click(within(detail).getByRole('button', { name: 'Invalidate' }));
    await settled(() => expect(fake.requests.length).toBe(requests + 2)); // observed: it refetches

    fireEvent.click(row('Queries', TodoResource.get.key({ id: 7 })));
    await frame();
    expect(detail.querySelector('[data-part="error"]')!.textContent).toMatch(/404/);
    expect(row('Queries', TodoResource.get.key({ id: 7 })).children[1]!.textContent).toBe('error');
    fireEvent.click(within(detail).getByRole('button', { name: 'Remove' }));
    expect(controller.getState().endpoints[TodoResource.get.key({ id: 7 })]).toBeUndefined();
    expect(controller.getState().meta[TodoResource.get.key({ id: 7 })]).toBeUndefined();
    await frame();
    expect(rows('Queries').map((cells) => cells[0])).not.toContain(TodoResource.get.key({ id: 7 }));
  });

  it('shows entity tables with counts, a record’s stored JSON and the queries that read it', async () => {
    const controller = await appController();
    mount(controller, { initialIsOpen: true });
    fireEvent.click(ui().getByRole('tab', { name: 'Entities' }));
    await frame();
    expect(rows('Entity tables')).toContainEqual(['Todo', '4']);
    fireEvent.click(row('Entity tables', 'Todo'));
    await frame();
    expect(rows('Records').map((cells) => cells[0])).toEqual(['1', '2', '3', '4']);
    fireEvent.click(row('Records', '2'));
    await frame();
    const detail = ui().getByRole('region', { name: 'Selected record' });
    expect(JSON.parse(detail.querySelector('[data-part="value"]')!.textContent!)).toEqual(
      controller.getState().entities.Todo!['2'],
    );
    expect(within(detail).getByRole('button', { name: LIST })).toBeTruthy();
    fireEvent.click(within(detail).getByRole('button', { name: LIST })); // to the query
    await frame();
    expect(ui().getByRole('tab', { name: 'Queries' }).getAttribute('aria-selected')).toBe('true');
    expect(row('Queries', LIST).getAttribute('aria-selected')).toBe('true');
  });

  it('logs actions newest first with type, key, time and changes, and follows the store live', async () => {
    const controller = await appController();
    mount(controller, { initialIsOpen: true });
    fireEvent.click(ui().getByRole('tab', { name: 'Actions' }));
    await controller.fetch(TodoResource.partialUpdate, { id: 1 }, { completed: true });
    controller.invalidate(TodoResource.get, { id: 1 });
    await frame();
    const log = rows('Actions');
    const invalidated = log.findIndex((cells) => cells[1] === 'invalidate' && cells[2] === ONE);
    const mutated = log.findIndex((cells) => cells[1] === 'fetch' && cells[2] !== ONE);
    expect(invalidated).toBeGreaterThanOrEqual(0);
    expect(invalidated).toBeLessThan(mutated); // newest first
    expect(log.map((cells) => cells[1])).toContain('optimistic');
    expect(log[mutated]).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3}$/),
      'fetch',
      TodoResource.partialUpdate.key({ id: 1 }, { completed: true }),
      expect.stringContaining('1 record'),
    ]);
    fireEvent.click(ui().getByRole('table', { name: 'Actions' }).querySelectorAll('tbody tr')[invalidated]!);
    await frame();
    const detail = ui().getByRole('region', { name: 'Selected action' });
    expect(detail.textContent).toContain('"type": "invalidate"');
    expect(detail.textContent).toContain(ONE);
  });

  it('shows the optimistic layers in flight', async () => {
    const controller = await appController();
    mount(controller, { initialIsOpen: true });
    fireEvent.click(ui().getByRole('tab', { name: 'Actions' }));
    fake.setLatency(10_000);
    void controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'on its way' }).catch(() => {});
    await frame();
    const layers = ui().getByRole('region', { name: 'Optimistic layers in flight' });
    expect(layers.textContent).toContain('Optimistic layers in flight: 1');
    expect(layers.textContent).toContain('on its way');
  });

  it('narrows each tab with the filter box', async () => {
    const controller = await appController();
    mount(controller, { initialIsOpen: true });
    fireEvent.input(Object.assign(ui().getByRole('searchbox', { name: 'Filter' }), { value: 'todos/1' }));
    await frame();
    expect(rows('Queries').map((cells) => cells[0])).toEqual([ONE]);
    fireEvent.click(ui().getByRole('tab', { name: 'Entities' }));
    fireEvent.input(Object.assign(ui().getByRole('searchbox', { name: 'Filter' }), { value: 'nothing-like-it' }));
    await frame();
    expect(rows('Entity tables')).toEqual([]);
    controller.invalidate(TodoResource.get, { id: 1 });
    controller.invalidate(TodoResource.getList, {});
    fireEvent.click(ui().getByRole('tab', { name: 'Actions' }));
    fireEvent.input(Object.assign(ui().getByRole('searchbox', { name: 'Filter' }), { value: 'todos/1' }));
    await frame();
    const actions = rows('Actions');
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((cells) => cells[2]?.includes('todos/1'))).toBe(true);
    expect(actions.map((cells) => cells[2])).not.toContain(LIST);
  });

  it('Reset store empties the store', async () => {
    const controller = await appController();
    const reset = vi.spyOn(controller, 'resetEntireStore');
    mount(controller, { initialIsOpen: true });
    fireEvent.click(ui().getByRole('button', { name: 'Reset store' }));
    expect(reset).toHaveBeenCalledOnce();
  });

  it('is keyboard operable: arrows move between tabs and rows, Enter selects, Escape closes', async () => {
    const controller = await appController();
    mount(controller, { initialIsOpen: true });
    const queries = ui().getByRole('tab', { name: 'Queries' });
    queries.focus();
    fireEvent.keyDown(queries, { key: 'ArrowRight' });
    const entities = ui().getByRole('tab', { name: 'Entities' });
    expect(entities.getAttribute('aria-selected')).toBe('true');
    expect(shadow().activeElement).toBe(entities);
    fireEvent.keyDown(entities, { key: 'ArrowLeft' });
    expect(queries.getAttribute('aria-selected')).toBe('true');
    expect(queries.getAttribute('tabindex')).toBe('0');
    expect(entities.getAttribute('tabindex')).toBe('-1');
    const first = row('Queries', LIST);
    expect(first.getAttribute('tabindex')).toBe('0');
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(shadow().activeElement).toBe(row('Queries', ONE));
    fireEvent.keyDown(row('Queries', ONE), { key: 'Enter' });
    await frame();
    expect(row('Queries', ONE).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(row('Queries', ONE), { key: 'Escape' });
    const toggle = ui().getByRole('button', { name: 'rx-rest devtools' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(shadow().activeElement).toBe(toggle);
  });

  it('shows data as text, never as HTML', async () => {
    const controller = new Controller();
    const markup = '<img src=x onerror=globalThis.__pwned=true>';
    controller.set(Todo, { id: 9 }, { id: 9, userId: 1, title: markup, completed: false });
    await controller.fetch(TodoResource.get, { id: 1 });
    mount(controller, { initialIsOpen: true });
    fireEvent.click(ui().getByRole('tab', { name: 'Entities' }));
    await frame();
    fireEvent.click(row('Entity tables', 'Todo'));
    await frame();
    fireEvent.click(row('Records', '9'));
    await frame();
    expect(shadow().querySelector('img')).toBeNull();
    expect(document.querySelector('img')).toBeNull();
    expect(ui().getByRole('region', { name: 'Selected record' }).textContent).toContain(markup);
    expect((globalThis as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it('mounting twice shows one panel, gone when both teardowns ran', () => {
    const controller = new Controller();
    const first = mount(controller);
    const second = mount(controller);
    expect(hosts()).toHaveLength(1);
    first();
    first();
    expect(hosts()).toHaveLength(1);
    second();
    expect(hosts()).toHaveLength(0);
    mount(controller);
    expect(hosts()).toHaveLength(1); // mounts again after a teardown
    mount(new Controller());
    expect(hosts()).toHaveLength(2); // one per controller
  });

  it('closed, subscribes to nothing and asks for no frame; the teardown leaves no subscription, timer or frame', async () => {
    const controller = await appController();
    let live = 0;
    const actions$ = controller.actions$;
    Object.defineProperty(controller, 'actions$', {
      value: new Observable<ControllerAction>((subscriber) => {
        live++;
        const inner = actions$.subscribe(subscriber);
        return () => {
          live--;
          inner.unsubscribe();
        };
      }),
    });
    const frames = vi.spyOn(window, 'requestAnimationFrame');
    const intervals = vi.spyOn(window, 'setInterval');
    const teardown = mount(controller);
    controller.invalidate(TodoResource.get, { id: 1 });
    await settled(() => expect(controller.getState().meta[ONE]?.invalidated).not.toBe(true));
    expect(live).toBe(0);
    expect(frames).not.toHaveBeenCalled();
    expect(intervals).not.toHaveBeenCalled();

    fireEvent.click(ui().getByRole('button', { name: 'rx-rest devtools' }));
    expect(live).toBe(1);
    controller.invalidate(TodoResource.get, { id: 1 });
    controller.invalidate(TodoResource.get, { id: 1 });
    expect(frames).toHaveBeenCalledOnce(); // batched into one frame
    const cancel = vi.spyOn(window, 'cancelAnimationFrame');
    const clear = vi.spyOn(window, 'clearInterval');
    teardown();
    expect(live).toBe(0);
    expect(cancel).toHaveBeenCalledWith(frames.mock.results[0]!.value);
    expect(clear).toHaveBeenCalledWith(intervals.mock.results[0]!.value);
    expect(hosts()).toHaveLength(0);
  });

  it('a controller disposed while the panel is open: it says so, stops its timer, keeps showing the last state, and its buttons throw nothing', async () => {
    const controller = await appController();
    const intervals = vi.spyOn(window, 'setInterval');
    const clear = vi.spyOn(window, 'clearInterval');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent) => {
      errors.push(event.error);
      event.preventDefault();
    };
    window.addEventListener('error', onError);
    try {
      mount(controller, { initialIsOpen: true });
      expect(isHidden(ui().getByRole('status'))).toBe(true);
      fireEvent.click(row('Queries', ONE));
      await frame();
      controller.dispose();
      await frame();
      const tick = intervals.mock.results[intervals.mock.calls.findIndex(([, ms]) => ms === 1_000)]!.value;
      expect(clear).toHaveBeenCalledWith(tick);
      expect(ui().getByRole('status').textContent).toMatch(/disposed/);
      expect(isHidden(ui().getByRole('status'))).toBe(false);
      expect(rows('Queries').map((cells) => cells[0])).toEqual(expect.arrayContaining([LIST, ONE]));
      const detail = ui().getByRole('region', { name: 'Selected query' });
      for (const name of ['Refetch', 'Invalidate', 'Remove'])
        fireEvent.click(within(detail).getByRole('button', { name }));
      fireEvent.click(ui().getByRole('button', { name: 'Reset store' }));
      await frame();
      expect(errors).toEqual([]);
      expect(controller.getState().endpoints[ONE]).toBeDefined(); // nothing changed a disposed store
      // closed and opened again, it follows nothing and starts no timer
      fireEvent.click(ui().getByRole('button', { name: 'rx-rest devtools' }));
      // (jsdom's animation frames run on an interval of their own)
      const ticks = () => intervals.mock.calls.filter(([, ms]) => ms === 1_000).length;
      const started = ticks();
      fireEvent.click(ui().getByRole('button', { name: 'rx-rest devtools' }));
      expect(ticks()).toBe(started);
      expect(ui().getByRole('status').textContent).toMatch(/disposed/);
    } finally {
      window.removeEventListener('error', onError);
      warn.mockRestore();
    }
  });

  it('refuses what is not a controller', () => {
    expect(() => mountDevtools({} as Controller)).toThrow(/mountDevtools expects a Controller/);
  });

  it('refuses a position that is no corner and a target that is no element, mounting nothing', () => {
    const controller = new Controller();
    expect(() => mountDevtools(controller, { position: 'top' as never })).toThrow(
      new TypeError(
        'mountDevtools: position must be one of "bottom-right", "bottom-left", "top-right", "top-left", not "top".',
      ),
    );
    expect(() => mountDevtools(controller, { target: '#app' as never })).toThrow(
      new TypeError('mountDevtools: target must be an Element (document.querySelector(...)), not a string.'),
    );
    expect(hosts()).toHaveLength(0);
    mount(controller, { position: undefined, target: undefined }); // undefined: the defaults
    expect(hosts()[0]!.parentElement).toBe(document.body);
  });
});
