/** Types of takeSnapshot / restoreSnapshot and of the changes every action carries. */
import { describe, expectTypeOf, it } from 'vitest';
import {
  Controller,
  SnapshotError,
  restoreSnapshot,
  takeSnapshot,
  type ControllerAction,
  type RestoreOptions,
  type StateChanges,
  type StateSnapshot,
} from '../../core/index.js';

const c = new Controller();

describe('snapshot and restore', () => {
  it('snapshot gives plain tables, optionally of one change', () => {
    expectTypeOf(takeSnapshot(c)).toEqualTypeOf<StateSnapshot>();
    expectTypeOf(takeSnapshot(c).entities).toEqualTypeOf<{
      readonly [key: string]: { readonly [pk: string]: unknown };
    }>();
    expectTypeOf(takeSnapshot(c).invalid).toEqualTypeOf<readonly (readonly [string, string])[] | undefined>();
    c.actions$.subscribe((action: ControllerAction) => {
      expectTypeOf(action.changes).toEqualTypeOf<StateChanges | undefined>();
      takeSnapshot(c, { changes: action.changes, invalid: true });
    });
    // @ts-expect-error changes are an action's, not a list of keys
    takeSnapshot(c, { changes: ['GET /todos'] });
    // @ts-expect-error invalid is a boolean
    takeSnapshot(c, { invalid: 'yes' });
  });

  it('restore takes a snapshot or parsed JSON, and a replace flag', () => {
    expectTypeOf(restoreSnapshot(c, takeSnapshot(c))).toEqualTypeOf<void>();
    restoreSnapshot(c, JSON.parse('{}') as unknown, { replace: true });
    // @ts-expect-error replace is a boolean
    restoreSnapshot(c, takeSnapshot(c), { replace: 'yes' });
    // @ts-expect-error an unknown option
    restoreSnapshot(c, takeSnapshot(c), { merge: true });
    expectTypeOf<RestoreOptions['replace']>().toEqualTypeOf<boolean | undefined>();
  });

  it('both take the controller first', () => {
    // @ts-expect-error the controller comes first
    takeSnapshot({ invalid: true });
    // @ts-expect-error the controller comes first
    restoreSnapshot(takeSnapshot(c), c);
  });

  it('StateChanges lists records and request keys, or all', () => {
    expectTypeOf<StateChanges['entities']>().toEqualTypeOf<readonly (readonly [string, string])[] | 'all'>();
    expectTypeOf<StateChanges['endpoints']>().toEqualTypeOf<readonly string[] | 'all'>();
  });

  it('SnapshotError is a TypeError naming where the snapshot is wrong', () => {
    expectTypeOf<SnapshotError>().toExtend<TypeError>();
    expectTypeOf<SnapshotError['path']>().toEqualTypeOf<string>();
    expectTypeOf<SnapshotError['detail']>().toEqualTypeOf<string>();
    expectTypeOf<SnapshotError['name']>().toEqualTypeOf<'SnapshotError'>();
  });
});
