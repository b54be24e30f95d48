/**
 * Outside review of snapshots from API.md alone ("The controller and the store": `getState()` output,
 * except INVALID markers, survives `JSON.stringify` and `new Controller({ initialState })` restores it;
 * "Server rendering": `takeSnapshot` and `restoreSnapshot`; bad input gets a clear, named error and
 * nothing in the store is lost).
 */
import { describe, expect, it } from 'vitest';
import {
  Controller,
  NetworkError,
  RestEndpoint,
  SnapshotError,
  restoreSnapshot,
  schema,
  takeSnapshot,
} from '../../../core/index.js';
import { Article, Invoice } from '../../fixtures/entities.js';
import { TodoResource, flush, record, useTodoServer } from '../../reliability/faultHarness.js';
import { counter, json, row, useControllers } from '../../review10/fixtures.js';

const fake = useTodoServer();
const count = counter(fake);
const { make } = useControllers();

const offline = {
  urlPrefix: 'http://review11.test',
  fetchResponse: (): Promise<Response> => Promise.reject(new Error('no request may leave these tests')),
};
const getArticle = new RestEndpoint({ ...offline, path: '/articles/:id', schema: Article });
const getInvoice = new RestEndpoint({ ...offline, path: '/invoices/:id', schema: Invoice });
const getArticles = new RestEndpoint({ ...offline, path: '/articles', schema: new schema.Collection([Article]) });

const article = {
  id: 1,
  title: 'hello',
  author: { id: 'u1', name: 'Ann' },
  editor: { id: 'u2', name: 'Bo' },
  comments: [
    { id: 10, body: 'first', author: { id: 'u2', name: 'Bo' } },
    { id: 11, body: 'second', author: { id: 'u1', name: 'Ann' } },
  ],
};

describe('getState() through JSON into new Controller({ initialState })', () => {
  it('nested entities, a collection and deserialized fields read back the same', () => {
    const server = make();
    server.setResponse(getArticle, { id: 1 }, article);
    server.setResponse(getArticles, {}, [article]);
    server.setResponse(
      getInvoice,
      { id: 7 },
      {
        id: 7,
        issuedAt: '2024-05-01T10:00:00Z',
        amount: '12.50',
        count: 3,
        due: '2024-06-01T00:00:00.000Z',
        paidOn: null,
      },
    );
    const c = make({ initialState: json(server.getState()) });
    const read = c.getResponse(getArticle, { id: 1 });
    expect(read.data).toBeInstanceOf(Article);
    expect(read.data?.author.name).toBe('Ann');
    expect(read.data?.editor?.name).toBe('Bo');
    expect(read.data?.comments.map((comment) => [comment.body, comment.author.name])).toEqual([
      ['first', 'Bo'],
      ['second', 'Ann'],
    ]);
    expect(read.stale).toBe(false);
    expect(c.getResponse(getArticles, {}).data?.[0]).toBe(read.data);
    const invoice = c.getResponse(getInvoice, { id: 7 }).data!;
    expect(invoice.due).toBeInstanceOf(Date);
    expect(invoice.due.toISOString()).toBe('2024-06-01T00:00:00.000Z');
    expect(invoice.amount.toString()).toBe('12.5');
    expect(invoice.paidOn).toBeNull();
  });

  it('an error keeps its name, message and status; an invalidated key refetches on subscribe', async () => {
    const server = make();
    const failed = await server.fetch(TodoResource.get, { id: 99 }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(NetworkError);
    await server.fetch(TodoResource.get, { id: 1 });
    server.invalidate(TodoResource.get, { id: 1 });
    const saved = JSON.parse(JSON.stringify(server.getState())) as unknown;
    fake.requests.length = 0;

    const c = make({ initialState: saved });
    // (an observer would refetch it at once: "when a request starts and no usable data is shown, error is cleared")
    const error = c.getState().meta[TodoResource.get.key({ id: 99 })]?.error as NetworkError | undefined;
    expect(error?.name).toBe('NetworkError');
    expect(error?.status).toBe(404);
    expect(error?.message).toContain('404');

    expect(c.getResponse(TodoResource.get, { id: 1 }).invalid).toBe(true);
    const s1 = record(c.observe(TodoResource.get, { id: 1 }));
    await flush();
    expect(count('GET /todos/1')).toBe(1);
    s1.unsubscribe();
  });

  it('a deleted record (INVALID) is left out by JSON, and stays out of the list read back', async () => {
    const server = make();
    await server.fetch(TodoResource.getList, {});
    await server.fetch(TodoResource.delete, { id: 2 });
    const shown = server.getResponse(TodoResource.getList, {}).data?.map((todo) => todo.id);
    expect(shown).toEqual([1, 3, 4]);
    const c = make({ initialState: json(server.getState()) });
    expect(c.getResponse(TodoResource.getList, {}).data?.map((todo) => todo.id)).toEqual([1, 3, 4]);
  });

  it('a value that is no state is refused with a named TypeError before anything is built', () => {
    for (const bad of ['{"entities":{}}', 42, [1, 2]]) {
      expect(() => new Controller({ initialState: bad })).toThrow(SnapshotError);
      expect(() => new Controller({ initialState: bad })).toThrow(TypeError);
    }
    expect(() => new Controller({ initialState: null })).not.toThrow();
  });

  it('hostile keys in a state are plain data', () => {
    const hostile = JSON.parse(
      '{"entities":{"Todo":{"__proto__":{"id":"__proto__","title":"x"},"1":{"id":1,"title":"one","__proto__":{"polluted":true}}}},' +
        '"endpoints":{},"meta":{},"entitiesMeta":{}}',
    ) as unknown;
    const c = make({ initialState: hostile });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).title).toBeUndefined();
    expect(c.getState().entities.Todo?.['1']).toBeDefined();
  });
});

describe('takeSnapshot / restoreSnapshot', () => {
  it('a snapshot restored into a controller with newer data keeps the newer; an older one changes nothing', () => {
    let now = 1_000;
    const older = make({ now: () => now });
    older.setResponse(TodoResource.get, { id: 1 }, row(1, 'older'));
    const oldSnapshot = json(takeSnapshot(older));
    now = 2_000;
    const newer = make({ now: () => now });
    newer.setResponse(TodoResource.get, { id: 1 }, row(1, 'newer'));
    restoreSnapshot(newer, oldSnapshot);
    expect(newer.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('newer');
    restoreSnapshot(older, json(takeSnapshot(newer)));
    expect(older.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('newer');
  });

  it('a malformed snapshot is refused whole and the store is unchanged', () => {
    const c = make();
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'kept'));
    const before = c.getState();
    const bad = {
      entities: { Todo: { 2: row(2, 'two') } },
      entitiesMeta: { Todo: { 2: { date: 'soon', fetchedAt: 1, expiresAt: 2 } } },
      endpoints: {},
      meta: {},
    };
    expect(() => restoreSnapshot(c, bad)).toThrow(SnapshotError);
    expect(c.getState()).toBe(before);
    expect(() => restoreSnapshot(c, 'not a snapshot')).toThrow(TypeError);
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('kept');
  });

  it('an observer of a restored key re-emits with the restored data and makes no request', async () => {
    const server = make();
    await server.fetch(TodoResource.get, { id: 3 });
    const c = make();
    const held = TodoResource.get.extend({ fetchResponse: () => new Promise<Response>(() => {}) });
    const s = record(c.observe(held, { id: 3 }));
    expect(s.last()).toMatchObject({ loading: true });
    restoreSnapshot(c, json(takeSnapshot(server)));
    expect(s.last()).toMatchObject({ loading: false });
    expect(s.last().data?.title).toBe('todo 3');
    s.unsubscribe();
  });
});
