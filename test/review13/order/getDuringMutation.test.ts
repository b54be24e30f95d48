/**
 * A GET sent while a mutation is in flight: its records are written as older than that mutation (the server may
 * have read them before it applied it) only when the mutation can write them: its schema holds an entity table
 * the GET's schema holds (nested entities included), or it has no schema (it may change anything). A GET of
 * other tables is as new as its request, so a `set` made before it was sent does not win over its answer.
 */
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint } from '../../../core/index.js';
import { API, Todo, TodoResource, flush, todo, useLiveServer } from '../../review12/live/harness.js';

const live = useLiveServer();

class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'User';
}

class Article extends Entity {
  id = 0;
  title = '';
  author = User.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'Article';
  static override schema = { author: User };
}

const getUser = new RestEndpoint({ urlPrefix: API, path: '/users/:id', schema: User });
const getUsers = new RestEndpoint({ urlPrefix: API, path: '/users', schema: { results: [User], total: 0 } });
const editArticle = new RestEndpoint({ urlPrefix: API, path: '/articles/:id', method: 'PATCH', schema: Article });
const ping = new RestEndpoint({ urlPrefix: API, path: '/ping', method: 'POST' });

/** Requests to /users, /articles and /ping wait here until the test answers them. */
const waiting: { path: string; answer: (body: unknown) => void }[] = [];
const user = { id: 1, name: 'first' };

beforeEach(() => {
  waiting.length = 0;
  user.name = 'first';
  const held = (request: Request) =>
    new Promise<Response>((resolve) => {
      waiting.push({
        path: new URL(request.url).pathname,
        answer: (body) => resolve(HttpResponse.json(body as never)),
      });
    });
  live.server.use(
    http.get(`${API}/users/:id`, ({ request }) => (live.hold.on ? held(request) : HttpResponse.json({ ...user }))),
    http.get(`${API}/users`, ({ request }) =>
      live.hold.on ? held(request) : HttpResponse.json({ results: [{ ...user }], total: 1 }),
    ),
    http.patch(`${API}/articles/:id`, ({ request }) => held(request)),
    http.post(`${API}/ping`, ({ request }) => held(request)),
  );
});

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await flush(1);
  expect(ready()).toBe(true);
}

const nameOf = (c: Controller) => (c.getState().entities['User']?.['1'] as { name?: string } | undefined)?.name;

/** A controller holding User 1 ('first') and Todo 1 ('a'). */
async function loaded(): Promise<Controller> {
  live.todos.set(1, todo(1, 'a'));
  const c = new Controller();
  await c.fetch(getUser, { id: 1 });
  await c.fetch(TodoResource.get, { id: 1 });
  return c;
}

describe('a GET sent while a mutation of other tables is in flight', () => {
  for (const [name, get] of [
    ['GET /users/1', (c: Controller) => c.fetch(getUser, { id: 1 })],
    ['GET /users (a list inside an object)', (c: Controller) => c.fetch(getUsers)],
  ] as const) {
    it(`${name} is as new as its request: a set made before it was sent does not win over its answer`, async () => {
      const c = await loaded();
      live.hold.on = true;
      const mutation = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' });
      await until(() => live.held.length === 1);
      c.set(User, { id: 1 }, { id: 1, name: 'local' });
      live.hold.on = false;
      user.name = 'server';
      await get(c);
      expect(nameOf(c)).toBe('server');
      expect(c.get(User, { id: 1 })?.name).toBe('server');
      live.held[0]!.json(todo(1, 'b'));
      await mutation;
      expect(nameOf(c)).toBe('server');
      expect((c.getState().entities['Todo']?.['1'] as Todo).title).toBe('b');
      c.dispose();
    });
  }
});

describe('a GET sent while a mutation that can write its records is in flight stays older than it', () => {
  for (const order of ['the GET answers first', 'the mutation answers first'] as const) {
    it(`the same table (${order}): the mutation's answer wins`, async () => {
      const c = await loaded();
      live.hold.on = true;
      const mutation = c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'b' });
      await until(() => live.held.length === 1);
      const get = c.fetch(TodoResource.get, { id: 1 });
      await until(() => live.held.length === 2);
      if (order === 'the GET answers first') {
        live.held[1]!.json(todo(1, 'a')); // the server read it before it applied the update
        await get;
        live.held[0]!.json(todo(1, 'b'));
        await mutation;
      } else {
        live.held[0]!.json(todo(1, 'b'));
        await mutation;
        live.held[1]!.json(todo(1, 'a'));
        await get;
      }
      expect((c.getState().entities['Todo']?.['1'] as Todo).title).toBe('b');
      c.dispose();
    });
  }

  it("a table nested in the mutation's schema (an article's author): the mutation's answer wins", async () => {
    const c = await loaded();
    const mutation = c.fetch(editArticle, { id: 7 }, { title: 'edited' });
    await until(() => waiting.length === 1);
    live.hold.on = true;
    const get = c.fetch(getUser, { id: 1 });
    await until(() => waiting.length === 2);
    waiting[1]!.answer({ id: 1, name: 'read before the edit' });
    await get;
    waiting[0]!.answer({ id: 7, title: 'edited', author: { id: 1, name: 'renamed by the edit' } });
    await mutation;
    expect(nameOf(c)).toBe('renamed by the edit');
    c.dispose();
  });

  it('a mutation without a schema (it may change anything): a set made before the GET was sent still wins', async () => {
    const c = await loaded();
    const mutation = c.fetch(ping, {});
    await until(() => waiting.length === 1);
    c.set(User, { id: 1 }, { id: 1, name: 'local' });
    user.name = 'server';
    await c.fetch(getUser, { id: 1 });
    expect(nameOf(c)).toBe('local');
    waiting[0]!.answer({ ok: true });
    await mutation;
    expect(nameOf(c)).toBe('local');
    c.dispose();
  });
});
