/**
 * A partial `controller.set` made while a plain GET of that record (or of a list holding it) is in flight, with no
 * mutation running. The GET's answer was read by the server before the set was made, so it is older than the set:
 * the set's field survives it. The answer's other fields are newer than what the store held before the request, so
 * they apply (as they would field by field in TanStack Query's `setQueryData` + refetch, or Data Client's merge of a
 * record with field times).
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { Todo, TodoResource, shown, stored, todo, until, useLiveServer } from '../../review12/live/harness.js';

const live = useLiveServer();

/** A controller holding todos 1 ('a') and 2 ('two'); the server holds every later request. */
async function loaded(): Promise<Controller> {
  live.todos.set(1, todo(1, 'a'));
  live.todos.set(2, todo(2, 'two'));
  const c = new Controller();
  await c.fetch(TodoResource.getList);
  live.hold.on = true;
  return c;
}

const gets = [
  ['GET /todos/1', (c: Controller) => c.fetch(TodoResource.get, { id: 1 }), (title: string) => todo(1, title)],
  [
    'GET /todos (a list holding it)',
    (c: Controller) => c.fetch(TodoResource.getList),
    (title: string) => [todo(1, title), todo(2, 'two renamed')],
  ],
] as const;

describe('controller.set of one field while a GET of its record is in flight', () => {
  for (const [name, get, answer] of gets) {
    it(`${name}: the set's field survives the older answer, the answer's other fields apply`, async () => {
      const c = await loaded();
      const request = get(c);
      await until(() => live.held.length === 1);
      c.set(Todo, { id: 1 }, { id: 1, completed: true });
      expect(shown(c)).toEqual({ title: 'a', completed: true });
      // the server read the record before the set: another client had renamed it meanwhile
      live.held[0]!.json(answer('renamed on the server'));
      await request;
      expect(stored(c)).toEqual({ title: 'renamed on the server', completed: true });
      expect(shown(c)).toEqual({ title: 'renamed on the server', completed: true });
      expect(c.getResponse(TodoResource.get, { id: 1 }).data).toMatchObject({
        title: 'renamed on the server',
        completed: true,
      });
      if (name.startsWith('GET /todos ')) expect(stored(c, 2)).toEqual({ title: 'two renamed', completed: false });
      c.dispose();
    });
  }

  it('a GET sent after the set is newer than it: its answer wins every field', async () => {
    const c = await loaded();
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    const request = c.fetch(TodoResource.get, { id: 1 });
    await until(() => live.held.length === 1);
    live.held[0]!.json(todo(1, 'b', false));
    await request;
    expect(stored(c)).toEqual({ title: 'b', completed: false });
    c.dispose();
  });

  it('two sets of different fields during one GET: both survive it, the answer fills the rest', async () => {
    live.todos.set(1, { ...todo(1, 'a'), note: 'n' } as never);
    const c = new Controller();
    await c.fetch(TodoResource.get, { id: 1 });
    live.hold.on = true;
    const request = c.fetch(TodoResource.get, { id: 1 });
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    c.set(Todo, { id: 1 }, { id: 1, title: 'local' });
    live.held[0]!.json({ id: 1, title: 'server', completed: false, note: 'server note' });
    await request;
    expect(c.getState().entities['Todo']?.['1']).toEqual({
      id: 1,
      title: 'local',
      completed: true,
      note: 'server note',
    });
    c.dispose();
  });

  it('a later GET answered after the older one: its whole record wins again (no field stamp lingers)', async () => {
    const c = await loaded();
    const first = c.fetch(TodoResource.get, { id: 1 });
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    live.held[0]!.json(todo(1, 'server'));
    await first;
    const second = c.fetch(TodoResource.get, { id: 1 });
    await until(() => live.held.length === 2);
    live.held[1]!.json(todo(1, 'server', false));
    await second;
    expect(stored(c)).toEqual({ title: 'server', completed: false });
    c.dispose();
  });

  it('an older GET answered after a newer one that wrote the whole record: nothing of it is written', async () => {
    const c = await loaded();
    const first = c.fetch(TodoResource.getList);
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 1 }, { id: 1, completed: true });
    const second = c.fetch(TodoResource.get, { id: 1 });
    await until(() => live.held.length === 2);
    live.held[1]!.json(todo(1, 'newest', false));
    await second;
    live.held[0]!.json([todo(1, 'oldest', true), todo(2, 'two')]);
    await first;
    expect(stored(c)).toEqual({ title: 'newest', completed: false });
    c.dispose();
  });

  it('setResponse of a partial record while a GET of it is in flight: the same rule as set', async () => {
    const c = await loaded();
    const request = c.fetch(TodoResource.getList);
    await until(() => live.held.length === 1);
    c.setResponse(TodoResource.get, { id: 1 }, { id: 1, completed: true });
    live.held[0]!.json([todo(1, 'renamed on the server'), todo(2, 'two')]);
    await request;
    expect(stored(c)).toEqual({ title: 'renamed on the server', completed: true });
    c.dispose();
  });

  it('a `__proto__` field written field by field stays plain data', async () => {
    const c = await loaded();
    const request = c.fetch(TodoResource.get, { id: 1 });
    await until(() => live.held.length === 1);
    c.set(Todo, { id: 1 }, JSON.parse('{ "id": 1, "__proto__": { "polluted": true } }'));
    live.held[0]!.json(
      JSON.parse('{ "id": 1, "title": "server", "completed": false, "__proto__": { "older": true } }'),
    );
    await request;
    const record = c.getState().entities['Todo']?.['1'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(record, '__proto__')?.value).toEqual({ polluted: true });
    expect(record['title']).toBe('server');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    c.dispose();
  });
});
