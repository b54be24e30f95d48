// The page of the hydration test of a ValidationError (ssrHydration.dom.test.tsx): rendered on a server by
// renderRefused.ts (a child process: Solid's server build) and hydrated in jsdom (Solid's browser build), the
// same components on both sides, written without JSX so that both builds run them. Each query reads a todo list
// whose server answer its validator refuses.
import { createComponent, ErrorBoundary, Suspense, type JSX } from 'solid-js';
import { z } from 'zod';
import { Controller, Entity, createResource } from '../../../core/index.js';
import { ControllerProvider, createQuery } from '../../../adapters/solid/index.js';

/** A todo whose title must be a string. */
export class RefusedTodo extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'RefusedTodo';
  static override validator = z.looseObject({ id: z.number(), title: z.string() });
}

export const RefusedResource = createResource({
  urlPrefix: 'http://refused.test',
  path: '/todos/:id',
  schema: RefusedTodo,
});

/** A controller whose every request is answered with a todo whose title is a number (the server's). */
export const refusingController = () =>
  new Controller({ retry: 0, fetch: () => Promise.resolve(Response.json([{ id: 1, title: 1 }])) });

/** `<ControllerProvider><ErrorBoundary><Suspense>` a `createQuery` list; `seen` gets the error its fallback shows. */
export function RefusedPage(controller: Controller, seen: { error?: unknown }): () => JSX.Element {
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(ErrorBoundary, {
          fallback: (error: Error) => ((seen.error = error), `failed: ${error.name}`),
          get children() {
            return createComponent(Suspense, {
              fallback: 'Loading…',
              get children() {
                const todos = createQuery(RefusedResource.getList, () => ({}));
                return `todos: ${todos()?.length}`;
              },
            });
          },
        });
      },
    });
}
