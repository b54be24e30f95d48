/**
 * rx-rest/svelte, read by a TanStack Query user: `enabled: false` is TanStack's way to hold a query back. Here
 * null args do that; an `enabled` in the options was ignored without a word, and the query fetched. It is a
 * TypeError naming `enabled` and pointing to null args (development builds), before any request.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import {
  createInfiniteQuery,
  createQuery,
  createQueryState,
  useLive,
  useSuspense,
} from '../../../adapters/svelte/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const controller = new Controller();
const options = { controller, enabled: false } as never;

describe('enabled in the options', () => {
  it.each([
    ['createQuery', () => createQuery(TodoResource.get, { id: 1 }, options)],
    ['useLive', () => useLive(TodoResource.get, { id: 1 }, options)],
    ['useSuspense', () => useSuspense(TodoResource.get, { id: 1 }, options)],
    ['createQueryState', () => createQueryState(TodoResource.get, { id: 1 }, options)],
    ['createInfiniteQuery', () => createInfiniteQuery(TodoResource.getList, {}, options)],
  ])('%s: a TypeError naming enabled and null args', (_, call) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(/^rx-rest\/svelte: .*`enabled` is no option .*null/);
  });

  it('null args stay idle, as the message says', () => {
    let state: unknown;
    createQuery(TodoResource.get, null, { controller }).subscribe((value) => (state = value))();
    expect(state).toMatchObject({ data: undefined, loading: false, fetching: false });
  });
});
