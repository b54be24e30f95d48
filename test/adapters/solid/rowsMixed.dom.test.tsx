/**
 * Solid `reconcile: true` through seeded sequences that mix writes, deletes, a list answered again (another
 * membership), entities of other lists and argument switches (with and without `keepPreviousData`), over lists
 * that share entities. After every task the DOM shows what a fresh controller reads for the current args.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { createSignal, For } from 'solid-js';
import { Controller, createResource, schema } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { Article, Comment, Todo, User } from '../../fixtures/entities.js';
import { seeded } from '../../fixtures/random.js';
import { TodoResource } from '../resources.js';
import { todoRow as row } from '../../fixtures/todoResource.js';

afterEach(cleanup);

const lines = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const task = () => new Promise((resolve) => setTimeout(resolve, 0));
const IDS = 12;

describe.each([
  ['resource', false],
  ['state', false],
  ['resource', true],
  ['state', true],
] as const)('Solid reconcile over mixed sequences (%s form, keepPreviousData %s)', (form, keepPreviousData) => {
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
    const [userId, setUserId] = createSignal(1);
    let current = 1;
    const options = { reconcile: true, keepPreviousData };
    function Rows() {
      const read: () => Todo[] | undefined =
        form === 'state'
          ? (
              (state) => () =>
                state().data
            )(createQueryState(TodoResource.getList, () => ({ userId: userId() }), options))
          : createQuery(TodoResource.getList, () => ({ userId: userId() }), options);
      return (
        <ul>
          <For each={read()}>{(todo) => <li>{`${todo.id}:${todo.title}:${todo.completed}`}</li>}</For>
        </ul>
      );
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <Rows />
      </ControllerProvider>
    ));
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
        else setUserId((current = pick(lists)));
      }
      await task();
      const fresh = new Controller({ initialState: controller.getState() });
      const expected = (fresh.getResponse(TodoResource.getList, { userId: current }).data ?? []).map(
        (todo) => `${todo.id}:${todo.title}:${todo.completed}`,
      );
      expect(lines(), `step ${step}`).toEqual(expected);
      fresh.dispose();
    }
    controller.dispose();
  });
});

const ArticleResource = createResource({ urlPrefix: 'http://test.invalid', path: '/articles/:id', schema: Article });
const showArticle = (a: Article) =>
  `${a.id} ${a.title} by ${a.author.name}: ${a.comments.map((c) => `${c.body} (${c.author.name})`).join(', ')}`;

describe.each(['resource', 'state'] as const)(
  'Solid reconcile over mixed sequences of nested data (%s form)',
  (form) => {
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
      function Rows() {
        const options = { reconcile: true };
        const read: () => Article[] | undefined =
          form === 'state'
            ? (
                (state) => () =>
                  state().data
              )(createQueryState(ArticleResource.getList, () => ({}), options))
            : createQuery(ArticleResource.getList, () => ({}), options);
        return (
          <ul>
            <For each={read()}>{(a) => <li>{showArticle(a)}</li>}</For>
          </ul>
        );
      }
      render(() => (
        <ControllerProvider controller={controller}>
          <Rows />
        </ControllerProvider>
      ));
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
        const fresh = new Controller({ initialState: controller.getState() });
        const expected = (fresh.getResponse(ArticleResource.getList, {}).data ?? []).map(showArticle);
        expect(lines(), `step ${step}`).toEqual(expected);
        fresh.dispose();
      }
      controller.dispose();
    });
  },
);
