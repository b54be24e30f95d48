/** controller.set([Entity], rows): the rows are typed from the list (each record's JSON, every field optional). */
import { describe, expectTypeOf, it } from 'vitest';
import { Controller, Entity, schema, type EntityList, type SetRows } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { FeedItem as Item, Link, Post } from '../fixtures/feedItems.js';

const controller = new Controller();

describe('controller.set(list, rows)', () => {
  it('takes partial JSON rows of the entity ([Todo] and new schema.Array(Todo))', () => {
    controller.set(
      [Todo],
      [
        { id: 1, completed: true },
        { id: 2, title: 'b', createdAt: '2024-01-01T00:00:00Z' },
      ],
    );
    controller.set(new schema.Array(Todo), [{ id: 1, title: 'a' }]);
    expectTypeOf<SetRows<[typeof Todo]>>().toEqualTypeOf<
      readonly {
        id?: number;
        userId?: number;
        title?: string;
        completed?: boolean;
        createdAt?: string;
      }[]
    >();
    expectTypeOf<[typeof Todo]>().toExtend<EntityList>();
    expectTypeOf(controller.set([Todo], [])).toBeVoid();
  });

  it('rejects rows of the wrong shape and lists of anything but entities', () => {
    // @ts-expect-error a field of the wrong type
    controller.set([Todo], [{ id: 1, completed: 'yes' }]);
    // @ts-expect-error a field the entity does not have
    controller.set([Todo], [{ id: 1, done: true }]);
    // @ts-expect-error rows are a list, not one record
    controller.set([Todo], { id: 1 });
    // @ts-expect-error new schema.Array(Todo) takes rows too
    controller.set(new schema.Array(Todo), [{ id: 'one' }]);
    // @ts-expect-error a list of an object schema is not a list of entities
    controller.set([{ todo: Todo }], [{ todo: { id: 1 } }]);
  });

  it('a list of a Union takes rows of any member', () => {
    controller.set(
      [Item],
      [
        { id: 1, type: 'link', url: 'https://example.test' },
        { id: 2, type: 'post', title: 'b' },
      ],
    );
    controller.set(new schema.Array({ link: Link, post: Post }, 'type'), [{ id: 3, type: 'post' }]);
    // @ts-expect-error a field no member has the type of
    controller.set([Item], [{ id: 1, url: 5 }]);
  });

  it('single set keeps its signature', () => {
    controller.set(Todo, { id: 1 }, { id: 1, completed: true });
    controller.set(Todo, { id: 1, title: 'no arguments' });
  });
});
