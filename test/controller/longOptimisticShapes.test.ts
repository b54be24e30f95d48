/**
 * Optimistic mutations on lists of several shapes around the lengths where the read path changes (`LONG_READ`, and
 * 32): a Collection of a `schema.Union` (push, a row switching type), a `schema.Values` Collection (assign, remove),
 * Collections by arguments (push, unshift, remove, move), a delete through `schema.Invalidate` and an update of an
 * entity's long tag list, against a server behind msw whose answers the test releases. While layers are on, every
 * stream shows what a fresh read of the tables they make shows; once every mutation failed, the state is exactly what
 * it was and every stream shows the same instances; once they succeed, what a fresh controller reads.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Entity, RestEndpoint, schema } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { applyLayers } from '../../core/controller/optimistic.js';
import { entitiesIn, seededStreams } from '../fixtures/seededStreams.js';
import { members } from '../fixtures/noteFeed.js';

class Task extends Entity {
  id = '';
  owner = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'OTask';
}
class Tag extends Entity {
  id = '';
  label = '';
  pk() {
    return this.id;
  }
  static override key = 'OTag';
}
class Article extends Entity {
  id = '';
  tags: Tag[] = [];
  pk() {
    return this.id;
  }
  static override key = 'OArticle';
  static override schema = { tags: [Tag] };
}

const API = 'http://optimistic-shapes.test';
const union = new schema.Union(members, 'type');
const feed = new RestEndpoint({
  urlPrefix: API,
  path: '/feed',
  schema: new schema.Collection([union]),
  optimistic: true,
});
const switchType = new RestEndpoint({
  urlPrefix: API,
  path: '/feed/:id',
  method: 'PATCH',
  schema: union,
  optimistic: true,
});
const byId = new RestEndpoint({
  urlPrefix: API,
  path: '/by-id',
  schema: new schema.Collection(new schema.Values(Task)),
  optimistic: true,
});
const assignById = new RestEndpoint({
  urlPrefix: API,
  path: '/by-id',
  method: 'POST',
  schema: byId.schema.assign,
  optimistic: true,
});
const removeById = new RestEndpoint({
  urlPrefix: API,
  path: '/by-id',
  method: 'PATCH',
  schema: byId.schema.remove,
  optimistic: true,
});
const tasks = new RestEndpoint({
  urlPrefix: API,
  path: '/tasks',
  searchParams: {} as { owner?: string },
  schema: new schema.Collection([Task]),
  optimistic: true,
});
const taskMove = new RestEndpoint({
  urlPrefix: API,
  path: '/tasks/:id',
  method: 'PATCH',
  schema: tasks.schema.move,
  optimistic: true,
});
const deleteTask = new RestEndpoint({
  urlPrefix: API,
  path: '/tasks/:id',
  method: 'DELETE',
  schema: new schema.Invalidate(Task),
  optimistic: true,
});
const article = new RestEndpoint({ urlPrefix: API, path: '/articles/:id', schema: Article });
const updateArticle = new RestEndpoint({
  urlPrefix: API,
  path: '/articles/:id',
  method: 'PATCH',
  schema: Article,
  optimistic: true,
});

/** The requests waiting for the test to answer them: `answer(i, ok)` answers the i-th (its body echoed when ok). */
const waiting: { body: unknown; params: Record<string, unknown>; answer: (ok: boolean) => void }[] = [];
const server = setupServer(
  http.all(`${API}/*`, async ({ request, params }) => {
    const text = await request.text();
    const body = text === '' ? {} : (JSON.parse(text) as unknown);
    return new Promise<Response>((resolve) => {
      waiting.push({
        body,
        params,
        answer: (ok) =>
          resolve(
            ok
              ? HttpResponse.json((request.method === 'DELETE' ? {} : body) as never)
              : HttpResponse.json({ message: 'failed' }, { status: 500 }),
          ),
      });
    });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  for (const request of waiting.splice(0)) request.answer(false);
});
afterAll(() => server.close());

const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};
const item = (id: string, type: string) =>
  type === 'link' ? { id, type, url: `u${id}` } : { id, type, text: `t${id}` };

describe('optimistic mutations on lists of several shapes', () => {
  for (const length of [5, 32, 33, LONG_READ - 1, LONG_READ, LONG_READ + 1])
    for (const seed of [1, 2])
      it(`show, roll back exactly and succeed (${length} items, seed ${seed})`, { timeout: 60_000 }, async () => {
        const h = seededStreams(seed * 101 + length);
        const { rnd, controller } = h;
        const ids = Array.from({ length }, (_, i) => `${i + 1}`);
        const typeOf = new Map(ids.map((id) => [id, rnd.next() < 0.5 ? 'link' : 'note']));
        const ownerOf = new Map(ids.map((id) => [id, rnd.pick(['a', 'b'])]));
        const task = (id: string, title = `task ${id}`) => ({ id, owner: ownerOf.get(id) ?? 'a', title });
        controller.setResponse(
          feed,
          {},
          ids.map((id) => item(id, typeOf.get(id)!)),
        );
        controller.setResponse(byId, {}, Object.fromEntries(ids.map((id) => [id, task(id)])));
        for (const owner of ['a', 'b'])
          controller.setResponse(
            tasks,
            { owner },
            ids.filter((id) => ownerOf.get(id) === owner).map((id) => task(id)),
          );
        controller.setResponse(
          tasks,
          {},
          ids.map((id) => task(id)),
        );
        controller.setResponse(article, { id: 'x' }, { id: 'x', tags: ids.map((id) => ({ id, label: `l${id}` })) });
        h.watch('feed', feed);
        h.watch('byId', byId);
        h.watch('tasks of a', tasks, { owner: 'a' });
        h.watch('tasks of b', tasks, { owner: 'b' });
        h.watch('all tasks', tasks, {});
        h.watch('article', article, { id: 'x' });
        let next = 1000;
        const mutations: (() => Promise<unknown>)[] = [
          () => controller.fetch(feed.push, {}, item(`${next++}`, 'link')),
          () => controller.fetch(feed.unshift, {}, item(`${next++}`, 'note')),
          () => {
            const id = rnd.pick(ids);
            return controller.fetch(switchType, { id }, item(id, typeOf.get(id) === 'link' ? 'note' : 'link'));
          },
          () => {
            const id = `${next++}`;
            return controller.fetch(assignById, { [id]: task(id) });
          },
          () => {
            const id = rnd.pick(ids);
            return controller.fetch(removeById, { [id]: task(id) });
          },
          () => {
            const id = `${next++}`;
            return controller.fetch(rnd.next() < 0.5 ? tasks.push : tasks.unshift, { owner: 'a' }, task(id));
          },
          () => {
            const id = rnd.pick(ids);
            return controller.fetch(tasks.remove, { owner: ownerOf.get(id)! }, task(id));
          },
          () => {
            const id = rnd.pick(ids);
            return controller.fetch(taskMove, { id }, { owner: ownerOf.get(id) === 'a' ? 'b' : 'a' });
          },
          () => controller.fetch(deleteTask, { id: rnd.pick(ids) }),
          () => {
            const tags = ids.filter(() => rnd.next() < 0.8).map((id) => ({ id, label: `m${next}` }));
            return controller.fetch(updateArticle, { id: 'x' }, { id: 'x', tags: tags.reverse() });
          },
        ];
        for (let round = 0; round < 6; round++) {
          const ok = round % 2 === 1;
          const state = controller.getState();
          const shown = h.watched.map((w) => w.states.at(-1)!.data);
          const pending: Promise<unknown>[] = [];
          const count = 1 + rnd.int(3);
          for (let k = 0; k < count; k++) {
            const m = rnd.int(mutations.length);
            h.run(`round ${round}: mutation ${m} shown`, () => {
              pending.push(mutations[m]!().catch(() => undefined));
            });
          }
          await flush();
          expect(waiting.length, `round ${round}: every mutation sent`).toBe(count);
          while (waiting.length > 0) {
            const at = rnd.int(waiting.length);
            const request = waiting.splice(at, 1)[0]!;
            const before = new Map(h.watched.map((w) => [w, { count: w.states.length, data: w.states.at(-1)?.data }]));
            // what the layers showed: a response that writes the same values may make those entities anew
            const layered = applyLayers(controller.getState(), undefined).touched.map(([key, pk]) => `${key}:${pk}`);
            request.answer(ok);
            await flush();
            h.check(`round ${round}: answered ${ok ? 'ok' : 'failed'}`, before, ok, new Set(ok ? layered : []));
          }
          await Promise.all(pending);
          if (!ok) {
            expect(controller.getState().entities, `round ${round}: rolled back exactly`).toEqual(state.entities);
            h.watched.forEach((w, i) => {
              const now = entitiesIn(w.states.at(-1)!.data);
              for (const [key, then] of entitiesIn(shown[i]))
                expect(now.get(key)?.[0]?.value, `round ${round}: ${w.name} shows ${key} as before`).toBe(
                  then[0]!.value,
                );
            });
          }
        }
        h.dispose();
      });
});
