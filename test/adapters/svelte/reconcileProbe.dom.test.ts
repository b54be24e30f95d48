/**
 * Svelte `reconcile: true` rows over nested and polymorphic data, shared entities, argument switches, deletes and
 * re-adds, and what a row answers to the language's object operations: every DOM compared with what the store holds.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync, tick } from 'svelte';
import { writable } from 'svelte/store';
import {
  Controller,
  Entity,
  RestEndpoint,
  createResource,
  schema,
  type QueryResult,
  type ReadEndpoint,
} from '../../../core/index.js';
import { Article, Comment, Todo, User } from '../../fixtures/entities.js';
import { FeedItem, Link, Post } from '../../fixtures/feedItems.js';
import { TodoResource } from '../resources.js';
import ReconcileProbe from './ReconcileProbe.svelte';
import { snapshot } from './snapshot.svelte.js';
import { watch } from './watch.svelte.js';
import { createQuery, useSuspense } from '../../../adapters/svelte/index.js';

const API = 'http://test.invalid';
const ArticleResource = createResource({ urlPrefix: API, path: '/articles/:id', schema: Article });
const getFeed = new RestEndpoint({ urlPrefix: API, path: '/feed', schema: [FeedItem] });
const getUsersById = new RestEndpoint({ urlPrefix: API, path: '/users-by-id', schema: new schema.Values(User) });
const getPage = new RestEndpoint({
  urlPrefix: API,
  path: '/page',
  schema: { results: [Todo], next: null as string | null },
});

const lines = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const byPk = (item: unknown) => (item as Entity).pk();
const list = (data: unknown) => (data ?? []) as readonly unknown[];

let controller: Controller;
beforeEach(() => {
  controller = new Controller();
});

function mount<T>(
  endpoint: ReadEndpoint,
  args: unknown,
  line: (item: T) => string,
  more: {
    items?: (data: unknown) => readonly unknown[];
    key?: (item: unknown) => unknown;
    form?: 'state' | 'store';
    keepPreviousData?: boolean;
    reconcile?: boolean;
  } = {},
) {
  const argStore = writable(args);
  let state: QueryResult<unknown> | undefined;
  const view = render(ReconcileProbe, {
    controller,
    endpoint,
    args: argStore,
    items: more.items ?? list,
    line: line as (item: unknown) => string,
    key: more.key ?? byPk,
    form: more.form ?? 'state',
    reconcile: more.reconcile ?? true,
    keepPreviousData: more.keepPreviousData ?? false,
    onState: (s: QueryResult<unknown>) => (state = s),
  });
  flushSync();
  return { view, args: argStore, state: () => state! };
}

const article = (id: number, author: string, comments: { id: number; body: string; author: string }[] = []) => ({
  id,
  title: `article ${id}`,
  author: { id: author, name: `name of ${author}` },
  comments: comments.map((c) => ({ ...c, author: { id: c.author, name: `name of ${c.author}` } })),
});

describe.each(['state', 'store'] as const)('reconcile rows of nested data (%s form)', (form) => {
  const showArticle = (a: Article) =>
    `${a.title} by ${a.author.name}: ${a.comments.map((c) => `${c.body} (${c.author.name})`).join(', ')}`;

  it("shows a row's related entity as it changes: its fields, another entity, a nested list", async () => {
    controller.setResponse(ArticleResource.getList, {}, [
      article(1, 'ann', [{ id: 10, body: 'hi', author: 'bob' }]),
      article(2, 'bob'),
    ]);
    mount(ArticleResource.getList, {}, showArticle, { form });
    expect(lines()).toEqual(['article 1 by name of ann: hi (name of bob)', 'article 2 by name of bob: ']);
    controller.set(User, { id: 'bob' }, { id: 'bob', name: 'Bob' }); // the author of one, a commenter of the other
    await tick();
    expect(lines()).toEqual(['article 1 by name of ann: hi (Bob)', 'article 2 by Bob: ']);
    controller.set(Article, { id: 1 }, { id: 1, author: { id: 'cy', name: 'Cy' } }); // another author
    await tick();
    expect(lines()).toEqual(['article 1 by Cy: hi (Bob)', 'article 2 by Bob: ']);
    controller.set(Comment, { id: 10 }, { id: 10, body: 'hello' });
    await tick();
    expect(lines()).toEqual(['article 1 by Cy: hello (Bob)', 'article 2 by Bob: ']);
    controller.set(
      Article,
      { id: 2 },
      { id: 2, comments: [{ id: 11, body: 'new', author: { id: 'ann', name: 'Ann' } }] },
    );
    await tick();
    expect(lines()).toEqual(['article 1 by Cy: hello (Bob)', 'article 2 by Bob: new (Ann)']);
    controller.set(User, { id: 'cy' }, { id: 'cy', name: 'Cyrus' });
    await tick();
    expect(lines()).toEqual(['article 1 by Cyrus: hello (Bob)', 'article 2 by Bob: new (Ann)']);
  });

  it('keeps the rows of a polymorphic list (schema.Union), each of its own class', async () => {
    controller.setResponse(getFeed, {}, [
      { id: 1, type: 'link', url: 'a' },
      { id: 1, type: 'post', title: 'p' },
    ]);
    const show = (item: Link | Post) => (item instanceof Link ? `link ${item.url}` : `post ${item.title}`);
    const key = (item: unknown) => `${(item as Entity).constructor.name}${(item as Entity).pk()}`;
    mount(getFeed, undefined, show, { form, key });
    expect(lines()).toEqual(['link a', 'post p']);
    controller.set(Post, { id: 1 }, { id: 1, title: 'q' });
    await tick();
    expect(lines()).toEqual(['link a', 'post q']);
    controller.set(Link, { id: 1 }, { id: 1, url: 'b' });
    await tick();
    expect(lines()).toEqual(['link b', 'post q']);
    controller.setResponse(getFeed, {}, [
      { id: 1, type: 'post', title: 'q' },
      { id: 2, type: 'link', url: 'c' },
    ]);
    await tick();
    expect(lines()).toEqual(['post q', 'link c']);
  });

  it('keeps the rows of a schema.Values object', async () => {
    controller.setResponse(getUsersById, {}, { a: { id: 'a', name: 'A' }, b: { id: 'b', name: 'B' } });
    mount(getUsersById, undefined, (u: User) => u.name, { form, items: (data) => Object.values(data ?? {}) });
    expect(lines()).toEqual(['A', 'B']);
    controller.set(User, { id: 'b' }, { id: 'b', name: 'Bee' });
    await tick();
    expect(lines()).toEqual(['A', 'Bee']);
    controller.setResponse(getUsersById, {}, { b: { id: 'b', name: 'Bee' }, c: { id: 'c', name: 'C' } });
    await tick();
    expect(lines()).toEqual(['Bee', 'C']);
  });

  it('keeps the rows of a { results, next } page', async () => {
    const todo = (id: number) => ({ id, userId: 1, title: `todo ${id}`, completed: false });
    controller.setResponse(getPage, {}, { results: [todo(1), todo(2)], next: 'b' });
    const items = (data: unknown) => (data as { results?: Todo[] } | undefined)?.results ?? [];
    mount(getPage, undefined, (t: Todo) => t.title, { form, items });
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    await tick();
    expect(lines()).toEqual(['todo 1', 'two']);
    controller.setResponse(getPage, {}, { results: [todo(2), todo(3)], next: null });
    await tick();
    expect(lines()).toEqual(['todo 2', 'todo 3']);
  });
});

describe('what a reconcile row answers to object operations', () => {
  const todo = (id: number, title = `todo ${id}`) => ({ id, userId: 1, title, completed: false });
  function firstRow() {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo(1), todo(2)]);
    const { state } = mount(TodoResource.getList, { userId: 1 }, (t: Todo) => t.title);
    return (state().data as Todo[])[0]!;
  }
  const stored = () => JSON.stringify(controller.getState());

  it('refuses every write with a named TypeError, leaving the row and the store as they were', async () => {
    const row = firstRow();
    const before = stored();
    const writes: [string, () => unknown][] = [
      ['assign', () => ((row as { title: string }).title = 'x')],
      ['define', () => Object.defineProperty(row, 'title', { value: 'x' })],
      ['delete', () => delete (row as { title?: string }).title],
      ['assign a new field', () => ((row as unknown as { extra: number }).extra = 1)],
      ['set the prototype', () => Object.setPrototypeOf(row, null)],
      ['freeze', () => Object.freeze(row)],
      ['seal', () => Object.seal(row)],
      ['prevent extensions', () => Object.preventExtensions(row)],
    ];
    for (const [what, write] of writes) expect(write, what).toThrow(/rx-rest\/svelte: .*read-only/);
    expect(stored()).toBe(before);
    expect(row).toBeInstanceOf(Todo);
    expect(Object.isExtensible(row)).toBe(true);
    expect(Object.keys(row)).toEqual(Object.keys(controller.get(Todo, { id: 1 })!));
    expect({ ...row }).toMatchObject(todo(1));
    controller.set(Todo, { id: 1 }, { id: 1, title: 'after' });
    await tick();
    expect(row.title).toBe('after');
    expect(lines()).toEqual(['after', 'todo 2']);
  });

  it('copies to plain data with a spread, JSON and $state.snapshot; structuredClone refuses a row (a Proxy)', () => {
    const row = firstRow();
    const fields = { ...controller.get(Todo, { id: 1 })! };
    expect({ ...row }).toEqual(fields);
    expect(Object.getPrototypeOf({ ...row })).toBe(Object.prototype);
    expect(JSON.stringify(row)).toBe(JSON.stringify(fields));
    const copy = snapshot(row) as Record<string, unknown>;
    expect(copy).not.toBe(row);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual(JSON.parse(JSON.stringify(fields)));
    expect(() => structuredClone(row)).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    expect(row.title).toBe('todo 1');
  });
});

/** A todo whose getters and methods read its other fields, and whose class writes its own JSON. */
class LabelTodo extends Entity {
  id = 0;
  title = '';
  done = false;
  pk() {
    return `${this.id}`;
  }
  get label() {
    return `${this.done ? '✓' : '·'} ${this.title}`;
  }
  get nothing(): null {
    return null;
  }
  shout() {
    return this.title.toUpperCase();
  }
  toJSON() {
    return { label: this.label };
  }
  static override key = 'LabelTodo';
}
const LabelResource = createResource({ urlPrefix: API, path: '/labels/:id', schema: LabelTodo });

describe.each(['state', 'store'] as const)("a row's getters and methods (%s form)", (form) => {
  it('show the fields they read as those change; the class keeps its own toJSON', async () => {
    controller.setResponse(LabelResource.getList, {}, [
      { id: 1, title: 'one', done: false },
      { id: 2, title: 'two', done: true },
    ] as never);
    const { state } = mount(LabelResource.getList, {}, (t: LabelTodo) => `${t.label} ${t.shout()} ${t.nothing}`, {
      form,
    });
    expect(lines()).toEqual(['· one ONE null', '✓ two TWO null']);
    controller.set(LabelTodo, { id: 1 }, { id: 1, title: 'uno' });
    await tick();
    expect(lines()).toEqual(['· uno UNO null', '✓ two TWO null']);
    controller.set(LabelTodo, { id: 2 }, { id: 2, done: false });
    await tick();
    expect(lines()).toEqual(['· uno UNO null', '· two TWO null']);
    if (form === 'state') expect(JSON.stringify(state().data)).toBe('[{"label":"· uno"},{"label":"· two"}]');
  });
});

describe('a field a record gains or loses, read through a reconcile row', () => {
  it("re-runs what read it as absent, and what read the row's keys, `in` or JSON", async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [{ id: 1, userId: 1, title: 'one', completed: false }]);
    const todos = createQuery(TodoResource.getList, { userId: 1 }, { controller, reconcile: true });
    let data: Todo[] = [];
    const stop = todos.subscribe((state) => (data = state.data ?? []));
    const todo = data[0] as Todo & { note?: string };
    const seen = {
      note: watch(() => todo.note),
      has: watch(() => 'note' in todo),
      keys: watch(() => Object.keys(todo).includes('note')),
      json: watch(() => JSON.parse(JSON.stringify(todo)).note as unknown),
    };
    controller.set(Todo, { id: 1 }, { id: 1, note: 'noted' } as never);
    await tick();
    flushSync();
    expect(data[0]).toBe(todo);
    expect(seen.note.values).toEqual([undefined, 'noted']);
    expect(seen.has.values).toEqual([false, true]);
    expect(seen.keys.values).toEqual([false, true]);
    expect(seen.json.values).toEqual([undefined, 'noted']);
    for (const watched of Object.values(seen)) watched.stop();
    stop();
  });
});

describe('reconcile: true as the docs state it', () => {
  const todo = (id: number, title = `todo ${id}`) => ({ id, userId: 1, title, completed: false });

  it('useSuspense takes it too: the same row, updated in place, and the same array', async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo(1), todo(2)]);
    const store = useSuspense(TodoResource.getList, { userId: 1 }, { controller, reconcile: true });
    const seen: Todo[][] = [];
    const stop = store.subscribe((state) => state.data && seen.push(state.data));
    const row = seen[0]![1]!;
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    await tick();
    expect(seen).toHaveLength(1);
    expect(row.title).toBe('two');
    expect(row).not.toBe(controller.get(Todo, { id: 2 }));
    stop();
  });

  it('renders the markup it renders without reconcile (what a server render hydrates into)', () => {
    controller.setResponse(ArticleResource.getList, {}, [article(1, 'ann', [{ id: 10, body: 'hi', author: 'bob' }])]);
    const html = (reconcile: boolean, form: 'state' | 'store') => {
      const { view } = mount(ArticleResource.getList, {}, (a: Article) => JSON.stringify(a), { reconcile, form });
      const markup = view.container.innerHTML;
      view.unmount();
      return markup;
    };
    for (const form of ['state', 'store'] as const) {
      const markup = html(true, form);
      expect(markup).toContain('"name":"name of bob"');
      expect(markup).toBe(html(false, form));
    }
  });

  it('gives an entity listed twice one row at both positions, showing its latest record', async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo(1), todo(2), todo(1)]);
    const store = createQuery(TodoResource.getList, { userId: 1 }, { controller, reconcile: true });
    let data: Todo[] = [];
    const stop = store.subscribe((state) => (data = state.data ?? []));
    const titles = watch(() => data.map((t) => t.title).join());
    expect(data[0]).toBe(data[2]);
    controller.set(Todo, { id: 1 }, { id: 1, title: 'one' });
    await tick();
    flushSync();
    expect(titles.values.at(-1)).toBe('one,todo 2,one');
    titles.stop();
    stop();
  });
});
