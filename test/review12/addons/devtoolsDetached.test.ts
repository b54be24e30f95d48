// @vitest-environment jsdom
/**
 * The in-page panel whose host the app removed from the document while it was open (a page that rewrote
 * its body, a target element that went away): it draws nothing into the detached tree and asks for no
 * frame, whatever the controller does, until it is in the document again, by a new mount or by the app
 * putting the element back; then it shows the store as it is, and the actions it missed meanwhile.
 */
import { configure, within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mountDevtools } from '../../../adapters/devtools/index.js';
import { Controller, Entity, RestEndpoint } from '../../../core/index.js';

configure({ defaultHidden: true });

class Item extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Item';
}
const getItem = new RestEndpoint({
  urlPrefix: 'https://review12-detached.example',
  path: '/items/:id',
  schema: Item,
  fetchResponse: () => Promise.reject(new Error('no request may leave these tests')),
});

const teardowns: (() => void)[] = [];
const controllers: Controller[] = [];
afterEach(() => {
  for (const teardown of teardowns.splice(0)) teardown();
  for (const c of controllers.splice(0)) c.dispose();
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

const controller = () => {
  const c = new Controller({ retry: 0, environment: {} });
  controllers.push(c);
  return c;
};
const mount = (c: Controller, options: Parameters<typeof mountDevtools>[1]) => {
  const teardown = mountDevtools(c, options);
  teardowns.push(teardown);
  return teardown;
};
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rowsOf = (host: Element, label: string) =>
  [
    ...within(host.shadowRoot as unknown as HTMLElement)
      .getByRole('table', { name: label })
      .querySelectorAll('tbody tr'),
  ].map((tr) => tr.querySelector('td')?.textContent ?? '');
const until = async (check: () => void) => {
  for (let i = 0; ; i++) {
    try {
      check();
      return;
    } catch (error) {
      if (i > 300) throw error;
      await sleep(10);
    }
  }
};

/** Counts every change made to the panel's shadow tree. */
function watch(host: Element) {
  const records: MutationRecord[] = [];
  const observer = new MutationObserver((found) => records.push(...found));
  observer.observe(host.shadowRoot!, { subtree: true, childList: true, characterData: true, attributes: true });
  return {
    count: () => records.push(...observer.takeRecords()) && records.length,
    stop: () => observer.disconnect(),
  };
}

/** An open panel in `target`, showing keys 1 and 2; the host and target are returned. */
async function openPanel() {
  const c = controller();
  const target = document.body.appendChild(document.createElement('section'));
  mount(c, { initialIsOpen: true, target });
  c.setResponse(getItem, { id: 1 }, { id: 1, title: 'one' });
  c.setResponse(getItem, { id: 2 }, { id: 2, title: 'two' });
  await frame();
  const host = target.querySelector('[data-rx-rest-devtools]')!;
  expect(rowsOf(host, 'Queries')).toHaveLength(2);
  return { c, target, host };
}

describe('a panel whose host left the document', () => {
  it('draws nothing and asks for no frame while detached, through actions and its once-a-second tick', async () => {
    const { c, target, host } = await openPanel();
    target.remove();
    const changes = watch(host);
    const frames = vi.spyOn(window, 'requestAnimationFrame');
    for (let id = 3; id < 40; id++) {
      c.setResponse(getItem, { id }, { id, title: `item ${id}` });
      if (id % 10 === 0) await sleep(20);
    }
    c.invalidate(getItem, { id: 1 });
    await sleep(1_150); // past a tick (ages are redrawn once a second while attached)
    expect(frames).not.toHaveBeenCalled();
    expect(changes.count()).toBe(0);
    changes.stop();
  });

  it('a new mount puts it back and it shows the store as it is now, and the actions it missed', async () => {
    const { c, target, host } = await openPanel();
    target.remove();
    for (let id = 3; id <= 5; id++) c.setResponse(getItem, { id }, { id, title: `item ${id}` });
    await sleep(30);
    mount(c, { initialIsOpen: true });
    expect(host.isConnected).toBe(true);
    expect(rowsOf(host, 'Queries')).toHaveLength(5); // drawn by the mount itself
    const ui = within(host.shadowRoot as unknown as HTMLElement);
    ui.getByRole('tab', { name: 'Actions' }).click();
    await until(() => expect(rowsOf(host, 'Actions').length).toBeGreaterThanOrEqual(5));
  });

  it('the app putting the element back resumes it: it redraws within its tick', async () => {
    const { c, target, host } = await openPanel();
    target.remove();
    c.setResponse(getItem, { id: 3 }, { id: 3, title: 'three' });
    await sleep(30);
    document.body.append(target);
    await until(() => expect(rowsOf(host, 'Queries')).toHaveLength(3));
    // and follows actions again at once
    const changes = watch(host);
    c.setResponse(getItem, { id: 4 }, { id: 4, title: 'four' });
    await frame();
    await frame();
    expect(rowsOf(host, 'Queries')).toHaveLength(4);
    expect(changes.count()).toBeGreaterThan(0);
    changes.stop();
  });

  it('opened in a target the app puts into the page only afterwards: drawn once at opening, shown at once', async () => {
    const c = controller();
    c.setResponse(getItem, { id: 1 }, { id: 1, title: 'one' });
    const target = document.createElement('section'); // not in the document yet
    mount(c, { initialIsOpen: true, target });
    document.body.append(target);
    const host = target.querySelector('[data-rx-rest-devtools]')!;
    expect(rowsOf(host, 'Queries')).toHaveLength(1);
  });

  it('closed and detached, then mounted again, it is still closed and opens', async () => {
    const { c, target, host } = await openPanel();
    const toggle = within(host.shadowRoot as unknown as HTMLElement).getByRole('button', { name: 'rx-rest devtools' });
    toggle.click();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    target.remove();
    c.setResponse(getItem, { id: 3 }, { id: 3, title: 'three' });
    mount(c, {});
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.click();
    await frame();
    expect(rowsOf(host, 'Queries')).toHaveLength(3);
  });
});
