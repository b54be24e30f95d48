/**
 * rx-rest/solid: args the endpoint makes no URL of (a required path parameter missing or `undefined`, as while a
 * route parameter loads) are an error state, as `controller.observe` gives them (`createQuery`: its error, for the
 * `<ErrorBoundary>`), not an exception thrown from the args' memo while the component is made; nothing is
 * requested, and args that make a URL switch the query back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@solidjs/testing-library';
import { ErrorBoundary, Suspense, createSignal } from 'solid-js';
import { Controller } from '../../../core/index.js';
import { createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { createTodoServer } from '../../fixtures/todoServer.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const fake = createTodoServer();
beforeAll(() => fake.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => fake.server.close());
afterEach(cleanup);

const missing = /^error: Missing path parameter "id"/;
const text = () => screen.getByRole('paragraph').textContent;

describe('args that make no URL', () => {
  it('createQueryState: an error state, then the todo once the id comes, then the error again', async () => {
    const controller = new Controller({ retry: 0 });
    const [id, setId] = createSignal<number | undefined>(undefined);
    render(() => {
      const todo = createQueryState(TodoResource.get, () => ({ id: id() as number }), controller);
      return <p>{todo().error ? `error: ${todo().error!.message}` : (todo().data?.title ?? 'none')}</p>;
    });
    expect(text()).toMatch(missing);
    expect(fake.requests).toEqual([]);
    setId(2);
    await screen.findByText('todo 2');
    setId(undefined);
    await screen.findByText(missing);
    expect(fake.requests).toEqual(['GET /todos/2']);
  });

  it('createQuery: the error reaches the <ErrorBoundary>, nothing is requested', async () => {
    const controller = new Controller({ retry: 0 });
    const before = fake.requests.length;
    render(() => (
      <ErrorBoundary fallback={(error: Error) => <p>error: {error.message}</p>}>
        <Suspense fallback={<p>loading</p>}>
          {(() => {
            const todo = createQuery(TodoResource.get, () => ({ id: undefined as unknown as number }), controller);
            return <p>{todo()?.title}</p>;
          })()}
        </Suspense>
      </ErrorBoundary>
    ));
    await screen.findByText(missing);
    expect(fake.requests.slice(before)).toEqual([]);
  });
});
