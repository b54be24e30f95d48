/** Types of every Controller verb: what compiles, what is inferred, and what must not compile. */
import type { Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import {
  Controller,
  RestEndpoint,
  createResource,
  peekQuery,
  schema,
  watchQuery,
  type ControllerEndpoint,
  type EndpointResponse,
  type QueryState,
  type ResponseSnapshot,
  type State,
} from '../../core/index.js';
import { Article, Todo } from '../fixtures/entities.js';

const R = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
});
const c = new Controller();

describe('Controller verbs are typed from the endpoint', () => {
  it('fetch and fetchIfStale', () => {
    expectTypeOf(c.fetch(R.get, { id: 1 })).toEqualTypeOf<Promise<Todo>>();
    expectTypeOf(c.fetch(R.getList)).toEqualTypeOf<Promise<Todo[]>>();
    expectTypeOf(c.fetch(R.getList, { userId: 1 })).toEqualTypeOf<Promise<Todo[]>>();
    expectTypeOf(c.fetch(R.getList.push, {}, { title: 'a' })).toEqualTypeOf<Promise<Todo>>();
    expectTypeOf(c.fetch(R.partialUpdate, { id: 1 }, { title: 'a' })).toEqualTypeOf<Promise<Todo>>();
    expectTypeOf(c.fetchIfStale(R.get, { id: '1' })).toEqualTypeOf<Promise<Todo>>();
    // @ts-expect-error a wrong argument name
    void c.fetch(R.get, { idd: 1 });
    // @ts-expect-error a missing path argument
    void c.fetch(R.get, {});
    // @ts-expect-error no arguments at all for an endpoint that needs them
    void c.fetch(R.get);
    // @ts-expect-error a body field the entity does not have
    void c.fetch(R.partialUpdate, { id: 1 }, { titel: 'a' });
    // @ts-expect-error a body field of the wrong type
    void c.fetch(R.partialUpdate, { id: 1 }, { completed: 'yes' });
    // @ts-expect-error an unknown search parameter
    void c.fetch(R.getList, { user: 1 });
    // @ts-expect-error fetchIfStale checks its arguments as fetch does
    void c.fetchIfStale(R.get, { idd: 1 });
  });

  it('observe, watchQuery and peekQuery', () => {
    expectTypeOf(c.observe(R.get, { id: 1 })).toEqualTypeOf<Observable<QueryState<Todo>>>();
    expectTypeOf(c.observe(R.getList, { userId: 2 })).toEqualTypeOf<Observable<QueryState<Todo[]>>>();
    expectTypeOf(c.observe(R.get, null)).toEqualTypeOf<Observable<QueryState<Todo>>>();
    expectTypeOf(watchQuery(c, R.get, [{ id: 1 }], { poll: false })).toEqualTypeOf<Observable<QueryState<Todo>>>();
    expectTypeOf(watchQuery(c, R.get, [null], { poll: true })).toEqualTypeOf<Observable<QueryState<Todo>>>();
    expectTypeOf(peekQuery(c, R.get, { id: 1 })).toEqualTypeOf<QueryState<Todo>>();
    expectTypeOf(peekQuery(c, R.getList, null)).toEqualTypeOf<QueryState<Todo[]>>();
    // @ts-expect-error a wrong argument name
    void c.observe(R.get, { idd: 1 });
    // @ts-expect-error a missing argument
    void c.observe(R.get);
    // @ts-expect-error watchQuery checks its argument list as observe does
    void watchQuery(c, R.get, [{ idd: 1 }], { poll: false });
    // @ts-expect-error watchQuery takes an options object, not a positional boolean
    void watchQuery(c, R.get, [{ id: 1 }], false);
    // @ts-expect-error watchQuery needs its options
    void watchQuery(c, R.get, [{ id: 1 }]);
    // @ts-expect-error observe refuses a mutation (PATCH)
    void c.observe(R.partialUpdate, { id: 1 }, { title: 'a' });
    // @ts-expect-error observe refuses a create (POST)
    void c.observe(R.getList.push, {}, { title: 'a' });
    // @ts-expect-error observe refuses a DELETE
    void c.observe(R.delete, { id: 1 });
    // @ts-expect-error peekQuery checks its arguments
    void peekQuery(c, R.get, { idd: 1 });
  });

  it('invalidate, invalidateAll and expireAll', () => {
    expectTypeOf(c.invalidate(R.get, { id: 1 })).toEqualTypeOf<void>();
    expectTypeOf(c.invalidateAll(R.getList)).toEqualTypeOf<void>();
    expectTypeOf(c.expireAll(R.get)).toEqualTypeOf<void>();
    // @ts-expect-error a wrong argument name
    c.invalidate(R.get, { idd: 1 });
    // @ts-expect-error a missing argument
    c.invalidate(R.get);
    // @ts-expect-error invalidateAll takes the endpoint only
    c.invalidateAll(R.get, { id: 1 });
    // @ts-expect-error not an endpoint
    c.expireAll('GET /todos');
  });

  it('setResponse, setError and getResponse', () => {
    expectTypeOf(c.setResponse(R.get, { id: 1 }, { id: 1, title: 'a' })).toEqualTypeOf<void>();
    expectTypeOf(c.setError(R.get, { id: 1 }, new Error('gone'))).toEqualTypeOf<void>();
    expectTypeOf(c.getResponse(R.get, { id: 1 })).toEqualTypeOf<ResponseSnapshot<Todo>>();
    expectTypeOf(c.getResponse(R.getList).data).toEqualTypeOf<Todo[] | undefined>();
    // @ts-expect-error setError needs an Error, not a message
    c.setError(R.get, { id: 1 }, 'gone');
    // @ts-expect-error setError needs an Error, not a plain object
    c.setError(R.get, { id: 1 }, { message: 'gone' });
    // @ts-expect-error setResponse checks the arguments before the response
    c.setResponse(R.get, { idd: 1 }, { id: 1 });
    // @ts-expect-error setResponse needs the response
    c.setResponse(R.get, { id: 1 });
    // @ts-expect-error getResponse checks its arguments
    c.getResponse(R.get, { idd: 1 });
  });

  it('setResponse takes the JSON the server sends: partial records for a schema, the declared type without one', () => {
    type TodoJson = { id?: number; userId?: number; title?: string; completed?: boolean; createdAt?: string };
    expectTypeOf<EndpointResponse<typeof R.get>>().toEqualTypeOf<TodoJson>();
    expectTypeOf<EndpointResponse<typeof R.getList>>().toEqualTypeOf<readonly TodoJson[]>();
    expectTypeOf<EndpointResponse<typeof R.getList.push>>().toEqualTypeOf<TodoJson>();
    expectTypeOf<EndpointResponse<typeof R.delete>>().toEqualTypeOf<string | number | TodoJson>();
    expectTypeOf<EndpointResponse<ControllerEndpoint>>().toEqualTypeOf<unknown>();
    c.setResponse(R.get, { id: 1 }, { id: 1, title: 'a', createdAt: '2024-05-01T10:00:00Z' });
    c.setResponse(R.get, { id: 1 }, { id: 1, completed: true }); // a partial record merges
    c.setResponse(R.getList, { userId: 1 }, [{ id: 1, title: 'a' }, { id: 2 }]);
    c.setResponse(R.getList.push, {}, { title: 'a' }, { id: 3, title: 'a' });
    c.setResponse(R.delete, { id: 1 }, { id: 1 });
    c.setResponse(R.delete, { id: 1 }, '1'); // an Invalidate schema takes the pk alone
    const json: unknown = JSON.parse('{"id": 1}');
    c.setResponse(R.get, { id: 1 }, json as EndpointResponse<typeof R.get>);
    // @ts-expect-error a string where the record is expected
    c.setResponse(R.get, { id: 1 }, 'a');
    // @ts-expect-error a field of the wrong type
    c.setResponse(R.get, { id: 1 }, { id: 1, title: 5 });
    // @ts-expect-error a Temporal field is sent as its JSON string
    c.setResponse(R.get, { id: 1 }, { id: 1, createdAt: 0 });
    // @ts-expect-error a field the entity does not have
    c.setResponse(R.get, { id: 1 }, { id: 1, titel: 'a' });
    // @ts-expect-error one record where the list is expected
    c.setResponse(R.getList, { userId: 1 }, { id: 1 });
    // @ts-expect-error an item of the wrong shape in a list
    c.setResponse(R.getList, { userId: 1 }, [{ id: 'one' }]);
    // @ts-expect-error an untyped value is no response until it is cast
    c.setResponse(R.get, { id: 1 }, json);
  });

  it('setResponse: nested records are partial too; an endpoint without schema takes its declared result', () => {
    const getArticle = new RestEndpoint({ path: '/articles/:id', schema: Article });
    c.setResponse(
      getArticle,
      { id: 1 },
      { id: 1, author: { id: 'u1' }, comments: [{ id: 2, author: { name: 'Ann' } }] },
    );
    // @ts-expect-error a nested field of the wrong type
    c.setResponse(getArticle, { id: 1 }, { id: 1, author: { name: 5 } });
    // @ts-expect-error a nested list given as one record
    c.setResponse(getArticle, { id: 1 }, { id: 1, comments: { id: 2 } });

    const getFeed = new RestEndpoint({
      path: '/feed',
      schema: { results: new schema.Collection([Todo]), next: null as string | null },
    });
    c.setResponse(getFeed, {}, { results: [{ id: 1 }], next: 'c2' });
    // @ts-expect-error the cursor is a string or null
    c.setResponse(getFeed, {}, { results: [], next: 2 });

    const health = new RestEndpoint({ path: '/health', process: (value): { ok: boolean } => value as { ok: boolean } });
    expectTypeOf<EndpointResponse<typeof health>>().toEqualTypeOf<{ ok: boolean }>();
    // no schema given, `process` declares the result: the schema is `undefined`, not inferred from `process`
    expectTypeOf(health.schema).toEqualTypeOf<undefined>();
    expectTypeOf(c.fetch(health)).toEqualTypeOf<Promise<{ ok: boolean }>>();
    expectTypeOf(c.getResponse(health).data).toEqualTypeOf<{ ok: boolean } | undefined>();
    // the same with `process`'s parameter annotated (as generated clients write it)
    const counts = new RestEndpoint({ path: '/counts', process: (value: unknown) => value as number[] });
    expectTypeOf(counts.schema).toEqualTypeOf<undefined>();
    expectTypeOf(c.fetch(counts)).toEqualTypeOf<Promise<number[]>>();
    expectTypeOf(c.getResponse(counts).data).toEqualTypeOf<number[] | undefined>();
    c.setResponse(health, {}, { ok: true });
    // @ts-expect-error without a schema nothing merges: the whole declared result
    c.setResponse(health, {}, {});
    // @ts-expect-error a field of the wrong type
    c.setResponse(health, {}, { ok: 'yes' });
    const text = new RestEndpoint({ path: '/readme' }).extend({ content: 'text' });
    expectTypeOf<EndpointResponse<typeof text>>().toEqualTypeOf<string>();
    c.setResponse(text, {}, '# rx-rest');
    // @ts-expect-error a text endpoint stores a string
    c.setResponse(text, {}, { body: '# rx-rest' });
  });

  it('state, reset and the options', () => {
    expectTypeOf(c.getState()).toEqualTypeOf<State>();
    expectTypeOf(c.state$).toEqualTypeOf<Observable<State>>();
    expectTypeOf(c.resetEntireStore()).toEqualTypeOf<void>();
    // @ts-expect-error retry is a count or false
    void new Controller({ retry: 'twice' });
    // @ts-expect-error now is a clock function
    void new Controller({ now: 5 });
  });
});
