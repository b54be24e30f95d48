// The page of heldHydration.dom.test.tsx: rendered by renderHeld.ts with renderToString (Solid's server build, a
// child process) from a controller that holds its data, and hydrated in jsdom (Solid's browser build) from that
// controller's state. Written without JSX so that both builds run the same components.
import { createComponent, ErrorBoundary, Suspense, type JSX } from 'solid-js';
import type { Controller } from '../../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../../adapters/solid/index.js';
import { TodoResource } from '../../../fixtures/todoResource.js';

/** A todo list the page shows, as the server answers it. */
export const heldTodos = [
  { id: 1, userId: 1, title: 'held 1', completed: false },
  { id: 3, userId: 1, title: 'held 3', completed: true },
];

/** `<ControllerProvider><ErrorBoundary><Suspense>` a createQuery list and a createQueryState of the same request. */
export function HeldPage(controller: Controller): () => JSX.Element {
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(ErrorBoundary, {
          fallback: (error: Error) => `failed: ${error.message}`,
          get children() {
            return createComponent(Suspense, {
              fallback: 'Loading…',
              get children() {
                const todos = createQuery(TodoResource.getList, () => ({ userId: 1 }));
                const state = createQueryState(TodoResource.getList, () => ({ userId: 1 }));
                // a function: Solid renders a function child reactively, so the text follows the data
                const text = () =>
                  `todos: ${todos()
                    ?.map((todo) => todo.title)
                    .join(', ')}; loading: ${state().loading}`;
                return text as unknown as JSX.Element;
              },
            });
          },
        });
      },
    });
}
