/**
 * An outside review of `setController`: what it was given is checked where it was given, so that a
 * controller missing from a load's data is named there, not later as "no Controller in context" in a
 * child that did nothing wrong.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { Controller } from '../../../core/index.js';
import SetControllerWith from './SetControllerWith.svelte';

describe('setController', () => {
  it.each([
    ['undefined', undefined, false],
    ['a getter of undefined', undefined, true],
    ['a plain object', { controller: new Controller() }, false],
  ])('given %s throws a TypeError naming setController and what it got', (_what, value, getter) => {
    expect(() => render(SetControllerWith, { value, getter })).toThrow(TypeError);
    expect(() => render(SetControllerWith, { value, getter })).toThrow(
      /rx-rest\/svelte: setController\(controller\) expects a Controller.*got (undefined|an object)/,
    );
  });

  it('takes a controller or a getter of one', () => {
    render(SetControllerWith, { value: new Controller() });
    render(SetControllerWith, { value: new Controller(), getter: true });
    expect(screen.getAllByText('set')).toHaveLength(2);
  });
});
