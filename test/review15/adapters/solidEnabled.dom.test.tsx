/**
 * rx-rest/solid, read by a TanStack Query user: `enabled: false` in the options is a TypeError naming it and
 * pointing to null args (development builds), as in rx-rest/svelte, not an option ignored while the query fetches.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import {
  createInfiniteQuery,
  createQuery,
  createQueryState,
  useLive,
  useSuspense,
} from '../../../adapters/solid/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { thrownIn } from '../../fixtures/solidRoots.js';

const controller = new Controller();
const options = { controller, enabled: false } as never;

describe('enabled in the options', () => {
  it.each([
    ['createQuery', () => createQuery(TodoResource.get, () => ({ id: 1 }), options)],
    ['useLive', () => useLive(TodoResource.get, () => ({ id: 1 }), options)],
    ['useSuspense', () => useSuspense(TodoResource.get, () => ({ id: 1 }), options)],
    ['createQueryState', () => createQueryState(TodoResource.get, () => ({ id: 1 }), options)],
    ['createInfiniteQuery', () => createInfiniteQuery(TodoResource.getList, () => ({}), options)],
  ])('%s: a TypeError naming enabled and null args', (_, call) => {
    const error = thrownIn(call);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^rx-rest\/solid: .*`enabled` is no option .*null/);
  });
});
