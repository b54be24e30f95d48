import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { createRenderEffect, createRoot, For } from 'solid-js';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';
import { todoRow as row } from '../../fixtures/todoResource.js';

afterEach(cleanup);

let controller: Controller;
beforeEach(() => {
  controller = new Controller();
  controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1), row(2), row(3)]);
});

const titles = () => screen.queryAllByRole('listitem').map((li) => li.querySelector('span')?.textContent);
const microtask = () => Promise.resolve();

let reconcile = false;

/** A list whose rows hold an input (focus and typed text are DOM state a recreated row loses). */
function Todos(props: { rows?: () => void }) {
  const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }), { reconcile });
  return (
    <ul>
      <For each={todos()}>
        {(todo) => {
          props.rows?.();
          return (
            <li data-id={todo.id}>
              <span>{todo.title}</span>
              <input aria-label={`note ${todo.id}`} />
            </li>
          );
        }}
      </For>
    </ul>
  );
}

const mount = (props: Parameters<typeof Todos>[0] & { reconcile?: boolean } = {}) => {
  reconcile = !!props.reconcile;
  return render(() => (
    <ControllerProvider controller={controller}>
      <Todos rows={props.rows} />
    </ControllerProvider>
  ));
};

describe('Solid: emissions of one task', () => {
  it("renders the subscription's first emission at once, then a task's writes once, at its end (a single write as a burst)", async () => {
    let renders = 0;
    createRoot(() => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), controller);
      createRenderEffect(() => {
        todos();
        renders++;
      });
    });
    expect(renders).toBe(1); // the first emission is there on subscribe
    controller.set(Todo, { id: 1 }, { id: 1, title: 'one' });
    expect(renders).toBe(1);
    await microtask();
    expect(renders).toBe(2);
    for (let i = 0; i < 50; i++) controller.set(Todo, { id: 2 }, { id: 2, title: `two ${i}` });
    expect(renders).toBe(2);
    await microtask();
    expect(renders).toBe(3); // fifty writes, one render
  });

  it("renders every query's writes of a task in one batch", async () => {
    controller.setResponse(TodoResource.get, { id: 1 }, row(1));
    let renders = 0;
    let seen: unknown[] = [];
    const dispose = createRoot((dispose) => {
      const list = createQueryState(TodoResource.getList, () => ({ userId: 1 }), controller);
      const one = createQueryState(TodoResource.get, () => ({ id: 1 }), controller);
      createRenderEffect(() => {
        seen = [list().data?.[0]?.title, one().data?.title];
        renders++;
      });
      return dispose;
    });
    controller.set(Todo, { id: 1 }, { id: 1, title: 'one' });
    controller.set(Todo, { id: 2 }, { id: 2, title: 'two' });
    await microtask();
    expect(seen).toEqual(['one', 'one']);
    expect(renders).toBe(2); // both queries changed, one render
    dispose();
  });

  it("shows the burst's last write in the DOM at the end of the task, and to a read outside a tracking scope at once", async () => {
    let todos!: () => { data?: readonly Todo[] | undefined };
    const dispose = createRoot((dispose) => {
      todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), controller);
      return dispose;
    });
    mount();
    for (const title of ['a', 'b', 'c']) controller.set(Todo, { id: 3 }, { id: 3, title });
    expect(todos().data?.map((todo) => todo.title)).toEqual(['todo 1', 'todo 2', 'c']);
    expect(titles()).toEqual(['todo 1', 'todo 2', 'todo 3']); // the DOM: at the end of the task
    await microtask();
    expect(titles()).toEqual(['todo 1', 'todo 2', 'c']);
    dispose();
  });

  it('renders a burst that changes many rows once, each changed text once (reconcile)', async () => {
    controller.setResponse(
      TodoResource.getList,
      { userId: 1 },
      Array.from({ length: 20 }, (_, i) => row(i + 1)),
    );
    let texts = 0;
    const dispose = createRoot((dispose) => {
      const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      createRenderEffect(() => todos()?.forEach((todo) => createRenderEffect(() => (void todo.title, texts++))));
      return dispose;
    });
    expect(texts).toBe(20);
    for (let round = 0; round < 3; round++)
      for (let id = 1; id <= 10; id++) controller.set(Todo, { id }, { id, title: `todo ${id} round ${round}` });
    await microtask();
    expect(texts).toBe(30); // ten changed rows, thirty writes: each changed text rendered once
    dispose();
  });
});

describe('Solid: reconcile', () => {
  it("keeps a changed row's DOM node, its focus and its input's value, and re-renders only the changed text", async () => {
    let rows = 0;
    mount({ reconcile: true, rows: () => rows++ });
    const second = screen.getAllByRole('listitem')[1];
    const input = screen.getByLabelText('note 2') as HTMLInputElement;
    input.focus();
    input.value = 'typed';
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    await microtask();
    expect(titles()).toEqual(['todo 1', 'renamed', 'todo 3']);
    expect(screen.getAllByRole('listitem')[1]).toBe(second);
    expect(screen.getByLabelText('note 2')).toBe(input);
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe('typed');
    expect(rows).toBe(3); // no row was created again
  });

  it('shows the writes to a long list the core patches in their rows only, also writes another reader read in between', async () => {
    const N = 100;
    controller.setResponse(
      TodoResource.getList,
      { userId: 1 },
      Array.from({ length: N }, (_, i) => row(i + 1)),
    );
    let rows = 0;
    mount({ reconcile: true, rows: () => rows++ });
    controller.set(Todo, { id: 1 }, { id: 1, title: 'warm' }); // from the second write on, the core patches the list
    await microtask();
    const items = screen.getAllByRole('listitem');
    const expected = (titles: Record<number, string>) =>
      Array.from({ length: N }, (_, i) => titles[i + 1] ?? (i === 0 ? 'warm' : `todo ${i + 1}`));
    controller.set(Todo, { id: 70 }, { id: 70, title: 'seventy' });
    await microtask();
    expect(titles()).toEqual(expected({ 70: 'seventy' }));
    const read = () => controller.getResponse(TodoResource.getList, { userId: 1 }).data;
    controller.set(Todo, { id: 40 }, { id: 40, title: 'forty' });
    read();
    controller.set(Todo, { id: 60 }, { id: 60, title: 'sixty' });
    read();
    controller.set(Todo, { id: 40 }, { id: 40, title: 'forty again' });
    await microtask();
    expect(titles()).toEqual(expected({ 40: 'forty again', 60: 'sixty', 70: 'seventy' }));
    expect(screen.getAllByRole('listitem')).toEqual(items);
    expect(rows).toBe(N); // no row was created again
  });

  it('recreates a changed row without it (a changed record is a new object), and keeps the unchanged rows', async () => {
    mount();
    const [first, second] = screen.getAllByRole('listitem');
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    await microtask();
    expect(titles()).toEqual(['todo 1', 'renamed', 'todo 3']);
    expect(screen.getAllByRole('listitem')[0]).toBe(first);
    expect(screen.getAllByRole('listitem')[1]).not.toBe(second);
  });

  it('gives the same row per entity while it stays in the data, the same array while its rows are the same, and follows additions and removals', () => {
    createRoot((dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      const before = todos().data!;
      expect(before.map((todo) => todo.title)).toEqual(['todo 1', 'todo 2', 'todo 3']);
      expect(before[0]).toBeInstanceOf(Todo);
      expect(before[0]!.pk()).toBe('1');

      controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed', completed: true });
      const after = todos().data!;
      expect(after).toBe(before); // the same rows: the same array
      expect(after[1]!.title).toBe('renamed');
      expect(after[1]!.completed).toBe(true);
      expect(controller.get(Todo, { id: 2 })?.title).toBe('renamed'); // the cache's own objects are untouched
      expect(controller.get(Todo, { id: 2 })).not.toBe(after[1]);

      controller.setResponse(TodoResource.getList, { userId: 1 }, [row(3), row(4), row(2, 'renamed')]);
      const next = todos().data!;
      expect(next.map((todo) => todo.title)).toEqual(['todo 3', 'todo 4', 'renamed']);
      expect(next[0]).toBe(before[2]);
      expect(next[2]).toBe(before[1]);

      controller.setResponse(TodoResource.getList, { userId: 1 }, [row(1)]);
      expect(todos().data![0]).not.toBe(before[0]); // todo 1 left the data: its row was let go
      dispose();
    });
  });

  it("keeps each row's DOM node through additions, removals and a reorder", async () => {
    mount({ reconcile: true });
    const node = (id: number) => document.querySelector(`li[data-id="${id}"]`);
    const [one, two, three] = [node(1), node(2), node(3)];
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(3), row(4), row(1, 'first'), row(2)]);
    await microtask();
    expect(titles()).toEqual(['todo 3', 'todo 4', 'first', 'todo 2']);
    expect([node(3), node(1), node(2)]).toEqual([three, one, two]);
    expect(node(3)).toBe(three);
    expect(node(1)).toBe(one);
    const four = node(4);
    controller.setResponse(TodoResource.getList, { userId: 1 }, [row(4), row(2, 'second')]);
    await microtask();
    expect(titles()).toEqual(['todo 4', 'second']);
    expect(node(4)).toBe(four);
    expect(node(2)).toBe(two);
    expect(node(1)).toBeNull();
  });

  it("re-runs what read a row on its record's first change, and from then on only what read a changed field", async () => {
    const runs = { title: 0, completed: 0 };
    const dispose = createRoot((dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      const second = todos().data![1]!;
      createRenderEffect(() => (void second.title, runs.title++));
      createRenderEffect(() => (void second.completed, runs.completed++));
      return dispose;
    });
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed' });
    await microtask();
    expect(runs).toEqual({ title: 2, completed: 2 }); // the first change: one signal for the whole row
    controller.set(Todo, { id: 2 }, { id: 2, title: 'renamed again' });
    await microtask();
    expect(runs).toEqual({ title: 3, completed: 2 });
    controller.set(Todo, { id: 2 }, { id: 2, completed: true });
    await microtask();
    expect(runs).toEqual({ title: 3, completed: 3 });
    controller.set(Todo, { id: 1 }, { id: 1, completed: true }); // another row
    await microtask();
    expect(runs).toEqual({ title: 3, completed: 3 });
    dispose();
  });

  it('follows a field that changed before anything tracked the row, once something does', async () => {
    let titles: string[] = [];
    const dispose = createRoot((dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      const second = todos().data![1]!;
      controller.set(Todo, { id: 2 }, { id: 2, title: 'untracked' }); // nothing reads the row in a tracking scope yet
      expect(todos().data![1]).toBe(second); // read outside a tracking scope: the write shows at once
      expect(second.title).toBe('untracked');
      createRenderEffect(() => titles.push(second.title));
      return dispose;
    });
    await microtask();
    expect(titles).toEqual(['untracked']);
    for (const title of ['tracked', 'again']) {
      controller.set(Todo, { id: 2 }, { id: 2, title });
      await microtask();
    }
    expect(titles).toEqual(['untracked', 'tracked', 'again']);
    titles = [];
    controller.set(Todo, { id: 2 }, { id: 2, completed: true });
    await microtask();
    expect(titles).toEqual([]); // the title has a signal of its own since it changed
    dispose();
  });

  it("re-runs what read the row's keys when a field appears, and only that", async () => {
    const runs = { keys: 0, title: 0 };
    let keys: string[] = [];
    const dispose = createRoot((dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      const first = todos().data![0]!;
      createRenderEffect(() => ((keys = Object.keys(first)), runs.keys++));
      createRenderEffect(() => (void first.title, runs.title++));
      return dispose;
    });
    controller.set(Todo, { id: 1 }, { id: 1, title: 'renamed' });
    await microtask();
    expect(runs).toEqual({ keys: 2, title: 2 }); // the first change: what read the row
    const extra = { ...row(1, 'renamed'), extra: 1 }; // a field the class does not declare: the record keeps it
    controller.setResponse(TodoResource.getList, { userId: 1 }, [extra, row(2), row(3)]);
    await microtask();
    expect(keys).toContain('extra');
    expect(runs).toEqual({ keys: 3, title: 2 });
    controller.set(Todo, { id: 1 }, { id: 1, note: 'n' } as Partial<Todo>);
    await microtask();
    expect(keys).toEqual(expect.arrayContaining(['extra', 'note']));
    expect(runs).toEqual({ keys: 4, title: 2 });
    dispose();
  });

  it('reads like the entity (its class, pk(), its fields by spread, keys and JSON) and refuses writes with a named error', () => {
    createRoot((dispose) => {
      const todos = createQueryState(TodoResource.getList, () => ({ userId: 1 }), { controller, reconcile: true });
      const todo = todos().data![0]!;
      const cached = controller.get(Todo, { id: 1 })!;
      expect(todo).toBeInstanceOf(Todo);
      expect(todo.pk()).toBe('1');
      expect({ ...todo }).toEqual({ ...cached });
      expect(Object.keys(todo)).toEqual(Object.keys(cached));
      expect('title' in todo).toBe(true);
      expect(JSON.parse(JSON.stringify(todo))).toEqual(JSON.parse(JSON.stringify(cached)));
      expect(todo.createdAt).toBe(cached.createdAt);
      expect(() => ((todo as { title: string }).title = 'x')).toThrow(/read-only view of the cache.*controller\.set/);
      expect(() => delete (todo as { title?: string }).title).toThrow(/read-only view of the cache/);
      expect(todo.title).toBe('todo 1');
      dispose();
    });
  });

  it('reconciles a single entity', () => {
    controller.setResponse(TodoResource.get, { id: 5 }, row(5));
    let titles = 0;
    const { todo, dispose } = createRoot((dispose) => {
      const todo = createQueryState(TodoResource.get, () => ({ id: 5 }), { controller, reconcile: true });
      createRenderEffect(() => {
        void todo().data?.title;
        titles++;
      });
      return { todo, dispose };
    });
    const before = todo().data!;
    controller.set(Todo, { id: 5 }, { id: 5, title: 'five' });
    expect(todo().data).toBe(before);
    expect(before.title).toBe('five');
    expect(titles).toBe(2); // the field changed; the state did not
    dispose();
  });
});
