// @vitest-environment jsdom
/**
 * Outside review of the in-page panel (API.md "In-page devtools"; docs/addons.md "The in-page panel") with
 * hostile data where last round did not look: error messages, validation issues and endpoint names holding
 * markup are text; the action log keeps the latest 500, newest first; a huge record is shown without
 * breaking the panel.
 */
import { configure, fireEvent, within } from '@testing-library/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { mountDevtools } from '../../../adapters/devtools/index.js';
import { Controller, Entity, RestEndpoint, ValidationError } from '../../../core/index.js';

configure({ defaultHidden: true });
const MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

class Item extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'R12PanelItem';
}
const getItem = new RestEndpoint({
  urlPrefix: 'https://review12-panel.example',
  path: '/items/:id',
  schema: Item,
  name: MARKUP,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});

const teardowns: (() => void)[] = [];
const controllers: Controller[] = [];
afterEach(() => {
  for (const teardown of teardowns.splice(0)) teardown();
  for (const c of controllers.splice(0)) c.dispose();
  document.body.replaceChildren();
});
const controller = () => {
  const c = new Controller({ retry: 0, environment: {} });
  controllers.push(c);
  return c;
};
const mount = (c: Controller) => teardowns.push(mountDevtools(c, { initialIsOpen: true }));
const root = () => document.querySelector('[data-rx-rest-devtools]')!.shadowRoot!;
const ui = () => within(root() as unknown as HTMLElement);
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const tableRows = (label: string) => [...ui().getByRole('table', { name: label }).querySelectorAll('tbody tr')];
const cells = (label: string) =>
  tableRows(label).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
const tab = (name: string) => fireEvent.click(ui().getByRole('tab', { name }));
const filter = (value: string) =>
  fireEvent.input(Object.assign(ui().getByRole('searchbox', { name: 'Filter' }), { value }));
const noMarkup = () => {
  expect(root().querySelector('img, script, iframe')).toBeNull();
  expect((window as { __pwned?: number }).__pwned).toBeUndefined();
};

describe('markup in errors, issues and endpoint names is text', () => {
  it('an error message and validation issues holding markup', async () => {
    const c = controller();
    mount(c); // (the log starts when the panel opens)
    c.setError(getItem, { id: 1 }, new Error(MARKUP));
    c.setError(getItem, { id: 2 }, new ValidationError([{ message: MARKUP, path: [MARKUP] }], {}, { entity: MARKUP }));
    await frame();
    const rows = tableRows('Queries');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      fireEvent.click(row);
      await frame();
      noMarkup();
      expect(root().textContent).toContain(MARKUP);
    }
    tab('Actions');
    await frame();
    noMarkup();
    fireEvent.click(tableRows('Actions')[0]!);
    await frame();
    noMarkup();
    filter('onerror');
    await frame();
    expect(tableRows('Actions').length).toBeGreaterThan(0);
    noMarkup();
  });
});

describe('the action log', () => {
  it('600 actions: the latest 500, newest first; the oldest are gone, also from the filter', async () => {
    const c = controller();
    mount(c);
    tab('Actions');
    for (let id = 0; id < 600; id++) c.setResponse(getItem, { id }, { id, title: `t${id}` });
    await frame();
    const keys = cells('Actions').map((row) => row.find((cell) => cell.includes('/items/')) ?? '');
    expect(keys).toHaveLength(500);
    expect(keys[0]).toContain('/items/599');
    expect(keys[499]).toContain('/items/100');
    filter('items/50');
    await frame();
    const found = cells('Actions').map((row) => row.find((cell) => cell.includes('/items/')) ?? '');
    expect(found.some((key) => key.endsWith('/items/50'))).toBe(false);
    expect(found.some((key) => key.endsWith('/items/500'))).toBe(true);
  });
});

describe('huge data', () => {
  it('a record of 5 MB and 20,000 keys: the tables draw, and selecting it shows it without breaking the panel', async () => {
    const c = controller();
    const wide: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) wide[`field${i}`] = 'y'.repeat(250);
    c.setResponse(getItem, { id: 1 }, { id: 1, title: 'wide', ...wide } as never);
    mount(c);
    await frame();
    expect(cells('Queries')).toHaveLength(1);
    tab('Entities');
    await frame();
    fireEvent.click(tableRows('Entity tables')[0]!);
    await frame();
    fireEvent.click(tableRows('Records')[0]!);
    await frame();
    const shown = ui().getByRole('region', { name: 'Selected record' }).textContent ?? '';
    expect(shown).toContain('wide');
    // the store is untouched by the panel
    expect(Object.keys(c.getState().entities.R12PanelItem!['1'] as object)).toHaveLength(20_002);
  }, 30_000);
});
