/**
 * Values an app writes itself (`controller.set`, `setResponse`) that JSON cannot keep: `JSON.stringify(getState())`
 * (snapshots, persist, syncTabs) would change or drop them silently (NaN and ±Infinity -> null, a Map or a Set ->
 * {}, a function or a symbol left out, `undefined` in a list -> null). API.md: "getState() output ... survives
 * JSON.stringify". In development the write warns, naming the path in the state as a SnapshotError would; the
 * store keeps the value as written (nothing lost); JSON values and values with a toJSON (a Date) say nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Entity, RestEndpoint } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';

const API = 'http://r12j.test';
const { make } = useControllers({ retry: 0, environment: {} });

class Item extends Entity {
  id = '';
  score = 0;
  extra: unknown = undefined;
  pk() {
    return this.id;
  }
  static override key = 'R12JItem';
}
const getItem = new RestEndpoint({ urlPrefix: API, path: '/items/:id', schema: Item });
const raw = new RestEndpoint({ urlPrefix: API, path: '/raw' });

afterEach(() => vi.restoreAllMocks());

const lossy: [string, unknown, RegExp][] = [
  ['NaN', NaN, /NaN.*null/],
  ['Infinity', Infinity, /Infinity.*null/],
  ['-Infinity', -Infinity, /Infinity.*null/],
  ['a Map', new Map([['k', 1]]), /Map.*\{\}/],
  ['a Set', new Set([1]), /Set.*\{\}/],
  ['a function', () => 1, /function.*left out/],
  ['a symbol', Symbol('s'), /symbol.*left out/],
];

describe('a non-JSON value written by the app warns in development, naming where it is; the store keeps it', () => {
  it.each(lossy)('set(Entity) with %s in a field', (_name, value, what) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const c = make();
    c.set(Item, { id: 'a' }, { id: 'a', extra: value });
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]![0]);
    expect(message).toContain('entities.R12JItem.a.extra');
    expect(message).toMatch(what);
    expect(message).toMatch(/JSON/);
    expect(Object.is((c.getState().entities.R12JItem!.a as Record<string, unknown>).extra, value)).toBe(true);
  });

  it('setResponse with NaN deep inside a record, and undefined inside a list', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const c = make();
    c.setResponse(getItem, { id: 'b' }, { id: 'b', extra: { nested: [1, { deep: NaN }] } } as never);
    c.setResponse(getItem, { id: 'c' }, { id: 'c', extra: [1, undefined, 3] } as never);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]![0])).toContain('entities.R12JItem.b.extra.nested.1.deep');
    expect(String(warn.mock.calls[1]![0])).toContain('entities.R12JItem.c.extra.1');
    expect(String(warn.mock.calls[1]![0])).toMatch(/undefined.*null/);
    expect(c.getResponse(getItem, { id: 'c' }).data!.extra).toEqual([1, undefined, 3]);
  });

  it('setResponse of an endpoint without a schema names the result path', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const c = make();
    c.setResponse(raw, {}, { total: Infinity });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain(`endpoints.${raw.key({})}.total`);
    expect(c.getResponse(raw, {}).data).toEqual({ total: Infinity });
  });

  it('JSON values, a Date and a nested undefined field say nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const c = make();
    c.set(
      Item,
      { id: 'd' },
      { id: 'd', score: 1.5, extra: { at: new Date(0), list: [null, 'x', { y: true }], gone: undefined } },
    );
    c.setResponse(raw, {}, { total: 3, list: [] });
    c.set([Item], [{ id: 'e', score: -0 }]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('a callback kept in a record is reported on its first write only; a NaN on every write that leaves it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const c = make();
    const onOpen = () => 'opened';
    c.set(Item, { id: 'h' }, { id: 'h', extra: onOpen });
    c.set(Item, { id: 'h' }, { id: 'h', score: 2 }); // merged: the record still holds the callback
    expect(warn).toHaveBeenCalledTimes(1);
    expect((c.getState().entities.R12JItem!.h as Record<string, unknown>).extra).toBe(onOpen);
    c.set(Item, { id: 'h' }, { id: 'h', score: NaN });
    c.set(Item, { id: 'h' }, { id: 'h', score: NaN });
    expect(warn).toHaveBeenCalledTimes(2); // the second NaN write changed nothing: no write, no warning
    expect(String(warn.mock.calls[1]![0])).toContain('entities.R12JItem.h.score');
  });

  it('in production nothing is looked at or said', () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const c = make();
      c.set(Item, { id: 'g' }, { id: 'g', score: NaN });
      expect(warn).not.toHaveBeenCalled();
      expect((c.getState().entities.R12JItem!.g as Record<string, unknown>).score).toBeNaN();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
