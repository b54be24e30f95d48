/**
 * `schemaTables` (the GET-during-mutation rule, Requests#readBefore): the entity tables a schema can write, at any
 * depth: nested entity fields, members, items, and the schemas inside the schema classes.
 */
import { describe, expect, it } from 'vitest';
import { Entity, createResource, schema } from '../../../core/index.js';
import { schemaTables } from '../../../core/schema/index.js';

class User extends Entity {
  id = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'User';
}
class Todo extends Entity {
  id = 0;
  owner = User.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
  static override schema = { owner: User };
}
class Tag extends Entity {
  id = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Tag';
}

const tables = (value: unknown) => [...schemaTables(value)].sort();

describe('schemaTables', () => {
  it("a resource's members: the entity and the ones nested in it", () => {
    const todos = createResource({ urlPrefix: 'http://tables.test', path: '/todos/:id', schema: Todo });
    expect(tables(todos.get.schema)).toEqual(['Todo', 'User']);
    expect(tables(todos.getList.schema)).toEqual(['Todo', 'User']);
    expect(tables(todos.getList.push.schema)).toEqual(['Todo', 'User']);
    expect(tables(todos.partialUpdate.schema)).toEqual(['Todo', 'User']);
    // an Invalidate writes its entity's own table only (test/review14/order/deleteNesting.test.ts)
    expect(tables(todos.delete.schema)).toEqual(['Todo']);
  });

  it('schema classes, objects and lists', () => {
    expect(tables(new schema.Invalidate(Tag))).toEqual(['Tag']);
    expect(tables(new schema.Union({ a: Tag, b: User }, 'type'))).toEqual(['Tag', 'User']);
    expect(tables(new schema.Collection(new schema.Values(Tag)))).toEqual(['Tag']);
    expect(tables(new schema.All(Todo))).toEqual(['Todo', 'User']);
    expect(tables({ page: { results: [Tag] }, total: 0 })).toEqual(['Tag']);
  });

  it('none for a value that is no schema object, and the same set again for one schema', () => {
    expect(tables(undefined)).toEqual([]);
    expect(tables(null)).toEqual([]);
    expect(tables('Todo')).toEqual([]);
    const list = [Todo];
    expect(schemaTables(list)).toBe(schemaTables(list));
  });
});
