/** Types of controller.snapshot / restore and of the changes every action carries. */
import { describe, expectTypeOf, it } from 'vitest';
import { Controller, type ControllerAction, type StateChanges, type StateSnapshot } from '../../core/index.js';

const c = new Controller();

describe('snapshot and restore', () => {
  it('snapshot gives plain tables, optionally of one change', () => {
    expectTypeOf(c.snapshot()).toEqualTypeOf<StateSnapshot>();
    expectTypeOf(c.snapshot().entities).toEqualTypeOf<{
      readonly [key: string]: { readonly [pk: string]: unknown };
    }>();
    expectTypeOf(c.snapshot().invalid).toEqualTypeOf<readonly (readonly [string, string])[] | undefined>();
    c.actions$.subscribe((action: ControllerAction) => {
      expectTypeOf(action.changes).toEqualTypeOf<StateChanges | undefined>();
      c.snapshot({ changes: action.changes, invalid: true });
    });
    // @ts-expect-error changes are an action's, not a list of keys
    c.snapshot({ changes: ['GET /todos'] });
    // @ts-expect-error invalid is a boolean
    c.snapshot({ invalid: 'yes' });
  });

  it('restore takes a snapshot or parsed JSON, and a replace flag', () => {
    expectTypeOf(c.restore(c.snapshot())).toEqualTypeOf<void>();
    c.restore(JSON.parse('{}') as unknown, { replace: true });
    // @ts-expect-error replace is a boolean
    c.restore(c.snapshot(), { replace: 'yes' });
    // @ts-expect-error an unknown option
    c.restore(c.snapshot(), { merge: true });
  });

  it('StateChanges lists records and request keys, or all', () => {
    expectTypeOf<StateChanges['entities']>().toEqualTypeOf<readonly (readonly [string, string])[] | 'all'>();
    expectTypeOf<StateChanges['endpoints']>().toEqualTypeOf<readonly string[] | 'all'>();
  });
});
