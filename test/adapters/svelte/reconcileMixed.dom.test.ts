/**
 * Svelte `reconcile: true` through seeded sequences that mix writes, deletes, a list answered again (another
 * membership), entities of other lists and argument switches (with and without `keepPreviousData`), over lists
 * that share entities. After every task the DOM shows what a fresh controller reads for the current args.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { writable } from 'svelte/store';
import { Controller, createResource, schema, type Entity } from '../../../core/index.js';
import { Article, Comment, Todo, User } from '../../fixtures/entities.js';
import { seeded } from '../../fixtures/random.js';
import { TodoResource } from '../resources.js';
import ReconcileProbe from './ReconcileProbe.svelte';
import { todoRow as row } from '../../fixtures/todoResource.js';

const lines = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const task = () => new Promise((resolve) => setTimeout(resolve, 0));
const IDS = 12;

describe.each([
  ['state', false],
  ['store', false],
  ['state', true],
  ['store', true],
] as const)('Svelte reconcile over mixed sequences (%s form, keepPreviousData %s)', (form, keepPreviousData) => {
  it('shows what a fresh controller reads after every task', { timeout: 60_000 }, async () => {
    const { int, pick } = seeded(form.length * 7 + (keepPreviousData ? 1 : 0));
    const controller = new Controller();
    const lists = [1, 2, 3];
    const members = () =>
      Array.from({ length: 2 + int(5) }, () => 1 + int(IDS)).filter((id, i, a) => a.indexOf(id) === i);
    for (const userId of lists)
      controller.setResponse(
        TodoResource.getList,
        { userId },
        members().map((id) => row(id)),
      );
    const args = writable({ userId: 1 });
    let userId = 1;
    const view = render(ReconcileProbe, {
      controller,
      endpoint: TodoResource.getList,
      args,
      form,
      keepPreviousData,
      items: (data: unknown) => (data ?? []) as readonly unknown[],
      line: (todo: unknown) => `${(todo as Todo).id}:${(todo as Todo).title}:${(todo as Todo).completed}`,
      key: (todo: unknown) => (todo as Entity).pk(),
    });
    flushSync();
    for (let step = 0; step < 60; step++) {
      const writes = 1 + int(3);
      for (let w = 0; w < writes; w++) {
        const id = 1 + int(IDS);
        const op = int(10);
        if (op < 3) controller.set(Todo, { id }, { id, title: `s${step}w${w}` });
        else if (op < 4) controller.set(Todo, { id }, { id, completed: int(2) === 0 });
        else if (op < 5) controller.set(new schema.Invalidate(Todo), { id }, { id });
        else if (op < 6)
          controller.set(Todo, { id }, row(id, `back ${step}`)); // a deleted todo written again
        else if (op < 8)
          controller.setResponse(
            TodoResource.getList,
            { userId: pick(lists) },
            members().map((id) => row(id, `r${step} ${id}`)),
          );
        else args.set({ userId: (userId = pick(lists)) });
      }
      await task();
      flushSync();
      const fresh = new Controller({ initialState: controller.getState() });
      const expected = (fresh.getResponse(TodoResource.getList, { userId }).data ?? []).map(
        (todo) => `${todo.id}:${todo.title}:${todo.completed}`,
      );
      expect(lines(), `step ${step}`).toEqual(expected);
      fresh.dispose();
    }
    view.unmount();
    controller.dispose();
  });
});

const ArticleResource = createResource({ urlPrefix: 'http://test.invalid', path: '/articles/:id', schema: Article });
const showArticle = (a: Article) =>
  `${a.id} ${a.title} by ${a.author.name}: ${a.comments.map((c) => `${c.body} (${c.author.name})`).join(', ')}`;

describe.each(['state', 'store'] as const)('Svelte reconcile over mixed sequences of nested data (%s form)', (form) => {
  it('shows what a fresh controller reads after every task', { timeout: 60_000 }, async () => {
    const { int } = seeded(form === 'state' ? 11 : 12);
    const controller = new Controller();
    const user = (id: number, name = `user ${id}`) => ({ id: `u${id}`, name });
    const comment = (id: number) => ({ id, body: `comment ${id}`, author: user(int(4)) });
    const article = (id: number) => ({
      id,
      title: `article ${id}`,
      author: user(int(4)),
      comments: Array.from({ length: int(3) }, () => comment(1 + int(8))).filter(
        (c, i, all) => all.findIndex((d) => d.id === c.id) === i,
      ),
    });
    const members = () =>
      Array.from({ length: 1 + int(6) }, () => 1 + int(8)).filter((id, i, all) => all.indexOf(id) === i);
    controller.setResponse(ArticleResource.getList, {}, members().map(article));
    const view = render(ReconcileProbe, {
      controller,
      endpoint: ArticleResource.getList,
      args: writable({}),
      form,
      items: (data: unknown) => (data ?? []) as readonly unknown[],
      line: (a: unknown) => showArticle(a as Article),
      key: (a: unknown) => (a as Entity).pk(),
    });
    flushSync();
    for (let step = 0; step < 50; step++) {
      for (let w = 0, writes = 1 + int(3); w < writes; w++) {
        const op = int(8);
        const id = 1 + int(8);
        const who = int(4);
        if (op < 2) controller.set(User, { id: `u${who}` }, user(who, `s${step}w${w}`));
        else if (op < 3) controller.set(Comment, { id }, { id, body: `s${step}w${w}` });
        else if (op < 4) controller.set(Article, { id }, { id, title: `s${step}w${w}` });
        else if (op < 5) controller.set(Article, { id }, { id, author: user(who) });
        else if (op < 6) controller.set(new schema.Invalidate(Article), { id }, { id });
        else if (op < 7) controller.set(Article, { id }, article(id));
        else controller.setResponse(ArticleResource.getList, {}, members().map(article));
      }
      await task();
      flushSync();
      const fresh = new Controller({ initialState: controller.getState() });
      const expected = (fresh.getResponse(ArticleResource.getList, {}).data ?? []).map(showArticle);
      expect(lines(), `step ${step}`).toEqual(expected);
      fresh.dispose();
    }
    view.unmount();
    controller.dispose();
  });
});
