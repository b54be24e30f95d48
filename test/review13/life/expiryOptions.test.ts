/**
 * The lifetimes an endpoint gives its data and errors (`dataExpiryLength`, `errorExpiryLength`).
 * `Infinity` (data that never goes stale, TanStack Query's `staleTime: Infinity`) must leave a state that
 * survives `JSON.stringify` and `new Controller({ initialState })` (API.md), as server rendering and
 * persistence need; a lifetime that is no number is refused where the endpoint is defined, with a named error,
 * instead of writing times no restore accepts.
 */
import { describe, expect, it } from 'vitest';
import {
  Controller,
  EndpointDefinitionError,
  RestEndpoint,
  createResource,
  restoreSnapshot,
  takeSnapshot,
} from '../../../core/index.js';
import { API, Todo, TodoResource, record, settled, useTodoServer } from '../../reliability/faultHarness.js';

const fake = useTodoServer();
const gets = (id: number) => fake.requests.filter((request) => request === `GET /todos/${id}`).length;

describe('dataExpiryLength: Infinity', () => {
  it('a fetched state goes through JSON into a new controller, which shows it fresh without a request', async () => {
    const forever = TodoResource.get.extend({ dataExpiryLength: Infinity });
    const server = new Controller({ retry: 0 });
    await server.fetch(forever, { id: 1 });
    const json = JSON.parse(JSON.stringify(server.getState()));
    const client = new Controller({ retry: 0, initialState: json });
    const stream = record(client.observe(forever, { id: 1 }));
    expect(stream.last()).toMatchObject({ loading: false, fetching: false, stale: false });
    expect(stream.last().data?.title).toBe('todo 1');
    expect(gets(1)).toBe(1);
    expect(client.getResponse(forever, { id: 1 }).stale).toBe(false);
    stream.unsubscribe();
    // and a snapshot of it restores too
    const other = new Controller({ retry: 0 });
    restoreSnapshot(other, JSON.parse(JSON.stringify(takeSnapshot(server))));
    expect(other.getResponse(forever, { id: 1 }).data?.title).toBe('todo 1');
    server.dispose();
    client.dispose();
    other.dispose();
  });

  it('setResponse and an error with errorExpiryLength: Infinity go through JSON too', async () => {
    const forever = TodoResource.get.extend({ dataExpiryLength: Infinity, errorExpiryLength: Infinity });
    const controller = new Controller({ retry: 0 });
    controller.setResponse(forever, { id: 2 }, { id: 2, userId: 1, title: 'set', completed: false });
    controller.setError(forever, { id: 3 }, new Error('gone'));
    const client = new Controller({ initialState: JSON.parse(JSON.stringify(controller.getState())) });
    expect(client.getResponse(forever, { id: 2 })).toMatchObject({ stale: false });
    expect(client.getResponse(forever, { id: 2 }).data?.title).toBe('set');
    controller.dispose();
    client.dispose();
  });

  it('invalidate and expireAll still make it refetch', async () => {
    const forever = TodoResource.get.extend({ dataExpiryLength: Infinity });
    const controller = new Controller({ retry: 0 });
    const stream = record(controller.observe(forever, { id: 1 }));
    await settled(() => expect(stream.last().data?.title).toBe('todo 1'));
    controller.expireAll(forever);
    await settled(() => expect(gets(1)).toBe(2));
    await settled(() => expect(stream.last()).toMatchObject({ fetching: false, stale: false }));
    controller.invalidate(forever, { id: 1 });
    await settled(() => expect(gets(1)).toBe(3));
    stream.unsubscribe();
    controller.dispose();
  });
});

describe('lifetimes that are no number', () => {
  for (const [option, value] of [
    ['dataExpiryLength', Number.NaN],
    ['dataExpiryLength', '5000'],
    ['errorExpiryLength', Number.NaN],
    ['errorExpiryLength', '1000'],
  ] as const) {
    it(`${option}: ${String(value)} (${typeof value}) throws an EndpointDefinitionError naming the option and the endpoint`, () => {
      const define = () =>
        new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, [option]: value } as never);
      expect(define).toThrow(EndpointDefinitionError);
      expect(define).toThrow(new RegExp(`${option}.*${API}/todos/:id|${API}/todos/:id.*${option}`));
      expect(() => TodoResource.get.extend({ [option]: value } as never)).toThrow(EndpointDefinitionError);
      expect(() =>
        createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo, [option]: value } as never),
      ).toThrow(EndpointDefinitionError);
    });
  }

  it('0, a negative number and Infinity are lifetimes', () => {
    for (const value of [0, -1, Infinity])
      expect(TodoResource.get.extend({ dataExpiryLength: value, errorExpiryLength: value }).dataExpiryLength).toBe(
        value,
      );
  });
});
