/**
 * rx-rest/svelte without a controller in context: the error is a TypeError, as are the adapter's other errors
 * of wrong usage (`setController(undefined)`, options that are not options), so that a production build, which
 * leaves `setController`'s check out and fails here instead, throws the same class; it names the fix.
 */
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/svelte';
import NoContext from './NoContext.svelte';

describe('no controller in context', () => {
  it.each(['getController', 'createQuery', 'fetchQuery'] as const)('%s throws a TypeError naming the fix', (form) => {
    let thrown: unknown;
    try {
      render(NoContext, { form });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toMatch(
      /^rx-rest\/svelte: (fetchQuery found )?no Controller in context.*setController/,
    );
  });
});
