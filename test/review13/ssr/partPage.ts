// The page of partHydration.dom.test.tsx: rendered by renderPart.ts with renderToString (Solid's server build, a
// child process) from a controller that holds one of its two queries, and hydrated in jsdom (Solid's browser
// build) from that controller's state. Written without JSX so that both builds run the same components.
import type { JSX } from 'solid-js';
import type { Controller } from '../../../core/index.js';
import { createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { layout, paragraph } from './layout.js';

/** What the API answers: todo 1 (the controller holds it on the server) and user 2's list (it does not). */
export const todo1 = { id: 1, userId: 1, title: 'held 1', completed: false };
export const list2 = [
  { id: 2, userId: 2, title: 'fetched 2', completed: false },
  { id: 4, userId: 2, title: 'fetched 4', completed: true },
];

/** One `<Suspense>` with a query the controller holds and one it does not. */
export function PartPage(controller: Controller): () => JSX.Element {
  return layout(
    controller,
    () => {
      const todo = createQuery(TodoResource.get, () => ({ id: 1 }));
      const list = createQuery(TodoResource.getList, () => ({ userId: 2 }));
      return paragraph(
        () =>
          `todo: ${todo()?.title}; list: ${list()
            ?.map((t) => t.title)
            .join(', ')}`,
      );
    },
    (error) => `failed: ${error.message}`,
  );
}

/** One `<Suspense>` with a createQuery and a createQueryState whose data the server's controller holds. */
export function HeldPage(controller: Controller): () => JSX.Element {
  return layout(controller, () => {
    const todo = createQuery(TodoResource.get, () => ({ id: 1 }));
    const list = createQueryState(TodoResource.getList, () => ({ userId: 2 }));
    return paragraph(
      () =>
        `todo: ${todo()?.title}; list: ${list()
          .data?.map((t) => t.title)
          .join(', ')}`,
    );
  });
}
