/**
 * Two edges of the first-use check of restored records (core/store/snapshotRecords.ts `checkLater`, after
 * test/review14/life/uncheckedRestore.test.ts): a refused record read past the depth limit (`maxEntityDepth`: read
 * shallow), and a partial write that is the class's first use, onto a refused record. Neither may serve what the
 * class's checks refused, nor keep it in the store.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint, restoreSnapshot } from '../../../core/index.js';
import { captureWarnings, nameIsText as nameCheck, useServer } from '../../fixtures/uncheckedRecords.js';

const API = 'http://unchecked-edges.test';
useServer(
  http.patch(`${API}/gadgets/:id`, async ({ params, request }) =>
    HttpResponse.json({ id: Number(params.id), ...((await request.json()) as object) }),
  ),
);
const warn = captureWarnings();

/** `name`, when given, must be a string (a partial value passes). */
const nameIsText = nameCheck({ partial: true });

let classes = 0;
const meta = () => {
  const now = Date.now();
  return { date: now, fetchedAt: now, expiresAt: now + 60_000 };
};

describe('a refused record read past the depth limit', () => {
  it('a chain whose refused link is read shallow: the link reads as missing, never with its refused value', async () => {
    const key = `Link${++classes}`;
    class Link extends Entity {
      id = 0;
      name = '';
      next: Link | undefined = undefined;
      pk() {
        return `${this.id}`;
      }
      static override key = key;
      static override maxEntityDepth = 1;
      static override schema = { next: Link };
      static override validate(record: Readonly<Record<string, unknown>>) {
        return typeof record.name === 'string' ? undefined : 'name: expected a string';
      }
    }
    const c = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
    restoreSnapshot(c, {
      entities: {
        [key]: { 1: { id: 1, name: 'one', next: '2' }, 2: { id: 2, name: 42, next: '3' }, 3: { id: 3, name: 'three' } },
      },
      entitiesMeta: { [key]: { 1: meta(), 2: meta(), 3: meta() } },
      endpoints: {},
      meta: {},
    });
    const get = new RestEndpoint({ urlPrefix: API, path: '/links/:id', schema: Link });
    const read = c.getResponse(get, { id: 1 }).data as Link | undefined;
    // every record read: none serves the refused name
    const names: unknown[] = [];
    for (let link: unknown = read; link && typeof link === 'object'; link = (link as Link).next)
      names.push((link as Link).name);
    expect(names).not.toContain(42);
    expect(c.get(Link, { id: 2 })).toBeUndefined();
    await Promise.resolve();
    expect(Object.keys(c.getState().entities[key]!).sort()).toEqual(['1', '3']);
    c.dispose();
  });
});

describe('a partial write that is the first use, onto a refused record', () => {
  for (const how of ['a PATCH response', 'controller.set'] as const)
    for (const readFirst of [false, true])
      it(`${how}${readFirst ? ' right after a first read' : ''}: the refused fields are neither served nor kept; the written fields are`, async () => {
        const key = `Gadget${++classes}`;
        class Gadget extends Entity {
          id = 0;
          name = '';
          size = 0;
          pk() {
            return `${this.id}`;
          }
          static override key = key;
          static override validator = nameIsText;
        }
        const c = new Controller({ retry: 0, environment: {}, gcTime: Infinity });
        restoreSnapshot(c, {
          entities: { [key]: { 1: { id: 1, name: 'one', size: 1 }, 2: { id: 2, name: 42, size: 2 } } },
          entitiesMeta: { [key]: { 1: meta(), 2: meta() } },
          endpoints: {},
          meta: {},
        });
        const seen: unknown[] = [];
        const sub = c.actions$.subscribe(() => seen.push(c.get(Gadget, { id: 2 })?.name));
        if (readFirst) seen.push(c.get(Gadget, { id: 2 })?.name);
        if (how === 'controller.set') c.set(Gadget, { id: 2, size: 5 });
        else {
          const patch = new RestEndpoint({
            urlPrefix: API,
            path: '/gadgets/:id',
            method: 'PATCH',
            schema: Gadget,
            body: {} as { size: number },
          });
          expect(await c.fetch(patch, { id: 2 }, { size: 5 })).toMatchObject({ id: 2, size: 5 });
        }
        const right = c.get(Gadget, { id: 2 });
        await Promise.resolve();
        await Promise.resolve();
        sub.unsubscribe();
        expect(seen).not.toContain(42);
        expect(right?.name).not.toBe(42);
        const stored = c.getState().entities[key]?.['2'] as Record<string, unknown> | undefined;
        expect(stored?.name).not.toBe(42);
        expect(stored?.size).toBe(5);
        expect(c.get(Gadget, { id: 2 })?.size).toBe(5);
        expect(c.get(Gadget, { id: 2 })?.name).not.toBe(42);
        expect(c.get(Gadget, { id: 1 })?.name).toBe('one');
        expect(warn.mock.calls.some(([text]) => String(text).includes(`entities.${key}.2`))).toBe(true);
        c.dispose();
      });
});
