/**
 * An entity's `static validator` wherever the entity appears: nested in another entity, in a Collection
 * (and the records `push` and `unshift` add to it), as a member of a `schema.Union`, in `schema.Values`. A
 * failure is a `ValidationError` naming that entity and its pk, and nothing of the response is written (the
 * entity that holds it neither).
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Controller, Entity, RestEndpoint, ValidationError, createResource, schema } from '../../core/index.js';
import { API, kept, useTodoServer } from '../reliability/faultHarness.js';

const fake = useTodoServer();

class User extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'VUser';
  static override validator = z.object({ id: z.number(), name: z.string() });
}

class Group extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'VGroup';
  static override validator = z.object({ id: z.number(), title: z.string() });
}

class Article extends Entity {
  id = 0;
  body = '';
  author = User.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'VArticle';
  static override schema = { author: User };
}

/** Answers `path` with `bodies` in turn (the last one from then on). */
function answers(method: 'get' | 'post', path: string, ...bodies: unknown[]) {
  let index = 0;
  fake.server.use(
    http[method](`${API}${path}`, () => HttpResponse.json(bodies[Math.min(index++, bodies.length - 1)] as never)),
  );
}

/** The rejection of `promise`. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('it resolved'),
    (e: unknown) => e,
  );

describe('a static validator wherever its entity appears', () => {
  it('nested in another entity: the nested record fails, and neither it nor the entity holding it is written', async () => {
    const getArticle = new RestEndpoint({ urlPrefix: API, path: '/articles/:id', schema: Article });
    answers(
      'get',
      '/articles/:id',
      { id: 1, body: 'b', author: { id: 7, name: 'Ann' } },
      {
        id: 1,
        body: 'changed',
        author: { id: 7, name: 42 },
      },
    );
    const controller = new Controller({ retry: 0 });
    await controller.fetch(getArticle, { id: 1 });
    const before = kept(controller.getState());
    const error = await failure(controller.fetch(getArticle, { id: 1 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ entity: 'VUser', pk: '7', request: { endpoint: getArticle.name } });
    expect((error as Error).message).toMatch(/^VUser "7" failed its validator in the response to GET .* at name: /);
    expect(kept(controller.getState())).toEqual(before);
    expect(controller.getState().entities.VArticle!['1']).toMatchObject({ body: 'b' });
  });

  it('in a Collection, and in what push and unshift add to it: the list stays as it was', async () => {
    const Users = createResource({ urlPrefix: API, path: '/users/:id', schema: User });
    answers('get', '/users', [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    const controller = new Controller({ retry: 0 });
    await controller.fetch(Users.getList);
    const before = kept(controller.getState());
    answers('post', '/users', { id: 3, name: null });
    for (const add of [Users.getList.push, Users.getList.unshift]) {
      const error = await failure(controller.fetch(add, {}, { name: 'c' } as never));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ entity: 'VUser', pk: '3', request: { method: 'POST' } });
      expect(kept(controller.getState())).toEqual(before);
      expect(controller.getResponse(Users.getList).data?.map((user) => user.name)).toEqual(['a', 'b']);
    }
    // a list whose second record fails: no record, and no list, is written
    answers('get', '/users', [
      { id: 1, name: 'A' },
      { id: 2, name: false },
    ]);
    const error = await failure(controller.fetch(Users.getList));
    expect(error).toMatchObject({ name: 'ValidationError', entity: 'VUser', pk: '2' });
    expect(kept(controller.getState())).toEqual(before);
  });

  it('an optimistic push: the guess is shown unvalidated (it is no response); a response that fails rolls it back', async () => {
    const Users = createResource({ urlPrefix: API, path: '/users/:id', schema: User, optimistic: true });
    answers('get', '/users', [{ id: 1, name: 'a' }]);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    fake.server.use(
      http.post(`${API}/users`, async () => {
        await answered;
        return HttpResponse.json({ id: 2, name: 7 });
      }),
    );
    const controller = new Controller({ retry: 0 });
    await controller.fetch(Users.getList);
    const names = () => controller.getResponse(Users.getList).data?.map((user) => user.name);
    // the guess holds what was sent, which the validator would refuse (no name): shown all the same
    const push = failure(controller.fetch(Users.getList.push, {}, { id: 2 } as never));
    expect(names()).toEqual(['a', '']);
    answer();
    const error = await push;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ entity: 'VUser', pk: '2', request: { method: 'POST' } });
    expect(names()).toEqual(['a']);
    expect(controller.getState().optimistic).toEqual([]);
    expect(controller.getState().entities.VUser!['2']).toBeUndefined();
  });

  it('a member of a schema.Union: the member whose validator refuses it is named', async () => {
    const feed = new RestEndpoint({
      urlPrefix: API,
      path: '/feed',
      schema: [new schema.Union({ user: User, group: Group }, 'type')],
    });
    answers('get', '/feed', [
      { type: 'user', id: 1, name: 'a' },
      { type: 'group', id: 1, title: 7 },
    ]);
    const controller = new Controller({ retry: 0 });
    const error = await failure(controller.fetch(feed));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ entity: 'VGroup', pk: '1' });
    expect(controller.getState().entities).toEqual({});
  });

  it('in schema.Values: the value of the key that fails is named', async () => {
    const byId = new RestEndpoint({ urlPrefix: API, path: '/users-by-id', schema: new schema.Values(User) });
    answers('get', '/users-by-id', { a: { id: 1, name: 'a' }, b: { id: 2 } });
    const controller = new Controller({ retry: 0 });
    const error = await failure(controller.fetch(byId));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ entity: 'VUser', pk: '2' });
    expect((error as Error).message).toMatch(/ at name: /);
    expect(controller.getState().entities).toEqual({});
  });
});
