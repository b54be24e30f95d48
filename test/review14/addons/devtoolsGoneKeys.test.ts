// @vitest-environment jsdom
/**
 * Review 14 of the in-page panel (API.md "In-page devtools": a selected query's "Refetch", "Invalidate" and
 * "Remove"): the buttons pressed on a key that no longer exists (the store was reset, the key removed or
 * collected, since the panel drew it). As in TanStack Query's devtools, acting on a query that is gone does
 * nothing: no phantom key (an "invalid" row dated now with no data, which sync and persist would carry on), no
 * request the app never made, and the detail closes.
 */
import { configure, fireEvent, within } from '@testing-library/dom';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mountDevtools } from '../../../adapters/devtools/index.js';
import { Controller, Entity, RestEndpoint, inspectController, type ControllerAction } from '../../../core/index.js';

configure({ defaultHidden: true });

class Item extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'R14GoneItem';
}
let requests = 0;
const API = 'https://review14-gone.example';
const getItem = new RestEndpoint({ urlPrefix: API, path: '/items/:id', schema: Item });
const server = setupServer(
  http.get(`${API}/items/:id`, ({ params }) => {
    requests++;
    return HttpResponse.json({ id: Number(params.id), title: 'fetched' });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const teardowns: (() => void)[] = [];
afterEach(() => {
  for (const teardown of teardowns.splice(0)) teardown();
  document.body.replaceChildren();
  requests = 0;
});
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const root = () => document.querySelector('[data-rx-rest-devtools]')!.shadowRoot! as unknown as HTMLElement;
const ui = () => within(root());
const detail = () => root().querySelector<HTMLElement>('section[aria-label="Selected query"]')!;
const rows = () => [...root().querySelectorAll('table[aria-label="Queries"] tbody tr, tbody tr')];

/** A panel open on a controller holding item 1, with its key selected. */
async function selected() {
  const controller = new Controller({ environment: {}, gcTime: Infinity });
  teardowns.push(() => controller.dispose());
  controller.setResponse(getItem, { id: 1 }, { id: 1, title: 'one' });
  teardowns.push(mountDevtools(controller, { initialIsOpen: true }));
  await frame();
  fireEvent.click(rows()[0]!);
  await frame();
  expect(detail().hidden).toBe(false);
  const actions: ControllerAction['type'][] = [];
  const subscription = controller.actions$.subscribe((action) => actions.push(action.type));
  teardowns.push(() => subscription.unsubscribe());
  return { controller, actions };
}

describe('the Queries tab’s buttons on a key that is gone', () => {
  for (const [how, gone] of [
    ['the store was reset', (c: Controller) => c.resetEntireStore()],
    ['the key was removed', (c: Controller) => inspectController(c).remove(getItem.key({ id: 1 }))],
  ] as const)
    for (const button of ['Invalidate', 'Refetch', 'Remove'])
      it(`${button}, after ${how} (before the panel drew again): nothing happens, and the detail closes`, async () => {
        const { controller, actions } = await selected();
        gone(controller);
        const key = getItem.key({ id: 1 });
        actions.length = 0;
        fireEvent.click(ui().getByRole('button', { name: button }));
        await frame();
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(actions).toEqual([]);
        expect(requests).toBe(0);
        expect(key in controller.getState().meta).toBe(false);
        expect(key in controller.getState().endpoints).toBe(false);
        expect(detail().hidden).toBe(true);
        expect(rows().map((row) => row.textContent)).not.toContainEqual(expect.stringContaining(key));
      });

  it('on a key that is still there, the buttons act as before', async () => {
    const { controller, actions } = await selected();
    fireEvent.click(ui().getByRole('button', { name: 'Invalidate' }));
    expect(actions).toEqual(['invalidate']);
    fireEvent.click(ui().getByRole('button', { name: 'Refetch' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(requests).toBe(1);
    expect(controller.get(Item, { id: 1 })?.title).toBe('fetched');
  });
});
