/**
 * The demo REST server's live stream (`GET /events`, demos/server/todoEvents.mjs) against the real
 * json-server: one message per todo created, updated or deleted, whoever asked and however, keep-alive
 * comments, and streams that end with the client or the server.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copySeed, startRestServer, type RestServer, type SeedTodo } from '../../demos/server/restServer.mjs';
import { openStream, type Stream } from './sse.js';

const SOON = { timeout: 5_000, interval: 10 };

let seed: ReturnType<typeof copySeed>;
let rest: RestServer;
const streams: Stream[] = [];

beforeAll(async () => {
  seed = copySeed();
  rest = await startRestServer({ file: seed.file, keepAliveMs: 40 });
});

afterAll(async () => {
  await rest.close();
  seed.remove();
});

beforeEach(() => rest.reset());

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await rest.start();
  await expect.poll(() => rest.events.clients, SOON).toBe(0);
});

async function open(): Promise<Stream> {
  const stream = await openStream(`${rest.url}/events`);
  streams.push(stream);
  return stream;
}

function send(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${rest.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const events = (stream: Stream) => stream.messages.map((data) => JSON.parse(data) as unknown);
const todo = (id: number) => rest.data().todos.find((item) => item.id === id) as SeedTodo;

describe('GET /events', () => {
  it('is an uncompressed text/event-stream that the server holds open', async () => {
    const stream = await open();
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.response.headers.get('content-encoding')).toBeNull();
    await expect.poll(() => rest.events.clients, SOON).toBe(1);
    await expect.poll(() => stream.comments[0], SOON).toBe('connected');
  });

  it('sends a message for each todo created, replaced, patched and deleted, with the todo or its id', async () => {
    const stream = await open();
    const created = (await (await send('POST', '/todos', { userId: 2, title: 'Plan the stream' })).json()) as SeedTodo;
    expect(created.id).toBe(25);
    await send('PUT', '/todos/25', { ...created, title: 'Plan the live stream' });
    await send('PATCH', '/todos/3', { completed: false });
    await send('DELETE', '/todos/25');
    await expect
      .poll(() => events(stream), SOON)
      .toEqual([
        { type: 'created', todo: { id: 25, userId: 2, title: 'Plan the stream' } },
        { type: 'updated', todo: { id: 25, userId: 2, title: 'Plan the live stream' } },
        { type: 'updated', todo: { ...todo(3), completed: false } },
        { type: 'deleted', id: 25 },
      ]);
    expect(todo(3).completed).toBe(false);
  });

  it('tells changes made through other routes: a nested create, the todos deleted with their user', async () => {
    const stream = await open();
    const graceTodos = rest.data().todos.filter((item) => item.userId === 2);
    expect(graceTodos.length).toBe(8);
    await send('POST', '/users/3/todos', { title: 'Nested' });
    await send('DELETE', '/users/2');
    await expect.poll(() => stream.messages.length, SOON).toBe(1 + graceTodos.length);
    expect(events(stream)[0]).toEqual({ type: 'created', todo: { id: 25, userId: '3', title: 'Nested' } });
    expect(events(stream).slice(1)).toEqual(graceTodos.map((item) => ({ type: 'deleted', id: item.id })));
  });

  it('sends nothing for reads, refusals and writes that change nothing', async () => {
    const stream = await open();
    expect((await send('GET', '/todos')).status).toBe(200);
    expect((await send('PATCH', '/todos/999', { completed: true })).status).toBe(404);
    expect((await send('DELETE', '/todos/999')).status).toBe(404);
    expect((await send('PATCH', '/todos/1', { completed: todo(1).completed })).status).toBe(200);
    // a change after them: a message of theirs would come first
    await send('PATCH', '/todos/2', { title: 'the one change' });
    await expect.poll(() => events(stream), SOON).toEqual([{ type: 'updated', todo: todo(2) }]);
  });

  it('sends every message to every open stream, once, also for requests in flight at once', async () => {
    const [first, second] = [await open(), await open()];
    await expect.poll(() => rest.events.clients, SOON).toBe(2);
    await Promise.all([1, 2, 3].map((id) => send('PATCH', `/todos/${id}`, { title: `parallel ${id}` })));
    await expect.poll(() => first.messages.length, SOON).toBe(3);
    await expect.poll(() => second.messages.length, SOON).toBe(3);
    const ids = (stream: Stream) => events(stream).map((event) => (event as { todo: SeedTodo }).todo.id);
    expect(ids(first).sort()).toEqual([1, 2, 3]);
    expect(ids(second)).toEqual(ids(first));
  });

  it('keeps a quiet stream alive with comments', async () => {
    const stream = await open();
    await expect.poll(() => stream.comments.filter((text) => text === 'keep-alive').length, SOON).toBeGreaterThan(2);
    expect(stream.messages).toEqual([]);
  });

  it('forgets a stream when its client goes', async () => {
    const stream = await open();
    await expect.poll(() => rest.events.clients, SOON).toBe(1);
    stream.close();
    await expect.poll(() => rest.events.clients, SOON).toBe(0);
    await send('PATCH', '/todos/1', { title: 'nobody listens' }); // writing to nobody is fine
    expect((await send('GET', '/todos/1')).status).toBe(200);
  });

  it('ends every stream when the server stops, and serves new ones once it is started again', async () => {
    const stream = await open();
    await expect.poll(() => rest.events.clients, SOON).toBe(1);
    await rest.stop();
    await stream.ended;
    expect(rest.events.clients).toBe(0);
    await expect(fetch(`${rest.url}/events`)).rejects.toThrow(); // nothing answers meanwhile
    await rest.start();
    const again = await open();
    const before = rest.events.connections;
    await send('PATCH', '/todos/1', { title: 'after the restart' });
    await expect.poll(() => events(again), SOON).toEqual([{ type: 'updated', todo: todo(1) }]);
    expect(rest.events.connections).toBe(before);
  });

  it('drop() ends the streams and the server goes on', async () => {
    const stream = await open();
    await expect.poll(() => rest.events.clients, SOON).toBe(1);
    const opened = rest.events.connections;
    rest.events.drop();
    await stream.ended;
    expect(rest.events.clients).toBe(0);
    expect(rest.running).toBe(true);
    await open();
    expect(rest.events.connections).toBe(opened + 1);
  });

  it('send() writes any text as one message, a line of data per line', async () => {
    const stream = await open();
    rest.events.send('{not json\nsecond line');
    await expect.poll(() => stream.messages, SOON).toEqual(['{not json\nsecond line']);
  });

  it('reset() tells the changes it undoes', async () => {
    await send('DELETE', '/todos/4');
    await send('PATCH', '/todos/5', { title: 'changed' });
    const stream = await open();
    rest.reset();
    await expect
      .poll(() => events(stream), SOON)
      .toEqual([
        { type: 'created', todo: todo(4) },
        { type: 'updated', todo: todo(5) },
      ]);
  });
});
