/**
 * SPEC 4.6: the four transform patterns, and SPEC 4.5's wrapper of createResource, end to end: the
 * server (msw) speaks its own JSON, the store holds what the app expects.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { Collection, Controller, Entity, RestEndpoint, createResource } from '../../core/index.js';

const API = 'http://api.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const mapKeys = (value: unknown, rename: (key: string) => string): unknown =>
  Array.isArray(value)
    ? value.map((item) => mapKeys(item, rename))
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), mapKeys(item, rename)]))
      : value;
const toSnake = (value: unknown) => mapKeys(value, (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
const toCamel = (value: unknown) =>
  mapKeys(value, (key) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));

/** Every request the server saw: method, path and the raw body text. */
function serve(reply: (request: Request, body: Json | undefined) => unknown) {
  const seen: { method: string; url: string; body: string; contentType: string | null }[] = [];
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const text = await request.text();
      seen.push({
        method: request.method,
        url: request.url.slice(API.length),
        body: text,
        contentType: request.headers.get('content-type'),
      });
      return HttpResponse.json(reply(request, text ? (JSON.parse(text) as Json) : undefined) as Json);
    }),
  );
  return seen;
}

class Profile extends Entity {
  id = 0;
  fullName = '';
  homeAddress = { streetName: '', postCode: '' };
  pastAddresses: { streetName: string }[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'Profile';
}

describe('SPEC 4.6 pattern 1: camelCase in the app, snake_case on the wire', () => {
  class SnakeEndpoint extends RestEndpoint<any, any, any, any, any, any> {
    override getRequestInit(body: unknown) {
      return super.getRequestInit(body === undefined ? body : toSnake(body));
    }
    override process(value: any, ...args: any[]) {
      return toCamel(super.process(value, ...(args as [any])));
    }
  }
  const ProfileResource = createResource({
    urlPrefix: API,
    path: '/profiles/:id',
    schema: Profile,
    Endpoint: SnakeEndpoint,
  });

  it('converts keys recursively both ways, the body only when there is one', async () => {
    const stored = {
      id: 1,
      full_name: 'Ann Lee',
      home_address: { street_name: 'Main St', post_code: '123' },
      past_addresses: [{ street_name: 'Old Rd' }],
    };
    const seen = serve((request, body) => (request.method === 'GET' ? stored : { ...stored, ...(body as object) }));
    const controller = new Controller();
    const profile = await controller.fetch(ProfileResource.get, { id: 1 });
    expect(profile).toBeInstanceOf(Profile);
    expect(profile.fullName).toBe('Ann Lee');
    expect(profile.homeAddress.streetName).toBe('Main St');
    expect(profile.pastAddresses[0]!.streetName).toBe('Old Rd');
    expect(controller.getState().entities.Profile!['1']).toMatchObject({
      fullName: 'Ann Lee',
      homeAddress: { postCode: '123' },
    });

    await controller.fetch(
      ProfileResource.partialUpdate,
      { id: 1 },
      { fullName: 'Ann B. Lee', homeAddress: { streetName: 'New St', postCode: '9' } },
    );
    expect(JSON.parse(seen[1]!.body)).toEqual({
      full_name: 'Ann B. Lee',
      home_address: { street_name: 'New St', post_code: '9' },
    });
    expect(seen[1]!.contentType).toBe('application/json');
    expect(controller.getResponse(ProfileResource.get, { id: 1 }).data!.homeAddress.streetName).toBe('New St');
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/profiles/1', body: '' });
  });
});

describe('SPEC 4.6 pattern 2: a field renamed on the wire', () => {
  class Task extends Entity {
    id = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'Task';
  }
  const rename = { title: 'name' } as const;
  class RenamingEndpoint extends RestEndpoint<any, any, any, any, any, any> {
    override getRequestInit(body: unknown) {
      if (body && typeof body === 'object' && 'title' in body) {
        const { title, ...rest } = body as { title: string };
        return super.getRequestInit({ ...rest, [rename.title]: title });
      }
      return super.getRequestInit(body);
    }
    override process(value: any, ...args: any[]) {
      const processed: unknown = super.process(value, ...(args as [any]));
      if (processed && typeof processed === 'object' && rename.title in processed) {
        const { name, ...rest } = processed as { name: string };
        return { ...rest, title: name };
      }
      return processed;
    }
  }
  const TaskResource = createResource({ urlPrefix: API, path: '/tasks/:id', schema: Task, Endpoint: RenamingEndpoint });

  it('sends `name` for `title`, reads `name` back as `title`, and leaves responses without it alone', async () => {
    const seen = serve((request, body) =>
      request.method === 'DELETE' ? {} : { id: 3, name: 'from server', ...(body as object) },
    );
    const controller = new Controller();
    const task = await controller.fetch(TaskResource.update, { id: 3 }, { id: 3, title: 'renamed' });
    expect(JSON.parse(seen[0]!.body)).toEqual({ id: 3, name: 'renamed' });
    expect(task.title).toBe('renamed');
    expect(Object.keys(controller.getState().entities.Task!['3'] as object)).not.toContain('name');
    await controller.fetch(TaskResource.delete, { id: 3 });
    expect(seen[1]).toMatchObject({ method: 'DELETE', url: '/tasks/3', body: '' });
  });
});

describe('SPEC 4.6 pattern 3: a missing identifier filled from the URL params in process', () => {
  class Settings extends Entity {
    userId = 0;
    theme = 'light';
    pk() {
      return `${this.userId}`;
    }
    static override key = 'Settings';
  }
  const getSettings = new RestEndpoint({
    urlPrefix: API,
    path: '/users/:userId/settings',
    schema: Settings,
    process(value: { theme: string }, params: { userId: string | number }) {
      return { ...value, userId: Number(params.userId) };
    },
  });

  it('normalizes a response that lacks its pk', async () => {
    serve(() => ({ theme: 'dark' }));
    const controller = new Controller();
    const settings = await controller.fetch(getSettings, { userId: 7 });
    expect(settings).toBeInstanceOf(Settings);
    expect(settings).toMatchObject({ userId: 7, theme: 'dark' });
    expect(controller.getState().entities.Settings!['7']).toEqual({ theme: 'dark', userId: 7 });
  });

  it('without process the same response is a NormalizeError naming the entity', async () => {
    serve(() => ({ theme: 'dark' }));
    const bare = new RestEndpoint({ urlPrefix: API, path: '/users/:userId/settings', schema: Settings });
    await expect(new Controller().fetch(bare, { userId: 7 })).rejects.toMatchObject({
      name: 'NormalizeError',
      schemaKey: 'Settings',
    });
  });
});

describe('SPEC 4.6 pattern 4: deserializing with static schema', () => {
  class Event extends Entity {
    id = 0;
    startsAt = Temporal.Instant.from('1970-01-01T00:00:00Z');
    pk() {
      return `${this.id}`;
    }
    static override key = 'Event';
    static override schema = { startsAt: Temporal.Instant.from };
  }
  const EventResource = createResource({ urlPrefix: API, path: '/events/:id', schema: Event });

  it('reads ISO strings as Temporal.Instant, keeping the string in the store', async () => {
    serve(() => [{ id: 1, startsAt: '2025-06-01T09:30:00Z' }]);
    const controller = new Controller();
    const [event] = await controller.fetch(EventResource.getList);
    expect(event!.startsAt).toBeInstanceOf(Temporal.Instant);
    expect(event!.startsAt.toString()).toBe('2025-06-01T09:30:00Z');
    expect(controller.getState().entities.Event!['1']).toEqual({ id: 1, startsAt: '2025-06-01T09:30:00Z' });
  });
});

describe('SPEC 4.5: a wrapper of createResource with fixed defaults and a paginated list schema', () => {
  class Article extends Entity {
    id = 0;
    title = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'Article';
  }
  class AuthedEndpoint extends RestEndpoint<any, any, any, any, any, any> {
    override async getRequestInit(body: unknown) {
      return { ...(await super.getRequestInit(body)), credentials: 'same-origin' as const };
    }
  }
  function createMyResource<const P extends string>(options: { path: P; schema: typeof Article }) {
    return createResource({ urlPrefix: API, Endpoint: AuthedEndpoint, ...options }).extend({
      getList: { schema: { results: new Collection([Article]), total: 0, limit: 0, skip: 0 } },
    });
  }
  const ArticleResource = createMyResource({ path: '/articles/:id', schema: Article });

  it('normalizes { results, total, limit, skip }, and push adds to the nested collection', async () => {
    const seen = serve((request, body) =>
      request.method === 'GET'
        ? {
            results: [
              { id: 1, title: 'a' },
              { id: 2, title: 'b' },
            ],
            total: 2,
            limit: 10,
            skip: 0,
          }
        : { id: 3, ...(body as object) },
    );
    const controller = new Controller();
    const page = await controller.fetch(ArticleResource.getList);
    expect(page.total).toBe(2);
    expect(page.results.map((a) => a.title)).toEqual(['a', 'b']);
    expect(page.results[0]).toBeInstanceOf(Article);
    await controller.fetch(ArticleResource.getList.push, {}, { title: 'c' });
    expect(controller.getResponse(ArticleResource.getList).data!.results.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/articles', contentType: 'application/json' });
  });
});
