// Pages of asyncHydration.dom.test.tsx: rendered by renderAsync.ts with renderToStringAsync (Solid's server build,
// a child process) and hydrated in jsdom (Solid's browser build). Written without JSX so that both builds run the
// same components (layout.ts).
import type { JSX } from 'solid-js';
import { Controller, createResource, Entity } from '../../../core/index.js';
import { createQuery, createQueryState } from '../../../adapters/solid/index.js';
import { layout, paragraph } from './layout.js';

/** A todo of this harness's API (its own entity: the page's tables are what this file says). */
export class Note extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Note';
}

const API = 'http://notes.test';
export const NoteResource = createResource({ urlPrefix: API, path: '/notes/:id', schema: Note });
/** `NoteResource.get` whose data is stale as soon as it is written. */
export const ExpiringNote = NoteResource.get.extend({ dataExpiryLength: 0 });

/** What the API answers for a URL, and what the server's fetch answers (a status, or a body). */
export const answers: Record<string, { status: number; body: unknown }> = {
  [`${API}/notes/1`]: { status: 200, body: { id: 1, title: 'one' } },
  [`${API}/notes`]: {
    status: 200,
    body: [
      { id: 1, title: 'one' },
      { id: 2, title: 'two' },
    ],
  },
};

/** A fetch that answers from `answers` (404 for anything else), logging every URL in `urls`. */
export function answering(urls: string[] = [], failing: Record<string, number> = {}) {
  return (input: string | URL | Request): Promise<Response> => {
    const url = String(input);
    urls.push(url);
    const status = failing[url];
    if (status) return Promise.resolve(Response.json({ message: `failed with ${status}` }, { status }));
    const answer = answers[url];
    return Promise.resolve(
      answer ? Response.json(answer.body, { status: answer.status }) : Response.json({}, { status: 404 }),
    );
  };
}

/** The guide's layout around `body`, its error boundary showing the error's name and status. */
const shell = (controller: Controller, body: () => JSX.Element) =>
  layout(controller, body, (error) => `failed: ${error.name} ${error.status}`);

/** The pages, by name. */
export const pages: Record<string, (controller: Controller) => () => JSX.Element> = {
  /** A createQuery and a createQueryState of two requests. */
  two: (controller) =>
    shell(controller, () => {
      const one = createQuery(NoteResource.get, () => ({ id: 1 }));
      const list = createQueryState(NoteResource.getList, undefined);
      return paragraph(
        () =>
          `one: ${one()?.title}; list: ${list()
            .data?.map((note) => note.title)
            .join(', ')}`,
      );
    }),
  /** Data stale as soon as it is written (a lifetime of 0): what the server rendered all the same. */
  expiring: (controller) =>
    shell(controller, () => {
      const note = createQuery(ExpiringNote, () => ({ id: 1 }));
      return paragraph(() => `expiring: ${note()?.title}`);
    }),
  /** A request that fails with a 404. */
  missing: (controller) =>
    shell(controller, () => {
      const note = createQuery(NoteResource.get, () => ({ id: 9 }));
      return paragraph(() => `missing: ${note()?.title}`);
    }),
};
