// @vitest-environment jsdom
/**
 * The in-page panel writes a value whose member cannot be read as JSON (its `toJSON` throws, its getter throws)
 * with that member marked `(not shown: <message>)`, as it marks other values it cannot read, and every other
 * member shown: one hostile member does not hide the whole value.
 */
import { configure, fireEvent, within } from '@testing-library/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { mountDevtools } from '../../../adapters/devtools/index.js';
import { describeValue } from '../../../adapters/devtools/format.js';
import { Controller, Entity, createResource } from '../../../core/index.js';

configure({ defaultHidden: true });

/** A value whose `toJSON` throws `message`. */
const throwingJSON = (message: string) => ({
  toJSON() {
    throw new Error(message);
  },
});

describe('describeValue', () => {
  it('marks a member whose toJSON throws and shows the others', () => {
    const text = describeValue({ id: 1, title: 'ok', due: throwingJSON('bad date'), list: [1, throwingJSON('no')] });
    const shown = JSON.parse(text) as Record<string, unknown>;
    expect(shown).toEqual({ id: 1, title: 'ok', due: '(not shown: bad date)', list: [1, '(not shown: no)'] });
  });

  it('marks a member whose getter throws, or whose toJSON getter throws, and shows the others', () => {
    const value = { id: 2 } as Record<string, unknown>;
    Object.defineProperty(value, 'broken', {
      enumerable: true,
      get() {
        throw new Error('no getter for you');
      },
    });
    const hostile = new Proxy(
      { a: 1 },
      {
        get(target, key) {
          if (key === 'toJSON') throw new Error('no toJSON either');
          return Reflect.get(target, key);
        },
      },
    );
    value.proxy = hostile;
    expect(JSON.parse(describeValue(value))).toEqual({
      id: 2,
      broken: '(not shown: no getter for you)',
      proxy: '(not shown: no toJSON either)',
    });
  });

  it('a thrown value that is no Error, or whose message cannot be read, still marks only that member', () => {
    const odd = new Error('x');
    Object.defineProperty(odd, 'message', {
      get() {
        throw new Error('hidden');
      },
    });
    const text = describeValue({
      a: {
        toJSON() {
          throw 'plain text';
        },
      },
      b: {
        toJSON() {
          throw odd;
        },
      },
      c: 3,
    });
    expect(JSON.parse(text)).toEqual({ a: '(not shown: plain text)', b: '(not shown)', c: 3 });
  });

  it('a top-level value whose toJSON throws is marked', () => {
    expect(describeValue(throwingJSON('top'))).toBe('"(not shown: top)"');
  });
});

class Event extends Entity {
  id = 0;
  title = '';
  due: unknown = undefined;
  pk() {
    return `${this.id}`;
  }
  static override key = 'PanelEvent';
  // a deserializer whose value cannot be written as JSON (a date library's object, a broken polyfill)
  static override schema = { due: (iso: string) => throwingJSON(`cannot write ${iso}`) };
}
const Events = createResource({ urlPrefix: 'https://valid13-panel.example', path: '/events/:id', schema: Event });

const teardowns: (() => void)[] = [];
afterEach(() => {
  for (const teardown of teardowns.splice(0)) teardown();
  document.body.replaceChildren();
});

describe('the panel', () => {
  it("shows a selected query's data with the member whose toJSON throws marked", async () => {
    const controller = new Controller({ retry: 0, environment: {} });
    controller.setResponse(Events.get, { id: 1 }, { id: 1, title: 'launch', due: '2026-12-01' });
    teardowns.push(mountDevtools(controller, { initialIsOpen: true }), () => controller.dispose());
    const host = document.querySelector('[data-rx-rest-devtools]') as HTMLElement;
    const ui = within(host.shadowRoot as unknown as HTMLElement);
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    await frame();
    const row = [...ui.getByRole('table', { name: 'Queries' }).querySelectorAll('tbody tr')].find(
      (tr) => tr.querySelector('td')?.textContent === Events.get.key({ id: 1 }),
    );
    fireEvent.click(row as HTMLElement);
    await frame();
    const shown = ui.getByRole('region', { name: 'Selected query' }).textContent ?? '';
    expect(shown).toContain('"title": "launch"');
    expect(shown).toContain('"due": "(not shown: cannot write 2026-12-01)"');
  });
});
