/** Types of rx-rest/persist: the storages it takes, its options and what it returns. */
import { describe, expectTypeOf, it } from 'vitest';
import { Controller, type ControllerManager, type StateSnapshot } from 'rx-rest';
import { persist, type PersistStorage, type PersistedState, type Persistence } from 'rx-rest/persist';

const controller = new Controller();

describe('persist', () => {
  it('takes localStorage, sessionStorage and asynchronous storages', () => {
    expectTypeOf(persist(controller, { storage: localStorage })).toEqualTypeOf<Persistence>();
    persist(controller, { storage: sessionStorage, key: 'todos', version: 2, maxAge: 86_400_000, throttle: 500 });
    persist(controller, { storage: localStorage, version: 'v2' });
    const idb = {
      getItem: (key: string) => Promise.resolve<string | undefined>(key),
      setItem: (_key: string, _value: string) => Promise.resolve(),
      removeItem: (_key: string) => Promise.resolve(),
    };
    persist(controller, { storage: idb });
    expectTypeOf(idb).toExtend<PersistStorage>();
  });

  it('refuses what is no storage and options of the wrong type', () => {
    // the storage is optional: localStorage in a browser, nothing on a server
    persist(controller, {});
    persist(controller);
    // @ts-expect-error a storage without removeItem
    persist(controller, { storage: { getItem: () => null, setItem: () => undefined } });
    // @ts-expect-error values are strings
    persist(controller, { storage: { getItem: () => 1, setItem: () => undefined, removeItem: () => undefined } });
    // @ts-expect-error the key is a string
    persist(controller, { storage: localStorage, key: 1 });
    // @ts-expect-error maxAge is in ms
    persist(controller, { storage: localStorage, maxAge: '1 day' });
    // @ts-expect-error an unknown option
    persist(controller, { storage: localStorage, serialize: JSON.stringify });
  });

  it('returns a teardown with restored and flush, and is a manager', () => {
    const stop = persist(controller, { storage: localStorage });
    expectTypeOf(stop()).toEqualTypeOf<void>();
    expectTypeOf(stop.restored).toEqualTypeOf<Promise<boolean>>();
    expectTypeOf(stop.flush()).toEqualTypeOf<Promise<void>>();
    const manager: ControllerManager = (c) => persist(c, { storage: localStorage });
    new Controller({ managers: [manager, (c) => persist(c, { storage: sessionStorage, key: 'session' })] });
  });

  it('saves an envelope around a snapshot', () => {
    expectTypeOf<PersistedState['format']>().toEqualTypeOf<'rx-rest'>();
    expectTypeOf<PersistedState['state']>().toEqualTypeOf<StateSnapshot>();
    expectTypeOf<PersistedState['savedAt']>().toEqualTypeOf<number>();
    expectTypeOf<PersistedState['version']>().toEqualTypeOf<string | number | undefined>();
  });
});
