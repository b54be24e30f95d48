// A page whose query's args change while the browser hydrates it (streamArgs.dom.test.tsx): rendered by
// renderStreamPage.ts with renderToStringAsync (Solid's server build, a child process) and hydrated in jsdom.
// Written without JSX so that both builds run the same components (review13's layout.ts).
import { createSignal, type JSX } from 'solid-js';
import type { Controller } from '../../../core/index.js';
import { createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { NoteResource } from '../../review13/ssr/asyncPages.js';
import { layout, paragraph } from '../../review13/ssr/layout.js';

/** The note the page reads (1 on the server). */
export const [noteId, setNoteId] = createSignal(1);

/** The pages, by name: a createQuery and a createQueryState of `noteId`. */
export const streamPages: Record<string, (controller: Controller) => () => JSX.Element> = {
  query: (controller) =>
    layout(controller, () => {
      const note = createQuery(NoteResource.get, () => ({ id: noteId() }));
      return paragraph(() => `query ${noteId()}: ${note()?.title}`);
    }),
  state: (controller) =>
    layout(controller, () => {
      const note = createQueryState(NoteResource.get, () => ({ id: noteId() }));
      return paragraph(() => `state ${noteId()}: ${note().data?.title ?? 'loading'}`);
    }),
};
