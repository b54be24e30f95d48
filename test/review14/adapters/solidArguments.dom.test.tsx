/**
 * rx-rest/solid, checked as rx-rest/svelte is: an endpoint that is not one (`undefined` from a misspelt or
 * circular import, a URL string, an Entity class, a plain object) and options that are not options get a
 * TypeError naming the function the app called and the argument, not an error from deep inside the core.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import {
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  preloadQuery,
  useLive,
  useSuspense,
} from '../../../adapters/solid/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { thrownIn } from '../../fixtures/solidRoots.js';

const controller = new Controller();
type Get = typeof TodoResource.get;

describe('an endpoint that is not one', () => {
  it.each([
    ['createQuery', (endpoint: Get) => createQuery(endpoint, () => ({ id: 1 }), controller)],
    ['useLive', (endpoint: Get) => useLive(endpoint, () => ({ id: 1 }), controller)],
    ['useSuspense', (endpoint: Get) => useSuspense(endpoint, () => ({ id: 1 }), controller)],
    ['createQueryState', (endpoint: Get) => createQueryState(endpoint, () => ({ id: 1 }), controller)],
    ['createInfiniteQuery', (endpoint: Get) => createInfiniteQuery(endpoint, () => ({ id: 1 }), { controller })],
    ['createMutation', (endpoint: Get) => createMutation(endpoint, controller)],
    ['preloadQuery', (endpoint: Get) => preloadQuery(controller, endpoint, { id: 1 })],
  ])('%s throws a TypeError naming it and the endpoint argument', (name, call: (endpoint: Get) => unknown) => {
    const label = name === 'useLive' ? 'createQuery' : name; // useLive is createQuery
    for (const endpoint of [undefined, '/todos/1', {}, TodoResource.get.schema]) {
      const thrown = thrownIn(() => call(endpoint as unknown as Get));
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(
        new RegExp(
          `^rx-rest/solid: ${label}\\(endpoint, \\.\\.\\.\\): the first argument, endpoint, must be an endpoint`,
        ),
      );
    }
  });

  it('says what was given instead', () => {
    const message = (endpoint: unknown) =>
      (thrownIn(() => createQuery(endpoint as Get, () => ({ id: 1 }), controller)) as Error).message;
    expect(message(undefined)).toContain(
      'got undefined (a misspelt import, or one that a circular import has not set yet)',
    );
    expect(message('/todos/1')).toContain('got the string "/todos/1"');
    expect(message(TodoResource.get.schema)).toContain('got the Entity class Todo');
  });

  it('nothing of the controller changed', () => {
    const before = controller.getState();
    thrownIn(() => createQuery(undefined as unknown as Get, () => ({ id: 1 }), controller));
    expect(controller.getState()).toBe(before);
  });
});

describe('options that are not options', () => {
  it.each([
    ['a string', 'x'],
    ['a number', 5],
    ['true', true],
    ['a controller that is not one', { controller: {} }],
    ['a controller that is a string', { controller: 'main' }],
  ])('%s: a TypeError naming the options', (_, options) => {
    for (const call of [
      () => createQuery(TodoResource.get, () => ({ id: 1 }), options as never),
      () => createQueryState(TodoResource.get, () => ({ id: 1 }), options as never),
      () => createInfiniteQuery(TodoResource.get, () => ({ id: 1 }), options as never),
      () => createMutation(TodoResource.partialUpdate, options as never),
    ]) {
      const thrown = thrownIn(call);
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(
        /^rx-rest\/solid: the options .* must be \{ controller\?, \.\.\. \} or a Controller/,
      );
    }
  });

  it('takes a Controller, { controller } and { controller, keepPreviousData }', () => {
    for (const options of [controller, { controller }, { controller, keepPreviousData: true }])
      expect(thrownIn(() => createQueryState(TodoResource.get, () => ({ id: 1 }), options))).toBeUndefined();
  });
});
