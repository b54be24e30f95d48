/**
 * rx-rest/solid without a `<ControllerProvider>`: the error is a TypeError, as are the adapter's other errors of
 * wrong usage (`<ControllerProvider controller={undefined}>`, options that are not options), so that a
 * production build, which leaves the provider's check out and fails here instead, throws the same class.
 */
import { describe, expect, it } from 'vitest';
import { render } from '@solidjs/testing-library';
import { createMutation, createQuery, createQueryState, useController } from '../../../adapters/solid/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';

describe('no controller in context', () => {
  it.each([
    ['useController', () => useController()],
    ['createQuery', () => createQuery(TodoResource.get, { id: 1 })],
    ['createQueryState', () => createQueryState(TodoResource.get, { id: 1 })],
    ['createMutation', () => createMutation(TodoResource.partialUpdate)],
  ])('%s throws a TypeError naming the fix', (_, use) => {
    function Orphan() {
      use();
      return null;
    }
    let thrown: unknown;
    try {
      render(() => <Orphan />);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toMatch(/^rx-rest\/solid: no Controller in context.*<ControllerProvider/);
  });
});
