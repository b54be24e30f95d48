// The page of partHydration.dom.test.tsx: rendered by renderPart.ts with renderToString (Solid's server build, a
// child process) from a controller that holds one of its two queries, and hydrated in jsdom (Solid's browser
// build) from that controller's state. Written without JSX so that both builds run the same components.
import { createComponent, ErrorBoundary, Suspense, type JSX } from 'solid-js';
import { escape, isServer, ssr } from 'solid-js/web';
import type { Controller } from '../../../core/index.js';
import { ControllerProvider, createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';

/** What the API answers: todo 1 (the controller holds it on the server) and user 2's list (it does not). */
export const todo1 = { id: 1, userId: 1, title: 'held 1', completed: false };
export const list2 = [
  { id: 2, userId: 2, title: 'fetched 2', completed: false },
  { id: 4, userId: 2, title: 'fetched 4', completed: true },
];

/** `<p>{text()}</p>`: a template on the server, a text node that follows `text` in the browser. */
function paragraph(text: () => string): JSX.Element {
  if (isServer) return ssr(['<p>', '</p>'], escape(text as unknown as string)) as unknown as JSX.Element;
  return text as unknown as JSX.Element;
}

/** One `<Suspense>` with a query the controller holds and one it does not. */
export function PartPage(controller: Controller): () => JSX.Element {
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(Suspense, {
          fallback: 'Loading…',
          get children() {
            return createComponent(ErrorBoundary, {
              fallback: (error: Error) => `failed: ${error.message}`,
              get children() {
                return createComponent(() => {
                  const todo = createQuery(TodoResource.get, () => ({ id: 1 }));
                  const list = createQuery(TodoResource.getList, () => ({ userId: 2 }));
                  return paragraph(
                    () =>
                      `todo: ${todo()?.title}; list: ${list()
                        ?.map((t) => t.title)
                        .join(', ')}`,
                  );
                }, {});
              },
            });
          },
        });
      },
    });
}

/** One `<Suspense>` with a createQuery and a createQueryState whose data the server's controller holds. */
export function HeldPage(controller: Controller): () => JSX.Element {
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(Suspense, {
          fallback: 'Loading…',
          get children() {
            return createComponent(() => {
              const todo = createQuery(TodoResource.get, () => ({ id: 1 }));
              const list = createQueryState(TodoResource.getList, () => ({ userId: 2 }));
              return paragraph(
                () =>
                  `todo: ${todo()?.title}; list: ${list()
                    .data?.map((t) => t.title)
                    .join(', ')}`,
              );
            }, {});
          },
        });
      },
    });
}
