/**
 * Pages fetched into one list (`getPage`: each page appended to the list of the same arguments) until it passes 32
 * and `LONG_READ`, for a Collection of rows, of a `schema.Union` and of rows that nest an entity, cursor pages
 * (`{ results, next }`) among them, with seeded writes between the pages: after every page and every write each
 * stream shows what a fresh controller reads, emits exactly when its data changed and keeps what did not.
 */
import { describe, it } from 'vitest';
import { Entity, RestEndpoint, schema } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { seededStreams } from '../fixtures/seededStreams.js';
import { Link, Note } from '../fixtures/noteFeed.js';

class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'PgUser';
}
class Item extends Entity {
  id = '';
  title = '';
  owner = User.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'PgItem';
  static override schema = { owner: User };
}

const API = 'http://pages.test';
const items = new RestEndpoint({
  urlPrefix: API,
  path: '/items',
  searchParams: {} as { owner?: string; page?: number },
  paginationField: 'page',
  schema: new schema.Collection([Item]),
});
const feed = new RestEndpoint({
  urlPrefix: API,
  path: '/feed',
  searchParams: {} as { page?: number },
  paginationField: 'page',
  schema: new schema.Collection([new schema.Union({ link: Link, note: Note }, 'type')]),
});
const cursor = new RestEndpoint({
  urlPrefix: API,
  path: '/cursor',
  searchParams: {} as { cursor?: string },
  paginationField: 'cursor',
  schema: { results: new schema.Collection([Item]), next: '' },
});

const user = (id: string, step = 0) => ({ id, name: `${id}.${step}` });
const itemJson = (id: string, step = 0) => ({ id, title: `i${id}.${step}`, owner: user(`u${Number(id) % 3}`, step) });
const entry = (id: string, step = 0) =>
  Number(id) % 2 ? { id, type: 'link', url: `u${id}.${step}` } : { id, type: 'note', text: `t${id}.${step}` };

describe('pages forming one list', () => {
  for (const size of [13, 21, 32, 33])
    for (const seed of [1, 2])
      it(`pages of ${size} to past LONG_READ, with writes between them (seed ${seed})`, { timeout: 60_000 }, () => {
        const h = seededStreams(seed * 17 + size);
        const { rnd, controller } = h;
        // (a page endpoint's type is not known from a RestEndpoint's searchParams alone)
        const setPage = controller.setResponse.bind(controller) as (endpoint: unknown, ...args: unknown[]) => void;
        const page = (n: number) => Array.from({ length: size }, (_, i) => `${(n - 1) * size + i + 1}`);
        controller.setResponse(
          items,
          {},
          page(1).map((id) => itemJson(id)),
        );
        controller.setResponse(items, { owner: 'u1' }, []);
        controller.setResponse(
          feed,
          {},
          page(1).map((id) => entry(id)),
        );
        controller.setResponse(cursor, {}, { results: page(1).map((id) => itemJson(id)), next: 'c2' });
        h.watch('items', items, {});
        h.watch('feed', feed, {});
        h.watch('cursor', cursor, {});
        let pages = 1;
        for (let step = 0; pages * size < LONG_READ + size + 2; step++) {
          const op = rnd.int(7);
          const id = `${rnd.int(pages * size) + 1}`;
          h.run(
            `step ${step} op ${op} (${pages} pages)`,
            () => {
              switch (op) {
                case 0: {
                  pages++;
                  // the next page, and sometimes a row of an earlier page again (appended once)
                  const ids = page(pages);
                  if (rnd.next() < 0.3) ids.push(id);
                  setPage(
                    items.getPage,
                    { page: pages },
                    ids.map((pk) => itemJson(pk, step)),
                  );
                  setPage(
                    feed.getPage,
                    { page: pages },
                    ids.map((pk) => entry(pk, step)),
                  );
                  setPage(
                    cursor.getPage,
                    { cursor: `c${pages}` },
                    { results: ids.map((pk) => itemJson(pk, step)), next: `c${pages + 1}` },
                  );
                  break;
                }
                case 1:
                  controller.set(Item, { id }, { id, title: `w${step}` });
                  break;
                case 2:
                  controller.set(User, { id: `u${rnd.int(3)}` }, user(`u${rnd.int(3)}`, step));
                  break;
                case 3:
                  controller.set(new schema.Invalidate(Item), { id }, { id });
                  break;
                case 4:
                  controller.set(Number(id) % 2 ? Link : Note, { id }, entry(id, step));
                  break;
                case 5:
                  controller.setResponse(items.push, {}, itemJson(`${900 + step}`), itemJson(`${900 + step}`, step));
                  break;
                default:
                  // the first page again: the list is the first page only
                  controller.setResponse(
                    items,
                    {},
                    page(1).map((pk) => itemJson(pk, step)),
                  );
              }
            },
            op === 0 || op === 5 || op === 6,
          );
          if (op === 6) pages = Math.max(pages, 1);
        }
        h.dispose();
      });
});
