import { describe, expectTypeOf, it } from 'vitest';
import { EntityMixin, query, schema, type Denormalize, type EntityTables } from '../../core/index.js';
import { Todo, User } from '../fixtures/entities.js';
import { Link, Post } from '../fixtures/feedItems.js';

declare const entities: EntityTables;

describe('types of the schema families', () => {
  it('a Union reads as the union of its members, alone and in lists, collections, Values and All', () => {
    const item = new schema.Union({ link: Link, post: Post }, 'type');
    expectTypeOf<Denormalize<typeof item>>().toEqualTypeOf<Link | Post>();
    expectTypeOf<Denormalize<typeof item>>().not.toEqualTypeOf<Link>();
    const list = new schema.Array(item);
    expectTypeOf<Denormalize<typeof list>>().toEqualTypeOf<(Link | Post)[]>();
    const polymorphic = new schema.Array({ link: Link, post: Post }, 'type');
    expectTypeOf<Denormalize<typeof polymorphic>>().toEqualTypeOf<(Link | Post)[]>();
    const feed = new schema.Collection(item);
    expectTypeOf<Denormalize<typeof feed>>().toEqualTypeOf<(Link | Post)[]>();
    const mixed = new schema.Values({ link: Link, post: Post }, (value) => String(value.type));
    const byFunction = new schema.Array({ link: Link, post: Post }, (value) => String(value.type));
    expectTypeOf<Denormalize<typeof byFunction>>().toEqualTypeOf<(Link | Post)[]>();
    expectTypeOf<Denormalize<typeof mixed>>().toEqualTypeOf<Record<string, Link | Post>>();
    const every = new schema.All({ link: Link, post: Post }, 'type');
    expectTypeOf<Denormalize<typeof every>>().toEqualTypeOf<(Link | Post)[]>();
    // @ts-expect-error a Union needs its attribute
    new schema.Union({ link: Link, post: Post });
  });

  it('Values and All of one entity read as its instances', () => {
    const byId = new schema.Values(User);
    expectTypeOf<Denormalize<typeof byId>>().toEqualTypeOf<Record<string, User>>();
    const all = new schema.All(Todo);
    expectTypeOf<Denormalize<typeof all>>().toEqualTypeOf<Todo[]>();
  });

  it("a Query reads as its function's return type, its function sees the read value and the args", () => {
    const counts = new schema.Query(new schema.All(Todo), (todos, filter: { userId?: number } = {}) => {
      expectTypeOf(todos).toEqualTypeOf<Todo[]>();
      const mine = todos.filter((todo) => filter.userId === undefined || todo.userId === filter.userId);
      return { total: mine.length, done: mine.filter((todo) => todo.completed).length };
    });
    expectTypeOf<Denormalize<typeof counts>>().toEqualTypeOf<{ total: number; done: number }>();
    const read = query(counts, [{ userId: 1 }], entities);
    expectTypeOf(read.data).toEqualTypeOf<{ total: number; done: number } | undefined>();
    // @ts-expect-error the function's first parameter is what the schema reads
    new schema.Query(new schema.All(Todo), (todos: User[]) => todos.length);
  });

  it('query of an Entity reads as its instance', () => {
    expectTypeOf(query(User, [{ id: '1' }], entities).data).toEqualTypeOf<User | undefined>();
  });

  it('EntityMixin keeps the base instance type and adds the Entity statics', () => {
    class Article {
      id = '';
      title = '';
    }
    const ArticleEntity = EntityMixin(Article, { key: 'Article', pk: 'id' });
    expectTypeOf<Denormalize<typeof ArticleEntity>>().toMatchTypeOf<Article>();
    expectTypeOf(ArticleEntity.key).toEqualTypeOf<string>();
    expectTypeOf(ArticleEntity.pk).toBeFunction();
    // @ts-expect-error pk names a field of the class
    EntityMixin(Article, { pk: 'slug' });
  });
});
