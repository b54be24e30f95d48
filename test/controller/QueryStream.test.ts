/**
 * QueryStream: one request key's stream, seen through its `StreamHost` (what it asks of its cache). The
 * host here is made of real parts (a store, its `QueryReader`) and notes what the stream tells it: the
 * records it read (`index`), a request it wants (`refetch`), its last subscriber leaving (`release`).
 */
import { describe, expect, it } from 'vitest';
import type { QueryState } from '../../core/index.js';
import { QueryReader } from '../../core/controller/QueryReader.js';
import { QueryStream, type RequestStatus, type StreamHost } from '../../core/controller/QueryStream.js';
import { Store, initialState } from '../../core/store/index.js';
import { TodoResource } from '../fixtures/todoResource.js';

const args = [{ id: 1 }] as const;
const key = TodoResource.get.key(...args);
const todo1 = { id: 1, userId: 1, title: 'todo 1', completed: false, createdAt: '2024-01-01T00:00:00Z' };

/** A host over a fresh store at time `now`: requests are idle unless `fetching` holds the key. */
function host(now = 1_000) {
  const store = new Store(initialState());
  const fetching = new Set<string>();
  const told: string[] = [];
  const requests: RequestStatus = {
    isFetching: (k) => fetching.has(k),
    isPaused: () => false,
    startOf: () => undefined,
  };
  const view: StreamHost = {
    reader: new QueryReader(store),
    requests,
    scheduler: undefined,
    now: () => now,
    pollingAllowed: () => true,
    index: (stream, previous, paths) => told.push(`index ${stream.key}: ${[...previous]} -> ${[...paths]}`),
    refetch: (stream) => {
      told.push(`refetch ${stream.key}`);
      fetching.add(stream.key);
    },
    release: (stream) => told.push(`release ${stream.key}`),
  };
  const respond = (response: unknown) =>
    store.dispatch({
      type: 'response',
      key,
      schema: TodoResource.get.schema,
      args,
      response,
      fetchedAt: now,
      date: now,
      expiresAt: now + 60_000,
    });
  return { view, told, fetching, respond };
}

const stream = (view: StreamHost) => new QueryStream(view, TodoResource.get, args, key);

describe('QueryStream through its host', () => {
  it('reads its key when made and indexes the record its arguments name (none stored yet); it wants no request yet', () => {
    const { view, told } = host();
    const s = stream(view);
    expect(told).toEqual([`index ${key}:  -> Todo\u00001`]);
    expect(s.active).toBe(false);
    expect([...s.paths]).toEqual(['Todo\u00001']);
  });

  it('its first subscriber of a missing key asks for a request and sees loading; the last one leaving releases it', () => {
    const { view, told } = host();
    const s = stream(view);
    const seen: QueryState<unknown>[] = [];
    const subscription = s.observe({ poll: false }).subscribe((state) => seen.push(state));
    expect(told.slice(1)).toEqual([`refetch ${key}`]);
    expect(seen.at(-1)).toMatchObject({ data: undefined, loading: true, fetching: true });
    subscription.unsubscribe();
    expect(told.at(-1)).toBe(`release ${key}`);
  });

  it('an update after a response is stored reads the data and emits once', () => {
    const { view, fetching, respond } = host();
    const s = stream(view);
    const seen: QueryState<unknown>[] = [];
    const subscription = s.observe({ poll: false }).subscribe((state) => seen.push(state));
    respond(todo1);
    fetching.clear();
    s.update();
    expect(seen.at(-1)).toMatchObject({ data: { id: 1, title: 'todo 1' }, loading: false, fetching: false });
    expect([...s.paths]).toEqual(['Todo\u00001']);
    const emitted = seen.length;
    s.update(); // nothing changed: no emission
    expect(seen).toHaveLength(emitted);
    subscription.unsubscribe();
  });

  it('fresh stored data asks for no request', () => {
    const { view, told, respond } = host();
    respond(todo1);
    const s = stream(view);
    const subscription = s.observe({ poll: false }).subscribe(() => undefined);
    expect(told.filter((line) => line.startsWith('refetch'))).toEqual([]);
    subscription.unsubscribe();
  });
});
