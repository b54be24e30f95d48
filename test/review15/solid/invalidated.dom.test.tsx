/**
 * rx-rest/solid's suspending reads (createQuery, its seed name useLive, and useSuspense) after their first data:
 * when the data they read goes away (an invalidated entity or list, a deleted entity), `observe` emits a loading
 * state while it refetches, and the read keeps the last data on screen until the refetch answers (as TanStack
 * solid-query keeps `data` while it refetches): the `<Suspense>` fallback never shows again. A refetch that
 * answers shows its data in place; one that fails goes to the `<ErrorBoundary>`. A switch of args to a request
 * with no data still suspends (API.md: "until the first data", per request).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@solidjs/testing-library';
import { createSignal, ErrorBoundary, For, Suspense, type JSX } from 'solid-js';
import { Controller } from '../../../core/index.js';
import { ControllerProvider, createQuery, useLive, useSuspense } from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(cleanup);

let controller: Controller;
/** Each text the page showed, in order (the fallback as `Loading…`, an error as `failed: ...`). */
let shown: string[];
beforeEach(() => {
  const seed = createTodoServer();
  fake.todos.clear();
  for (const [id, todo] of seed.todos) fake.todos.set(id, todo);
  fake.requests.length = 0;
  fake.setLatency(0);
  controller = new Controller({ retry: 0 });
  shown = [];
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const reads = { createQuery, useLive, useSuspense } as const;

/** The app's shell: provider, error boundary, suspense; every fallback and error it renders is logged in `shown`. */
function Shell(props: { children: JSX.Element }) {
  return (
    <ControllerProvider controller={controller}>
      <ErrorBoundary
        fallback={(error: Error) => (shown.push(`failed: ${error.message}`), (<p role="alert">failed</p>))}
      >
        <Suspense fallback={(shown.push('Loading…'), (<p>Loading…</p>))}>{props.children}</Suspense>
      </ErrorBoundary>
    </ControllerProvider>
  );
}

/** The page's text now, and logged in `shown` when it changed. */
function look(): string {
  const text = document.body.textContent ?? '';
  if (shown.at(-1) !== text) shown.push(text);
  return text;
}

/** Looks at the page every 2 ms until `text` shows (or 1 s passed). */
async function until(text: string) {
  for (let waited = 0; waited < 1000 && !look().includes(text); waited += 2) await wait(2);
  expect(look()).toContain(text);
}

describe.each(Object.keys(reads) as (keyof typeof reads)[])('%s after its first data', (name) => {
  const read = reads[name];

  function Detail(props: { id: number }) {
    // eslint-disable-next-line solid/reactivity -- createQuery, useLive or useSuspense: each tracks its args accessor
    const todo = read(TodoResource.get, () => ({ id: props.id }));
    return <h1>{todo()?.title}</h1>;
  }

  /** Todo 1's detail rendered and its first data shown; later answers take 40 ms. */
  async function detailShown() {
    render(() => (
      <Shell>
        <Detail id={1} />
      </Shell>
    ));
    await until('todo 1');
    fake.setLatency(40);
  }

  function List() {
    const todos = read(TodoResource.getList, () => ({ userId: 1 }));
    return (
      <ul>
        <For each={todos()}>{(todo) => <li>{todo.title};</li>}</For>
      </ul>
    );
  }

  it('an invalidated entity: the last data stays until the refetch answers, then the new data shows in place', async () => {
    await detailShown();
    fake.todos.set(1, { ...fake.todos.get(1)!, title: 'renamed' });
    controller.invalidate(TodoResource.get, { id: 1 });
    await wait(20); // the refetch is in flight
    expect(look()).toBe('todo 1');
    await until('renamed');
    expect(shown.filter((text) => text === 'Loading…')).toHaveLength(1); // the first load's only
    expect(shown).toEqual(['Loading…', 'todo 1', 'renamed']);
    expect(fake.requests).toEqual(['GET /todos/1', 'GET /todos/1']);
  });

  it('an invalidated entity whose refetch fails: the last data, then the error at the ErrorBoundary', async () => {
    await detailShown();
    fake.fail('GET', 500, 1, 40);
    controller.invalidate(TodoResource.get, { id: 1 });
    await wait(20);
    expect(look()).toBe('todo 1');
    await until('failed');
    expect(shown).toEqual(['Loading…', 'todo 1', expect.stringMatching(/^failed: .*500/), 'failed']);
  });

  it('a deleted entity: the last data stays until its refetch answers (a 404: the ErrorBoundary)', async () => {
    await detailShown();
    const deleted = controller.fetch(TodoResource.delete, { id: 1 });
    await wait(20);
    expect(look()).toBe('todo 1');
    await deleted;
    await until('failed');
    expect(shown.filter((text) => text === 'Loading…')).toHaveLength(1);
    expect(shown.filter((text) => text.startsWith('failed: '))).toEqual([expect.stringMatching(/404/)]);
  });

  it('an invalidated list (its Collection): the last list stays until the refetch answers, then the new list', async () => {
    render(() => (
      <Shell>
        <List />
      </Shell>
    ));
    await until('todo 1;todo 3;');
    fake.setLatency(40);
    fake.todos.set(5, { id: 5, userId: 1, title: 'todo 5', completed: false, createdAt: '2024-01-05T00:00:00Z' });
    controller.invalidate(TodoResource.getList, { userId: 1 });
    await wait(20);
    expect(look()).toBe('todo 1;todo 3;');
    await until('todo 5;');
    expect(shown).toEqual(['Loading…', 'todo 1;todo 3;', 'todo 1;todo 3;todo 5;']);
  });

  it('a switch of args to a request with no data still suspends; its invalidation then keeps its own data', async () => {
    const [id, setId] = createSignal(1);
    render(() => (
      <Shell>
        <Detail id={id()} />
      </Shell>
    ));
    await until('todo 1');
    setId(2);
    await until('todo 2');
    expect(shown).toEqual(['Loading…', 'todo 1', 'Loading…', 'todo 2']);
    fake.setLatency(40);
    controller.invalidate(TodoResource.get, { id: 2 });
    await wait(20);
    expect(look()).toBe('todo 2'); // its own last data, not the first request's
    setId(1); // back to data the controller holds: no suspense
    expect(look()).toBe('todo 1');
    expect(shown.filter((text) => text === 'Loading…')).toHaveLength(2);
  });
});
