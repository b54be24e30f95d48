// Server rendering with `reconcile: true`: node environment, Solid's server build (no JSX here). Rows are
// browser-only, so a server render is the one without them.
import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createComponent } from 'solid-js';
import { renderToString } from 'solid-js/web';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { TodoResource } from '../resources.js';

describe('rx-rest/solid on the server, reconcile: true', () => {
  it('renders what it renders without reconcile, entities the cache own objects', () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [
      { id: 1, userId: 1, title: 'one', completed: false },
      { id: 2, userId: 1, title: 'two', completed: true },
    ]);
    const seen: unknown[] = [];
    const page = (reconcile: boolean) => {
      const List = () => {
        const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }), { reconcile });
        const state = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { reconcile });
        seen.push(...(todos() ?? []), ...(state().data ?? []));
        return `${JSON.stringify(todos())} | ${JSON.stringify(state().data)}`;
      };
      return renderToString(() =>
        createComponent(ControllerProvider, {
          controller,
          get children() {
            return createComponent(List, {});
          },
        }),
      );
    };
    const html = page(true);
    expect(html).toBe(page(false));
    expect(html).toContain('"title":"two"');
    expect(seen).toHaveLength(8);
    expect(seen.some((item) => types.isProxy(item))).toBe(false); // no rows on the server
  });
});
