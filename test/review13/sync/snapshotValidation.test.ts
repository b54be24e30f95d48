/**
 * A snapshot from another tab, a persisted save or any `restoreSnapshot` runs the entity validators a response
 * runs (`static validator`, `static validate`) on the records it brings, for the entity classes this build
 * uses: a record that fails refuses the whole snapshot with a `SnapshotError` naming the record and the issue
 * (as a response that fails writes nothing), so the store keeps what it holds; sync ignores the message with
 * its warning, persist drops the save as it drops any snapshot it cannot restore.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Controller, Entity, SnapshotError, restoreSnapshot, takeSnapshot } from '../../../core/index.js';
import type { StandardSchemaV1 } from '../../../core/schema/standard.js';
import { syncTabs, type SyncChannel } from '../../../adapters/sync/index.js';
import { persist, type PersistStorage } from '../../../adapters/persist/index.js';

/** A hand-written Standard Schema: `title` must be a string. */
const titleIsString: StandardSchemaV1 = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value) =>
      typeof (value as { title?: unknown }).title === 'string'
        ? { value }
        : { issues: [{ message: 'expected a string', path: ['title'] }] },
  },
};

class Note extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Note';
  static override validator = titleIsString;
}

class Score extends Entity {
  id = 0;
  points = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Score';
  static override validate(processed: Readonly<Record<string, unknown>>) {
    return typeof processed.points === 'number' && processed.points >= 0 ? undefined : 'points must be >= 0';
  }
}

/** The same table as `Note` in a build without its validator (another release, a forged save). */
class LooseNote extends Entity {
  id = 0;
  title = '' as unknown;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Note';
}

let warn: ReturnType<typeof vi.fn<(...args: unknown[]) => void>>;
beforeEach(() => {
  warn = vi.fn();
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith('controller.')) warn(...args);
  });
});
afterEach(() => vi.restoreAllMocks());

/** A controller that has used Note and Score (holding one valid record of each). */
function holding() {
  const controller = new Controller({ retry: 0, gcTime: Infinity, environment: {} });
  controller.set(Note, { id: 1, title: 'kept' });
  controller.set(Score, { id: 1, points: 3 });
  return controller;
}

/** A snapshot holding `records` of `table`, written now. */
function snapshotOf(table: string, records: Record<string, object>) {
  const now = Date.now() + 1;
  const times = { date: now, fetchedAt: now, expiresAt: now + 60_000 };
  return {
    entities: { [table]: records },
    entitiesMeta: { [table]: Object.fromEntries(Object.keys(records).map((pk) => [pk, times])) },
    endpoints: {},
    meta: {},
  };
}

const caught = (run: () => void): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('restoreSnapshot runs the entity validators', () => {
  it('a record failing a static validator refuses the snapshot with a SnapshotError naming it; the store is unchanged', () => {
    const controller = holding();
    const before = controller.getState();
    const error = caught(() =>
      restoreSnapshot(controller, snapshotOf('Note', { 1: { id: 1, title: 42 }, 2: { id: 2, title: 'fine' } })),
    );
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as SnapshotError).path).toBe('entities.Note.1');
    expect((error as SnapshotError).message).toMatch(/^restoreSnapshot: entities\.Note\.1: .*expected a string/);
    expect(controller.getState()).toBe(before);
    expect(controller.get(Note, { id: 1 })?.title).toBe('kept');
    controller.dispose();
  });

  it('a record failing static validate() too; valid records of both restore', () => {
    const controller = holding();
    const before = controller.getState();
    const error = caught(() => restoreSnapshot(controller, snapshotOf('Score', { 1: { id: 1, points: -5 } })));
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as SnapshotError).path).toBe('entities.Score.1');
    expect((error as SnapshotError).message).toContain('points must be >= 0');
    expect(controller.getState()).toBe(before);
    restoreSnapshot(controller, snapshotOf('Score', { 1: { id: 1, points: 7 } }));
    restoreSnapshot(controller, snapshotOf('Note', { 2: { id: 2, title: 'new' } }));
    expect(controller.get(Score, { id: 1 })?.points).toBe(7);
    expect(controller.get(Note, { id: 2 })?.title).toBe('new');
    controller.dispose();
  });
});

describe('what is not checked', () => {
  class Author extends Entity {
    id = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'Author';
  }
  /** Its validator checks the response's shape: an author object, which the store keeps as its pk. */
  class Book extends Entity {
    id = 0;
    author = Author.fromJS();
    pk() {
      return `${this.id}`;
    }
    static override key = 'Book';
    static override schema = { author: Author };
    static override validator: StandardSchemaV1 = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) =>
          typeof (value as { author?: unknown }).author === 'object'
            ? { value }
            : { issues: [{ message: 'expected an author object', path: ['author'] }] },
      },
    };
  }

  it("a class that nests entities: its validator (of the response's shape) is not run on stored records", () => {
    const controller = new Controller({ environment: {} });
    controller.set(Book, { id: 1, author: { id: 7 } });
    const snapshot = takeSnapshot(controller);
    expect(snapshot.entities.Book?.['1']).toMatchObject({ author: '7' });
    const other = new Controller({ environment: {} });
    restoreSnapshot(other, snapshot);
    expect(other.get(Book, { id: 1 })?.author.id).toBe(7);
    controller.dispose();
    other.dispose();
  });

  it('a table of a class this build has not used yet is taken as it is (reads still run static validate)', () => {
    class Unused extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Unused';
      static override validate() {
        return 'never valid';
      }
    }
    const controller = new Controller({ environment: {} });
    restoreSnapshot(controller, snapshotOf('Unused', { 1: { id: 1 } }));
    expect(controller.getState().entities.Unused?.['1']).toEqual({ id: 1 });
    expect(controller.get(Unused, { id: 1 })).toBeUndefined();
    controller.dispose();
  });
});

describe('sync and persist', () => {
  it('sync: a message with a record its validator refuses is ignored with a warning naming it; the tab keeps its record', () => {
    const controller = holding();
    const channel: SyncChannel = { postMessage: () => {}, close: () => {}, onmessage: null };
    const stop = syncTabs(controller, { channel });
    const before = controller.getState();
    const message = {
      format: 'rx-rest/sync@1',
      version: 2,
      from: 'another tab',
      kind: 'snapshot',
      snapshot: snapshotOf('Note', { 1: { id: 1, title: 42 } }),
    };
    channel.onmessage!({ data: message } as MessageEvent);
    expect(controller.getState()).toBe(before);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe('rx-rest/sync:');
    expect(warn.mock.calls[0]![1]).toMatch(
      /^ignored a message with a snapshot it cannot restore \(entities\.Note\.1: /,
    );
    expect(warn.mock.calls[0]![2]).toBe(message);
    expect(controller.get(Note, { id: 1 })?.title).toBe('kept');
    stop();
    controller.dispose();
  });

  it('persist: a save holding a record its validator refuses is dropped (removed) with a warning; the store keeps its data', async () => {
    const saved = new Map<string, string>();
    const storage: PersistStorage = {
      getItem: (key) => saved.get(key) ?? null,
      setItem: (key, value) => void saved.set(key, value),
      removeItem: (key) => void saved.delete(key),
    };
    // another release (or a forged save) wrote a Note whose title is no string
    const old = new Controller({ environment: {}, gcTime: Infinity });
    const stopOld = persist(old, { storage });
    old.set(LooseNote, { id: 1, title: 42 });
    stopOld();
    old.dispose();
    expect(saved.get('rx-rest')).toContain('"title":42');
    const controller = holding();
    const before = controller.getState();
    const stop = persist(controller, { storage });
    await Promise.resolve();
    expect(controller.getState()).toBe(before);
    expect(controller.get(Note, { id: 1 })?.title).toBe('kept');
    expect(saved.has('rx-rest') ? saved.get('rx-rest') : '').not.toContain('"title":42');
    expect(warn.mock.calls.map((call) => String(call[0]))).toContainEqual(
      expect.stringMatching(
        /^rx-rest\/persist: the save under 'rx-rest' holds a snapshot that cannot be restored \(restoreSnapshot: entities\.Note\.1: .*expected a string/,
      ),
    );
    stop();
    controller.dispose();
    expect(takeSnapshot(controller).entities.Note?.['1']).toMatchObject({ title: 'kept' });
  });
});
