/**
 * A write is all or nothing: a response that fails partway through normalizing (its third record
 * rejected) changes nothing in the store, whether or not a state was handed out since the last write
 * (between two hand-outs the store writes its own tables in place).
 */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Controller, Entity, NormalizeError, createResource, normalize } from '../../core/index.js';
import { API, answerNext, record, settled, useTodoServer } from './faultHarness.js';

const fake = useTodoServer();

/** A todo whose `static validate` rejects a title of `'bad'`. */
class CheckedTodo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  createdAt = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'CheckedTodo';
  static override validate(processed: Readonly<Record<string, unknown>>) {
    return processed.title === 'bad' ? 'the title is bad' : undefined;
  }
}

const Checked = createResource({ urlPrefix: API, path: '/todos/:id', schema: CheckedTodo });

/** The records of the table as plain JSON, by pk. */
const table = (controller: Controller) =>
  JSON.parse(JSON.stringify(controller.getState().entities.CheckedTodo)) as Record<string, { title: string }>;

describe('a response that fails partway through normalizing', () => {
  it('writes none of its records, though the store owned its tables (no state handed out since the last write)', async () => {
    let now = 1_000;
    const controller = new Controller({ retry: 0, now: () => now });
    await controller.fetch(Checked.getList);
    // the next write copies the table, and the store owns the copy: until the next hand-out it is written in place
    fake.todos.get(4)!.title = 'changed 4';
    await controller.fetch(Checked.get, { id: 4 });
    const before = JSON.parse(JSON.stringify(controller.getResponse(Checked.getList).data)) as unknown;
    now += 61_000;
    answerNext(fake, 'get', '/todos', () =>
      HttpResponse.json([
        { id: 1, userId: 1, title: 'new 1', completed: true, createdAt: '' },
        { id: 2, userId: 2, title: 'new 2', completed: true, createdAt: '' },
        { id: 3, userId: 1, title: 'bad', completed: true, createdAt: '' },
        { id: 4, userId: 2, title: 'new 4', completed: true, createdAt: '' },
      ]),
    );
    const error = await controller.fetch(Checked.getList).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NormalizeError);
    expect((error as Error).message).toContain('the title is bad');
    expect(JSON.parse(JSON.stringify(controller.getResponse(Checked.getList).data))).toEqual(before);
    expect(Object.values(table(controller)).map((todo) => todo.title)).toEqual([
      'todo 1',
      'todo 2',
      'todo 3',
      'changed 4',
    ]);
  });

  it('leaves an observer its data, the same objects', async () => {
    let now = 1_000;
    const controller = new Controller({ retry: 0, now: () => now });
    const stream = record(controller.observe(Checked.getList));
    await settled(() => expect(stream.last().data).toHaveLength(4));
    const data = stream.last().data!;
    now += 61_000;
    answerNext(fake, 'get', '/todos', () =>
      HttpResponse.json([
        { id: 1, title: 'new 1' },
        { id: 2, title: 'new 2' },
        { id: 3, title: 'bad' },
      ]),
    );
    await controller.fetch(Checked.getList).catch(() => undefined);
    // the error replaces the data on screen (a NormalizeError is not transient), but the store kept it whole
    expect(controller.getResponse(Checked.getList).data).toEqual(data);
    expect(controller.getResponse(Checked.get, { id: 1 }).data!.title).toBe('todo 1');
    stream.unsubscribe();
  });

  it('normalize itself leaves the tables it was given alone', () => {
    const first = normalize(
      [CheckedTodo],
      [
        { id: 1, title: 'a' },
        { id: 2, title: 'b' },
      ],
    );
    const tables = { entities: first.entities, entitiesMeta: first.entitiesMeta };
    const copy = JSON.parse(JSON.stringify(tables)) as unknown;
    expect(() =>
      normalize(
        [CheckedTodo],
        [
          { id: 1, title: 'x' },
          { id: 2, title: 'y' },
          { id: 3, title: 'bad' },
        ],
        [],
        tables,
      ),
    ).toThrow(NormalizeError);
    expect(JSON.parse(JSON.stringify(tables))).toEqual(copy);
  });
});
