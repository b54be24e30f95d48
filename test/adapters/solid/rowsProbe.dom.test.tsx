/**
 * Solid `reconcile: true` rows over nested and polymorphic data, shared entities, argument switches, deletes and
 * re-adds, and what a row answers to the language's object operations: every DOM compared with what the store holds.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { createRenderEffect, createRoot, For, type Accessor } from 'solid-js';
import { unwrap } from 'solid-js/store';
import { Controller, Entity, RestEndpoint, createResource, schema, type ReadEndpoint } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState, useSuspense } from '../../../adapters/solid/index.js';
import { Article, Comment, Todo, User } from '../../fixtures/entities.js';
import { FeedItem, Link, Post } from '../../fixtures/feedItems.js';
import { TodoResource } from '../resources.js';

afterEach(cleanup);

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
const list = (data: unknown) => (data ?? []) as readonly unknown[];
const microtask = () => Promise.resolve();

let controller: Controller;
beforeEach(() => {
  controller = new Controller();
});

/** Mounts a `<For>` over the rows `items` picks out of the query's data; each `<li>` shows `line(row)`. */
function mount<T>(
  endpoint: ReadEndpoint,
  args: Accessor<unknown>,
  line: (item: T) => string,
  more: { items?: (data: unknown) => readonly unknown[]; form?: 'resource' | 'state'; reconcile?: boolean } = {},
) {
  const items = more.items ?? list;
  const options = { reconcile: more.reconcile ?? true };
  function Rows() {
    const read: () => unknown =
      more.form === 'state'
        ? (
            (state) => () =>
              state().data
          )(createQueryState(endpoint, args as never, options))
        : createQuery(endpoint, args as never, options);
    return (
      <ul>
        <For each={items(read())}>{(item) => <li>{line(item as T)}</li>}</For>
      </ul>
    );
  }
  return render(() => (
    <ControllerProvider controller={controller}>
      <Rows />
    </ControllerProvider>
  ));
}

const article = (id: number, author: string, comments: { id: number; body: string; author: string }[] = []) => ({
  id,
  title: `article ${id}`,
  author: { id: author, name: `name of ${author}` },
  comments: comments.map((c) => ({ ...c, author: { id: c.author, name: `name of ${c.author}` } })),
});

describe.each(['resource', 'state'] as const)('Solid reconcile rows of nested data (%s form)', (form) => {
  const showArticle = (a: Article) =>
    `${a.title} by ${a.author.name}: ${a.comments.map((c) => `${c.body} (${c.author.name})`).join(', ')}`;

  it("shows a row's related entity as it changes: its fields, another entity, a nested list", async () => {
    controller.setResponse(ArticleResource.getList, {}, [
      article(1, 'ann', [{ id: 10, body: 'hi', author: 'bob' }]),
      article(2, 'bob'),
    ]);
    mount(ArticleResource.getList, () => ({}), showArticle, { form });
    expect(lines()).toEqual(['article 1 by name of ann: hi (name of bob)', 'article 2 by name of bob: ']);
    controller.set(User, { id: 'bob' }, { id: 'bob', name: 'Bob' });
    await microtask();
    expect(lines()).toEqual(['article 1 by name of ann: hi (Bob)', 'article 2 by Bob: ']);
    controller.set(Article, { id: 1 }, { id: 1, author: { id: 'cy', name: 'Cy' } });
    await microtask();
    expect(lines()).toEqual(['article 1 by Cy: hi (Bob)', 'article 2 by Bob: ']);
    controller.set(Comment, { id: 10 }, { id: 10, body: 'hello' });
    await microtask();
    expect(lines()).toEqual(['article 1 by Cy: hello (Bob)', 'article 2 by Bob: ']);
    controller.set(
      Article,
      { id: 2 },
      { id: 2, comments: [{ id: 11, body: 'new', author: { id: 'ann', name: 'Ann' } }] },
    );
    await microtask();
    expect(lines()).toEqual(['article 1 by Cy: hello (Bob)', 'article 2 by Bob: new (Ann)']);
    controller.set(User, { id: 'cy' }, { id: 'cy', name: 'Cyrus' });
    await microtask();
    expect(lines()).toEqual(['article 1 by Cyrus: hello (Bob)', 'article 2 by Bob: new (Ann)']);
  });

  it('keeps the rows of a polymorphic list (schema.Union), each of its own class', async () => {
    controller.setResponse(getFeed, {}, [
      { id: 1, type: 'link', url: 'a' },
      { id: 1, type: 'post', title: 'p' },
    ]);
    const show = (item: Link | Post) => (item instanceof Link ? `link ${item.url}` : `post ${item.title}`);
    mount(getFeed, () => undefined, show, { form });
    expect(lines()).toEqual(['link a', 'post p']);
    controller.set(Post, { id: 1 }, { id: 1, title: 'q' });
    await microtask();
    expect(lines()).toEqual(['link a', 'post q']);
    controller.set(Link, { id: 1 }, { id: 1, url: 'b' });
    await microtask();
    expect(lines()).toEqual(['link b', 'post q']);
    controller.setResponse(getFeed, {}, [
      { id: 1, type: 'post', title: 'q' },
      { id: 2, type: 'link', url: 'c' },
    ]);
    await microtask();
    expect(lines()).toEqual(['post q', 'link c']);
  });

  it('keeps the rows of a schema.Values object', async () => {
    controller.setResponse(getUsersById, {}, { a: { id: 'a', name: 'A' }, b: { id: 'b', name: 'B' } });
    mount(
      getUsersById,
      () => undefined,
      (u: User) => u.name,
      { form, items: (data) => Object.values(data ?? {}) },
    );
    expect(lines()).toEqual(['A', 'B']);
    controller.set(User, { id: 'b' }, { id: 'b', name: 'Bee' });
    await microtask();
    expect(lines()).toEqual(['A', 'Bee']);
    controller.setResponse(getUsersById, {}, { b: { id: 'b', name: 'Bee' }, c: { id: 'c', name: 'C' } });
    await microtask();
    expect(lines()).toEqual(['Bee', 'C']);
  });

  it('keeps the rows of a { results, next } page', async () => {
    const todo = (id: number) => ({ id, userId: 1, title: `todo ${id}`, completed: false });
    controller.setResponse(getPage, {}, { results: [todo(1), todo(2)], next: 'b' });
    const items = (data: unknown) => (data as { results?: Todo[] } | undefined)?.results ?? [];
    mount(
      getPage,
      () => undefined,
      (t: Todo) => t.title,
      { form, items },
    );
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    await microtask();
    expect(lines()).toEqual(['todo 1', 'two']);
    controller.setResponse(getPage, {}, { results: [todo(2), todo(3)], next: null });
    await microtask();
    expect(lines()).toEqual(['todo 2', 'todo 3']);
  });
});

describe('what a Solid reconcile row answers to object operations', () => {
  const todo = (id: number, title = `todo ${id}`) => ({ id, userId: 1, title, completed: false });
  const stored = () => JSON.stringify(controller.getState());
  function firstRow(run: (row: Todo, todos: () => unknown) => void) {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo(1), todo(2)]);
    createRoot((dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      run(todos().data![0]!, todos);
      dispose();
    });
  }

  it('refuses every write with a named TypeError, leaving the row and the store as they were', () => {
    firstRow((row, todos) => {
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
      for (const [what, write] of writes) expect(write, what).toThrow(/rx-rest\/solid: .*read-only/);
      expect(stored()).toBe(before);
      expect(row).toBeInstanceOf(Todo);
      expect(Object.isExtensible(row)).toBe(true);
      expect(Object.keys(row)).toEqual(Object.keys(controller.get(Todo, { id: 1 })!));
      expect({ ...row }).toMatchObject(todo(1));
      controller.set(Todo, { id: 1 }, { id: 1, title: 'after' });
      todos(); // an accessor read outside a tracking scope brings the write (the rows follow)
      expect(row.title).toBe('after');
    });
  });

  it('copies to plain data with a spread and JSON; unwrap gives the row back; structuredClone refuses a row', () => {
    firstRow((row) => {
      const fields = { ...controller.get(Todo, { id: 1 })! };
      expect({ ...row }).toEqual(fields);
      expect(Object.getPrototypeOf({ ...row })).toBe(Object.prototype);
      expect(JSON.stringify(row)).toBe(JSON.stringify(fields));
      expect(unwrap(row)).toBe(row); // a row is not a store: unwrap leaves it as it is
      expect(() => structuredClone(row)).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
      expect(row.title).toBe('todo 1');
    });
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

describe.each(['resource', 'state'] as const)("a Solid row's getters and methods (%s form)", (form) => {
  it('show the fields they read as those change; the class keeps its own toJSON', async () => {
    controller.setResponse(LabelResource.getList, {}, [
      { id: 1, title: 'one', done: false },
      { id: 2, title: 'two', done: true },
    ] as never);
    mount(
      LabelResource.getList,
      () => ({}),
      (t: LabelTodo) => `${t.label} ${t.shout()} ${t.nothing}`,
      { form },
    );
    expect(lines()).toEqual(['· one ONE null', '✓ two TWO null']);
    controller.set(LabelTodo, { id: 1 }, { id: 1, title: 'uno' });
    await microtask();
    expect(lines()).toEqual(['· uno UNO null', '✓ two TWO null']);
    controller.set(LabelTodo, { id: 2 }, { id: 2, done: false });
    await microtask();
    expect(lines()).toEqual(['· uno UNO null', '· two TWO null']);
    controller.set(LabelTodo, { id: 2 }, { id: 2, title: 'dos' });
    await microtask();
    expect(lines()).toEqual(['· uno UNO null', '· dos DOS null']);
  });
});

describe('a field a record gains or loses, read through a Solid reconcile row', () => {
  it("re-runs what read it as absent, and what read the row's keys, `in` or JSON", async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [{ id: 1, userId: 1, title: 'one', completed: false }]);
    await createRoot(async (dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      const todo = todos().data![0] as Todo & { note?: string };
      const watch = <T,>(read: () => T) => {
        const values: T[] = [];
        createRenderEffect(() => values.push(read()));
        return values;
      };
      const seen = {
        note: watch(() => todo.note),
        has: watch(() => 'note' in todo),
        keys: watch(() => Object.keys(todo).includes('note')),
        json: watch(() => JSON.parse(JSON.stringify(todo)).note as unknown),
      };
      controller.set(Todo, { id: 1 }, { id: 1, note: 'noted' } as never);
      await microtask();
      expect(todos().data![0]).toBe(todo);
      expect(seen).toEqual({
        note: [undefined, 'noted'],
        has: [false, true],
        keys: [false, true],
        json: [undefined, 'noted'],
      });
      controller.set(Todo, { id: 1 }, { id: 1, note: 'again' } as never);
      await microtask();
      expect(seen.note).toEqual([undefined, 'noted', 'again']);
      dispose();
    });
  });
});

describe('Solid reconcile: true as the docs state it', () => {
  const todo = (id: number, title = `todo ${id}`) => ({ id, userId: 1, title, completed: false });

  it("useSuspense takes it too: a changed record keeps its row's DOM node", async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo(1), todo(2)]);
    function Rows() {
      const todos = useSuspense(TodoResource.getList, () => ({ userId: 1 }), { reconcile: true });
      return (
        <ul>
          <For each={todos()}>{(t) => <li>{t.title}</li>}</For>
        </ul>
      );
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <Rows />
      </ControllerProvider>
    ));
    const items = screen.getAllByRole('listitem');
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    await microtask();
    expect(lines()).toEqual(['todo 1', 'two']);
    expect(screen.getAllByRole('listitem')).toEqual(items);
  });

  it('renders the markup it renders without reconcile (what a server render hydrates into)', () => {
    controller.setResponse(ArticleResource.getList, {}, [article(1, 'ann', [{ id: 10, body: 'hi', author: 'bob' }])]);
    const html = (reconcile: boolean, form: 'resource' | 'state') => {
      const view = mount(
        ArticleResource.getList,
        () => ({}),
        (a: Article) => JSON.stringify(a),
        { reconcile, form },
      );
      const markup = view.container.innerHTML;
      view.unmount();
      return markup;
    };
    for (const form of ['resource', 'state'] as const) {
      const markup = html(true, form);
      expect(markup).toContain('name of bob');
      expect(markup).toBe(html(false, form));
    }
  });

  it('gives an entity listed twice one row at both positions, showing its latest record', async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo(1), todo(2), todo(1)]);
    await createRoot(async (dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      const titles: string[] = [];
      createRenderEffect(() =>
        titles.push(
          todos()
            .data!.map((t) => t.title)
            .join(),
        ),
      );
      expect(todos().data![0]).toBe(todos().data![2]);
      controller.set(Todo, { id: 1 }, { id: 1, title: 'one' });
      await microtask();
      expect(titles.at(-1)).toBe('one,todo 2,one');
      dispose();
    });
  });
});

describe('a Solid reconcile row read right after a write', () => {
  it('shows the write outside a tracking scope (an event handler), as the accessor does', async () => {
    controller.setResponse(TodoResource.getList, { userId: 1 }, [
      { id: 1, userId: 1, title: 'one', completed: false },
      { id: 2, userId: 1, title: 'two', completed: false },
    ]);
    let todo!: Todo;
    let seen: unknown[] = [];
    function Rows() {
      const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }), { reconcile: true });
      const toggle = (row: Todo) => {
        controller.set(Todo, { id: row.id }, { id: row.id, completed: !row.completed });
        seen = [row.completed, row.title];
      };
      return (
        <ul>
          <For each={todos()}>
            {(row) => {
              if (row.id === 2) todo = row;
              return (
                <li>
                  <button onClick={() => toggle(row)}>{`${row.title} ${row.completed}`}</button>
                </li>
              );
            }}
          </For>
        </ul>
      );
    }
    render(() => (
      <ControllerProvider controller={controller}>
        <Rows />
      </ControllerProvider>
    ));
    screen.getAllByRole('button')[1]!.click();
    expect(seen).toEqual([true, 'two']);
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    expect(todo.title).toBe('renamed');
    controller.set(Todo, { id: 2 }, { id: 2, title: 'again' });
    expect(Object.getOwnPropertyDescriptor(todo, 'title')?.value).toBe('again');
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed', note: 'n' } as never);
    expect('note' in todo && Object.keys(todo).includes('note')).toBe(true);
    await microtask();
    expect(lines()).toEqual(['one false', 'renamed true']);
  });
});
