/**
 * The `reconcile` option of rx-rest/solid: each entity of a query's data as a row that lives as long as
 * the query (keyed by its class and pk) and reads the entity's latest record. `<For>` then keeps a
 * changed row's DOM (its focus, an input's value) and re-renders only what read the fields that changed,
 * as solid-query's `reconcile` keyed by id does.
 *
 * A row is a read-only proxy over the cache's object (no copy): every write (a field, the prototype, `Object.freeze`)
 * throws a named TypeError and changes nothing; a spread is a plain copy of its fields. Whatever reads one of its fields in a
 * tracking scope subscribes to one signal of the row (made on the first such read), unless that field
 * has a signal of its own: a field gets one when its value changes while something tracks the row, and
 * that change notifies the row's signal (what read the field re-runs, and from then on subscribes to the
 * field's signal). A later change of the same field re-runs only what read it. A field the record does not have
 * yet, read or tested with `in`, tracks the row's signal too (its arrival notifies it), and so do its keys. A first render with rows
 * thus costs a proxy and at most one signal per row, and a change costs a signal per field it changed
 * for the first time (a long list's rows mostly never change).
 */
import { batch, createSignal, getListener } from 'solid-js';
import { keepRows } from '../../core/index.js';
import { onQueriesWait } from '../../core/internal.js';

type Fields = Record<PropertyKey, unknown>;
/** A signal read by what tracks it, written with a new number to notify it. */
type Signal = [read: () => unknown, notify: (value: number) => unknown];

/** What a row's proxy wraps: the entity's latest record, and the signals of what was read in tracking scopes. */
interface Slot {
  record: Fields;
  /** What tracked a field that has no signal of its own (made on the first tracked read). */
  whole?: Signal | undefined;
  /** A signal per field that changed while the row was tracked, made at that change. */
  fields?: Map<PropertyKey, Signal> | undefined;
}

/** Stands for the row's set of fields (`in`, `Object.keys`, spreading): never a field, so what reads it tracks the row's signal. */
const KEYS = Symbol('keys');
/** What a row answers with its slot (the module's own key: no other code reads it). */
const SLOT = Symbol('slot');

/** Each notification writes a number no signal holds yet (the signals compare with `===`: no options object per signal). */
let version = 0;

/** Subscribes what runs now (if it tracks) to `key` of the row: the field's own signal, else the row's. */
const track = (slot: Slot, key: PropertyKey) => {
  if (!getListener()) return;
  const own = slot.fields?.get(key);
  (own ?? (slot.whole ??= createSignal(0) as Signal))[0]();
};

/** A write made queries wait since a row's last read outside a tracking scope; `bring` commits the task's writes. */
let written = false;
let bring = () => {};
onQueriesWait(() => (written = true));

/**
 * What a row's read outside a tracking scope (an event handler right after a write) runs first: the task's writes
 * are committed now, as a read of a query's accessor there does, so that the row shows them.
 */
const current = () => {
  if (written && !getListener()) {
    written = false;
    bring();
  }
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
    current();
    const record = slot.record;
    if (Object.hasOwn(record, key)) {
      track(slot, key);
      return record[key];
    }
    // methods and getters of the entity's class run on the row, so what they read is tracked as well
    const prototype = Object.getPrototypeOf(record) as object;
    if (typeof key === 'string' && !(key in prototype)) track(slot, key); // a field the record may gain
    return Reflect.get(prototype, key, receiver);
  },
  has(slot, key) {
    current();
    track(slot, KEYS);
    return key in slot.record;
  },
  ownKeys(slot) {
    current();
    track(slot, KEYS);
    return Reflect.ownKeys(slot.record);
  },
  getOwnPropertyDescriptor(slot, key) {
    current();
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
  preventExtensions: () => readOnly('it non-extensible'), // freeze, seal: a non-extensible slot breaks the proxy
};

/** The row of `entity`: a proxy that reads its latest record (see `update`). */
const create = (entity: object): object => new Proxy<Slot>({ record: entity as Fields }, handler);

/**
 * `key` of a tracked row changed: notifies its own signal, or gives it one and answers true (what read
 * it tracked the row's signal, which is to be notified).
 */
const changed = (slot: Slot, key: PropertyKey): boolean => {
  const own = slot.fields?.get(key);
  if (own) return (void own[1](++version), false);
  (slot.fields ??= new Map()).set(key, createSignal(0) as Signal);
  return true;
};

/**
 * Points `row` at `entity` (the same class and pk) and notifies what read a field whose value changed;
 * a field that appears or leaves also notifies what read the row's keys (they track the row's signal).
 * Nothing when nothing tracks the row.
 */
const update = (row: object, entity: object): void => {
  const slot = (row as { [SLOT]: Slot })[SLOT];
  const before = slot.record;
  const after = entity as Fields;
  slot.record = after;
  if (!slot.whole) return; // fields get signals only while the row is tracked
  let whole = false;
  for (const key of Reflect.ownKeys(after)) {
    const had = Object.hasOwn(before, key);
    if (!had || before[key] !== after[key]) whole = changed(slot, key) || !had || whole;
  }
  for (const key of Reflect.ownKeys(before)) if (!Object.hasOwn(after, key)) whole = changed(slot, key) || true;
  if (whole) slot.whole[1](++version);
};

/**
 * Maps a query's data to the same data with its entities as rows (see `keepRows`); the cache's objects are not
 * changed. `commit` brings the task's writes to every query now (a row read outside a tracking scope runs it).
 */
export function reconcileRows(commit: () => void): <T>(data: T) => T {
  bring = commit;
  const rows = keepRows<object>({ create, update });
  return (data) => batch(() => rows(data));
}
