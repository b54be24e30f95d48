import { describe, expectTypeOf, test } from 'vitest';
import { Controller, type ControllerManager } from '../../../core/index.js';
import {
  connectDevtools,
  type DevtoolsAction,
  type DevtoolsConnection,
  type DevtoolsExtension,
  type DevtoolsOptions,
} from '../../../adapters/devtools/index.js';

describe('rx-rest/devtools types', () => {
  test('connectDevtools takes a controller and options, and returns a teardown', () => {
    const controller = new Controller();
    expectTypeOf(connectDevtools(controller)).toEqualTypeOf<() => void>();
    expectTypeOf(
      connectDevtools(controller, { name: 'todos', maxAge: 30, actionsDenylist: 'rx-rest/gc' }),
    ).toEqualTypeOf<() => void>();
    connectDevtools(controller, { actionsDenylist: ['rx-rest/gc', 'rx-rest/expire'] });
    // @ts-expect-error: the name is a string
    connectDevtools(controller, { name: 1 });
    // @ts-expect-error: no such option
    connectDevtools(controller, { latency: 0 });
    // @ts-expect-error: a controller first
    connectDevtools({ name: 'todos' });
  });

  test('it is a manager as it stands', () => {
    const manager: ControllerManager = (controller) => connectDevtools(controller, { name: 'todos' });
    expectTypeOf(new Controller({ managers: [manager] })).toEqualTypeOf<Controller>();
  });

  test('actions are typed by the controller action types', () => {
    expectTypeOf<DevtoolsAction['type']>().toEqualTypeOf<
      | 'rx-rest/fetch'
      | 'rx-rest/set'
      | 'rx-rest/setError'
      | 'rx-rest/invalidate'
      | 'rx-rest/expire'
      | 'rx-rest/optimistic'
      | 'rx-rest/rollback'
      | 'rx-rest/reset'
      | 'rx-rest/gc'
      | 'rx-rest/restore'
      | 'rx-rest/pushError'
    >();
    expectTypeOf<DevtoolsAction['error']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<DevtoolsOptions['name']>().toEqualTypeOf<string | undefined>();
  });

  test('the extension types describe its page API', () => {
    expectTypeOf<ReturnType<DevtoolsExtension['connect']>>().toEqualTypeOf<DevtoolsConnection>();
    expectTypeOf<DevtoolsConnection['subscribe']>().returns.toEqualTypeOf<(() => void) | undefined>();
  });
});
