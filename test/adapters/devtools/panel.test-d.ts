import { describe, expectTypeOf, test } from 'vitest';
import { mountDevtools, type DevtoolsPosition, type MountDevtoolsOptions } from '../../../adapters/devtools/index.js';
import {
  Controller,
  inspectController,
  type ControllerEndpoint,
  type ControllerInspector,
  type QueryInspection,
  type RecordRef,
  type State,
} from '../../../core/index.js';

describe('mountDevtools and inspectController types', () => {
  test('mountDevtools takes a controller and options, and returns a teardown', () => {
    const controller = new Controller();
    expectTypeOf(mountDevtools(controller)).toEqualTypeOf<() => void>();
    mountDevtools(controller, { initialIsOpen: true, position: 'top-left', target: document.body });
    expectTypeOf<MountDevtoolsOptions['position']>().toEqualTypeOf<DevtoolsPosition | undefined>();
    // @ts-expect-error: a corner of the viewport
    mountDevtools(controller, { position: 'middle' });
    // @ts-expect-error: a controller
    mountDevtools({});
  });

  test('inspectController reads keys, queries, records and state', () => {
    const inspector = inspectController(new Controller());
    expectTypeOf(inspector).toEqualTypeOf<ControllerInspector>();
    expectTypeOf(inspector.keys()).toEqualTypeOf<string[]>();
    expectTypeOf(inspector.query('k')).toEqualTypeOf<QueryInspection>();
    expectTypeOf(inspector.query('k').endpoint).toEqualTypeOf<ControllerEndpoint | undefined>();
    expectTypeOf(inspector.query('k').observers).toEqualTypeOf<number>();
    expectTypeOf(inspector.reads('k')).toEqualTypeOf<RecordRef[] | undefined>();
    expectTypeOf(inspector.readers('Todo', '1')).toEqualTypeOf<string[]>();
    expectTypeOf(inspector.state()).toEqualTypeOf<State>();
    expectTypeOf(inspector.remove('k')).toEqualTypeOf<void>();
  });
});
