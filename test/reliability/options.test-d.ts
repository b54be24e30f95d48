/** The types of the retry, timeout and abort options, and of the errors they produce. */
import { asyncScheduler } from 'rxjs';
import { describe, expectTypeOf, test } from 'vitest';
import {
  AbortError,
  Controller,
  NetworkError,
  RestEndpoint,
  TimeoutError,
  createResource,
  type ControllerOptions,
  type FetchOptions,
  type RetryDelay,
} from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';

const API = 'http://api.test';

describe('endpoint options', () => {
  test('retry, retryDelay, timeout and signal are accepted and readable', () => {
    const abort = new AbortController();
    const get = new RestEndpoint({
      urlPrefix: API,
      path: '/todos/:id',
      schema: Todo,
      retry: 2,
      retryDelay: (attempt, error) => {
        expectTypeOf(attempt).toEqualTypeOf<number>();
        expectTypeOf(error).toEqualTypeOf<Error>();
        return 500 * 2 ** attempt;
      },
      timeout: 5_000,
      signal: abort.signal,
    });
    expectTypeOf(get.retry).toEqualTypeOf<number | false | undefined>();
    expectTypeOf(get.retryDelay).toEqualTypeOf<RetryDelay | undefined>();
    expectTypeOf(get.timeout).toEqualTypeOf<number | undefined>();
    expectTypeOf(get.signal).toEqualTypeOf<AbortSignal | undefined>();
    new RestEndpoint({ path: '/todos', retry: false, retryDelay: 250 });
  });

  test('wrong values are compile errors', () => {
    // @ts-expect-error retry is a count or false (no `true`: retrying forever is Infinity)
    new RestEndpoint({ path: '/todos', retry: true });
    // @ts-expect-error retry is a number
    new RestEndpoint({ path: '/todos', retry: '3' });
    // @ts-expect-error retryDelay gives milliseconds
    new RestEndpoint({ path: '/todos', retryDelay: () => 'soon' });
    // @ts-expect-error timeout is in milliseconds
    new RestEndpoint({ path: '/todos', timeout: '5s' });
    // @ts-expect-error signal is an AbortSignal, not its controller
    new RestEndpoint({ path: '/todos', signal: new AbortController() });
  });

  test('extend and createResource take them without changing the endpoint types', () => {
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo });
    const patient = get.extend({ retry: 5, timeout: 10_000, signal: new AbortController().signal });
    expectTypeOf(patient).toEqualTypeOf<typeof get>();
    const TodoResource = createResource({
      urlPrefix: API,
      path: '/todos/:id',
      schema: Todo,
      retry: 1,
      retryDelay: 100,
      timeout: 2_000,
    });
    expectTypeOf(TodoResource.get.timeout).toEqualTypeOf<number | undefined>();
    const extended = TodoResource.extend({ update: { retry: 2 } });
    expectTypeOf(extended.update).toEqualTypeOf<typeof TodoResource.update>();
  });

  test('fetchWith takes per-call options, then the same arguments and result as a call', () => {
    const get = new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo });
    expectTypeOf(get.fetchWith).parameter(0).toEqualTypeOf<FetchOptions>();
    expectTypeOf(get.fetchWith({ signal: new AbortController().signal }, { id: 1 })).toEqualTypeOf<
      ReturnType<typeof get>
    >();
    // @ts-expect-error the URL arguments are still checked
    get.fetchWith({}, { todo: 1 });
  });
});

describe('controller options', () => {
  test('retry, retryDelay and scheduler', () => {
    new Controller({ retry: 5, retryDelay: (attempt) => attempt * 100, scheduler: asyncScheduler });
    new Controller({ retry: false });
    expectTypeOf<ControllerOptions['retry']>().toEqualTypeOf<number | false | undefined>();
    // @ts-expect-error retry is a count or false
    new Controller({ retry: 'always' });
  });
});

describe('errors', () => {
  test('TimeoutError and AbortError are named errors that describe the request', () => {
    const timeout = new TimeoutError({ method: 'GET', url: `${API}/todos/1`, endpoint: 'Todo.get' }, 5_000);
    expectTypeOf(timeout.name).toEqualTypeOf<'TimeoutError'>();
    expectTypeOf(timeout.status).toEqualTypeOf<0>();
    expectTypeOf(timeout.timeout).toEqualTypeOf<number>();
    expectTypeOf(timeout).toExtend<Error>();
    const aborted = new AbortError({ method: 'GET', url: `${API}/todos/1` });
    expectTypeOf(aborted.name).toEqualTypeOf<'AbortError'>();
    expectTypeOf(aborted.endpoint).toEqualTypeOf<string | undefined>();
    expectTypeOf<NetworkError['endpoint']>().toEqualTypeOf<string | undefined>();
  });
});
