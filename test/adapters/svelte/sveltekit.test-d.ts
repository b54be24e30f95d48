import { describe, expectTypeOf, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { loadController, setController, type LoadEventLike } from '../../../adapters/svelte/index.js';

describe('SvelteKit helpers', () => {
  it('loadController takes a load event (its fetch) and the controller options but fetch', () => {
    const event = { fetch, url: new URL('http://x'), params: {} };
    expectTypeOf(loadController(event)).toEqualTypeOf<Controller>();
    expectTypeOf(loadController(event, { gcTime: 1000, retry: 1 })).toEqualTypeOf<Controller>();
    expectTypeOf(event).toExtend<LoadEventLike>();
    // @ts-expect-error fetch comes from the event
    loadController(event, { fetch });
    // @ts-expect-error a load event is required
    loadController();
    // @ts-expect-error not a load event
    loadController({ url: new URL('http://x') });
  });

  it('setController takes a controller or a getter of one', () => {
    const controller = new Controller();
    expectTypeOf(setController).toBeCallableWith(controller);
    expectTypeOf(setController).toBeCallableWith(() => controller);
    // @ts-expect-error not a controller
    setController(() => 42);
  });
});
