import { describe, expectTypeOf, test } from 'vitest';
import { Controller, type ControllerManager } from '../../../core/index.js';
import { syncTabs, type SyncChannel, type SyncTabsOptions } from '../../../adapters/sync/index.js';

describe('rx-rest/sync types', () => {
  test('syncTabs takes a controller and options, and returns a teardown', () => {
    const controller = new Controller();
    expectTypeOf(syncTabs(controller)).toEqualTypeOf<() => void>();
    expectTypeOf(syncTabs(controller, { channel: 'todos' })).toEqualTypeOf<() => void>();
    expectTypeOf<Parameters<typeof syncTabs>[1]>().toEqualTypeOf<SyncTabsOptions | undefined>();
  });

  test('it is a controller manager as it is, or with options', () => {
    expectTypeOf(syncTabs).toExtend<ControllerManager>();
    new Controller({ managers: [syncTabs, (c) => syncTabs(c, { channel: 'todos' })] });
  });

  test('the channel: a name, a BroadcastChannel, or anything shaped like one', () => {
    const controller = new Controller();
    expectTypeOf<BroadcastChannel>().toExtend<SyncChannel>();
    syncTabs(controller, { channel: new BroadcastChannel('todos') });
    syncTabs(controller, { channel: { postMessage() {}, close() {}, onmessage: null } });
    syncTabs(controller, {
      channel: { postMessage: (message: unknown) => void message, close() {}, addEventListener() {} },
    });
    // @ts-expect-error: a channel needs close
    syncTabs(controller, { channel: { postMessage() {}, onmessage: null } });
    // @ts-expect-error: not a channel
    syncTabs(controller, { channel: 42 });
    // @ts-expect-error: a controller is required
    syncTabs({});
  });
});
