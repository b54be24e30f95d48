/**
 * An outside review of rx-rest/svelte's setController/getController: a controller, a getter of one (an arrow or
 * a `function`), and the mistakes a user makes, each a TypeError that names setController.
 */
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/svelte';
import { Controller } from '../../../core/index.js';
import { getController } from '../../../adapters/svelte/index.js';
import Scope from './Scope.svelte';

/** Renders `Scope` with `controller` in context; answers what getController() gave, or the error thrown. */
function scope(controller: unknown): { got?: Controller; error?: Error } {
  const result: { got?: Controller; error?: Error } = {};
  try {
    render(Scope, { controller, probe: () => (result.got = getController()) });
  } catch (error) {
    result.error = error as Error;
  }
  return result;
}

describe('setController', () => {
  it('takes a controller, an arrow getter or a function getter', () => {
    const controller = new Controller();
    expect(scope(controller).got).toBe(controller);
    expect(scope(() => controller).got).toBe(controller);
    expect(
      scope(function data() {
        return controller;
      }).got,
    ).toBe(controller);
  });

  it.each([
    ['the Controller class', Controller],
    ['a getter of nothing', () => undefined],
    ['a plain object', {}],
    ['null', null],
    ['a number', 1],
  ])('refuses %s with a TypeError naming setController', (_, given) => {
    const { got, error } = scope(given);
    expect(got).toBeUndefined();
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toMatch(/setController\(controller\) expects a Controller/);
    expect(error?.message).toMatch(/new Controller\(\)/);
  });
});
