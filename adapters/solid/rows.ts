/**
 * The `reconcile` option of rx-rest/solid: each entity of a query's data as a row that lives as long as
 * the query (keyed by its class and pk) and reads the entity's latest record. `<For>` then keeps a
 * changed row's DOM (its focus, an input's value) and re-renders only what read the fields that changed,
 * as solid-query's `reconcile` keyed by id does.
 *
 * A row is a read-only proxy over the cache's object (no copy). Until its record first changes, whatever
 * reads it in a tracking scope subscribes to one signal of the row (made on the first such read); the
 * first change notifies that signal, and from then on each field read has a signal of its own, so a
 * later change re-runs only what read a field whose value changed. A first render with rows thus costs a
 * proxy and at most one signal per row (a long list's rows mostly never change).
 */
import { batch, createSignal, getListener } from 'solid-js';
import { keepRows } from '../../core/index.js';

type Fields = Record<PropertyKey, unknown>;
type Signal = [read: () => unknown, notify: (value?: unknown) => unknown];

/** What a row's proxy wraps: the entity's latest record, and the signals of what was read in tracking scopes. */
interface Slot {
  record: Fields;
  /** Before the first change: one signal for every read of the row. */
  whole?: Signal | undefined;
  /** From the first change on: a signal per field read (and `KEYS`). */
  fields?: Map<PropertyKey, Signal>;
}

/** Stands for the row's set of fields (`in`, `Object.keys`, spreading). */
const KEYS = Symbol('keys');
/** What a row answers with its slot (the module's own key: no other code reads it). */
const SLOT = Symbol('slot');

const signal = (): Signal => createSignal<unknown>(undefined, { equals: false });

const track = (slot: Slot, key: PropertyKey) => {
  if (!getListener()) return;
  const fields = slot.fields;
  if (!fields) return void (slot.whole ??= signal())[0]();
  let field = fields.get(key);
  if (!field) fields.set(key, (field = signal()));
  field[0]();
};

const readOnly = (key: PropertyKey): never => {
  throw new TypeError(
    process.env.NODE_ENV !== 'production'
      ? `rx-rest/solid: a row of a query with reconcile is a read-only view of the cache (setting ${String(key)}). ` +
          'Write with controller.set or a mutation; the row follows.'
      : `rx-rest/solid: read-only row (${String(key)})`,
  );
};

const handler: ProxyHandler<Slot> = {
  get(slot, key, receiver) {
    if (key === SLOT) return slot;
    const record = slot.record;
    if (Object.hasOwn(record, key)) {
      track(slot, key);
      return record[key];
    }
    // methods and getters of the entity's class run on the row, so what they read is tracked as well
    return Reflect.get(Object.getPrototypeOf(record) as object, key, receiver);
  },
  has(slot, key) {
    track(slot, KEYS);
    return key in slot.record;
  },
  ownKeys(slot) {
    track(slot, KEYS);
    return Reflect.ownKeys(slot.record);
  },
  getOwnPropertyDescriptor(slot, key) {
    const descriptor = Reflect.getOwnPropertyDescriptor(slot.record, key);
    if (!descriptor) return undefined;
    track(slot, key);
    return { value: descriptor.value, enumerable: descriptor.enumerable, writable: false, configurable: true };
  },
  getPrototypeOf: (slot) => Object.getPrototypeOf(slot.record) as object | null,
  set: (_slot, key) => readOnly(key),
  defineProperty: (_slot, key) => readOnly(key),
  deleteProperty: (_slot, key) => readOnly(key),
  setPrototypeOf: () => readOnly('the prototype'),
};

/** The row of `entity`: a proxy that reads its latest record (see `update`). */
const create = (entity: object): object => new Proxy<Slot>({ record: entity as Fields }, handler);

/**
 * Points `row` at `entity` (the same class and pk) and notifies what read it: on the first change,
 * everything (and from then on per field); later, what read a field whose value changed.
 */
const update = (row: object, entity: object): void => {
  const slot = (row as { [SLOT]: Slot })[SLOT];
  const before = slot.record;
  const after = entity as Fields;
  slot.record = after;
  if (!slot.fields) {
    slot.fields = new Map();
    const whole = slot.whole;
    slot.whole = undefined;
    return void whole?.[1]();
  }
  for (const [key, [, notify]] of slot.fields) {
    const changed =
      key === KEYS
        ? !sameKeys(before, after)
        : before[key] !== after[key] || Object.hasOwn(before, key) !== Object.hasOwn(after, key);
    if (changed) notify();
  }
};

const sameKeys = (a: object, b: object) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key));
};

/** Maps a query's data to the same data with its entities as rows (see `keepRows`); the cache's objects are not changed. */
export function reconcileRows(): <T>(data: T) => T {
  const rows = keepRows<object>({ create, update });
  return (data) => batch(() => rows(data));
}
