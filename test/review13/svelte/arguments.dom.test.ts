/**
 * An outside review of rx-rest/svelte: wrong arguments a user passes (an endpoint that is `undefined`, from a
 * typo or a circular import in plain JavaScript, a URL string as in `fetch`, options that are not options) get a
 * TypeError naming the function and the argument, not a TypeError from deep inside the core.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import {
  createInfiniteQuery,
  createMutation,
  createQuery,
  createQueryState,
  fetchQuery,
  useSuspense,
} from '../../../adapters/svelte/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';

const controller = new Controller();
type Get = typeof TodoResource.get;

describe('an endpoint that is not one', () => {
  it.each([
    ['createQuery', (endpoint: Get) => createQuery(endpoint, { id: 1 }, controller)],
    ['createQueryState', (endpoint: Get) => createQueryState(endpoint, { id: 1 }, controller)],
    ['useSuspense', (endpoint: Get) => useSuspense(endpoint, { id: 1 }, controller)],
    ['createInfiniteQuery', (endpoint: Get) => createInfiniteQuery(endpoint, { id: 1 }, { controller })],
    ['createMutation', (endpoint: Get) => createMutation(endpoint, controller)],
    ['fetchQuery', (endpoint: Get) => fetchQuery(endpoint, { id: 1 })],
  ])('%s throws a TypeError naming it and the endpoint argument', (name, call: (endpoint: Get) => unknown) => {
    for (const endpoint of [undefined, '/todos/1', {}]) {
      expect(() => call(endpoint as never)).toThrow(TypeError);
      expect(() => call(endpoint as never)).toThrow(
        new RegExp(
          `^rx-rest/svelte: ${name}\\(endpoint, \\.\\.\\.\\): the first argument, endpoint, must be an endpoint`,
        ),
      );
    }
  });

  it.each([
    [undefined, 'got undefined (a misspelt import, or one that a circular import has not set yet)'],
    ['/todos/1', 'got the string "/todos/1" (an endpoint builds its URL: give it as path and urlPrefix)'],
    [TodoResource.get.schema, 'got the Entity class Todo (read one with controller.get or controller.observe)'],
  ])('the message says what was given instead (%s)', (endpoint, got) => {
    expect(() => createQuery(endpoint as unknown as Get, { id: 1 }, controller)).toThrow(got);
  });
});

describe('options that are not options', () => {
  it.each([
    ['a string', 'x'],
    ['a controller that is not one', { controller: {} }],
    ['a number', 5],
  ])('createQuery refuses %s with a TypeError naming the options', (_, options) => {
    expect(() => createQuery(TodoResource.get, { id: 1 }, options as never)).toThrow(TypeError);
    expect(() => createQuery(TodoResource.get, { id: 1 }, options as never)).toThrow(
      /^rx-rest\/svelte: the options .* must be \{ controller\?, \.\.\. \} or a Controller/,
    );
  });

  it('takes a Controller, { controller } and { controller, keepPreviousData }', () => {
    for (const options of [controller, { controller }, { controller, keepPreviousData: true }])
      expect(() => createQuery(TodoResource.get, { id: 1 }, options).subscribe(() => {})()).not.toThrow();
  });
});
