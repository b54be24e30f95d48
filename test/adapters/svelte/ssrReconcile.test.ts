// Server rendering with `reconcile: true`: node environment, Svelte's server build. Rows are browser-only, so a
// server render is the one without them (the page hydrates what the client's first render shows).
import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import { readable } from 'svelte/store';
import { Controller, type Entity } from '../../../core/index.js';
import { Article } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';
import { createResource } from '../../../core/index.js';
import ReconcileProbe from './ReconcileProbe.svelte';

const ArticleResource = createResource({ urlPrefix: 'http://test.invalid', path: '/articles/:id', schema: Article });

describe('rx-rest/svelte on the server, reconcile: true', () => {
  it('renders what it renders without reconcile, for each form, entities the cache own objects', () => {
    const controller = new Controller();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [
      { id: 1, userId: 1, title: 'one', completed: false },
      { id: 2, userId: 1, title: 'two', completed: true },
    ]);
    controller.setResponse(ArticleResource.getList, {}, [
      { id: 1, title: 'a', author: { id: 'ann', name: 'Ann' }, comments: [] },
    ]);
    const seen: unknown[] = [];
    const page = (
      endpoint: typeof TodoResource.getList | typeof ArticleResource.getList,
      args: unknown,
      form: 'state' | 'store',
      reconcile: boolean,
    ) =>
      render(ReconcileProbe, {
        props: {
          controller,
          endpoint,
          args: readable(args),
          form,
          reconcile,
          items: (data: unknown) => (data ?? []) as readonly unknown[],
          line: (item: unknown) => (seen.push(item), JSON.stringify(item)),
          key: (item: unknown) => (item as Entity).pk(),
        },
      }).body;
    for (const form of ['state', 'store'] as const) {
      const todos = page(TodoResource.getList, { userId: 1 }, form, true);
      expect(todos).toBe(page(TodoResource.getList, { userId: 1 }, form, false));
      expect(todos).toContain('"title":"two"');
      const articles = page(ArticleResource.getList, {}, form, true);
      expect(articles).toBe(page(ArticleResource.getList, {}, form, false));
      expect(articles).toContain('"name":"Ann"');
    }
    expect(seen.some((item) => types.isProxy(item))).toBe(false); // no rows on the server
  });
});
