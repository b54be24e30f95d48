import { describe, expectTypeOf, it } from 'vitest';
import type { Temporal } from 'temporal-polyfill';
import {
  Entity,
  MemoCache,
  denormalize,
  schema,
  type Denormalize,
  type EntityMeta,
  type ListEdit,
  type NormalizeResult,
  type NormalizedTables,
} from '../../core/index.js';
import { Article, Comment, Todo, User } from '../fixtures/entities.js';

declare const state: NormalizedTables;

describe('Denormalize<S>', () => {
  it('maps an Entity class to its instance type', () => {
    expectTypeOf<Denormalize<typeof Todo>>().toEqualTypeOf<Todo>();
    expectTypeOf<Denormalize<typeof Todo>['createdAt']>().toEqualTypeOf<Temporal.Instant>();
    expectTypeOf<Denormalize<typeof Todo>>().not.toEqualTypeOf<User>();
  });

  it('maps arrays: [E] and schema.Array', () => {
    expectTypeOf<Denormalize<[typeof Todo]>>().toEqualTypeOf<Todo[]>();
    expectTypeOf<Denormalize<readonly [typeof Todo]>>().toEqualTypeOf<Todo[]>();
    const list = new schema.Array(Todo);
    expectTypeOf<Denormalize<typeof list>>().toEqualTypeOf<Todo[]>();
  });

  it('maps object schemas member by member, passing plain members through', () => {
    const page = { results: [Todo], total: 0, next: '' as string | null };
    expectTypeOf<Denormalize<typeof page>>().toEqualTypeOf<{ results: Todo[]; total: number; next: string | null }>();
    const explicit = new schema.Object({ results: [Todo], owner: User });
    expectTypeOf<Denormalize<typeof explicit>>().toEqualTypeOf<{ results: Todo[]; owner: User }>();
    const nested = { data: { items: [Todo] } };
    expectTypeOf<Denormalize<typeof nested>>().toEqualTypeOf<{ data: { items: Todo[] } }>();
  });

  it('keeps the class types of nested entities', () => {
    type A = Denormalize<typeof Article>;
    expectTypeOf<A['author']>().toEqualTypeOf<User>();
    expectTypeOf<A['comments']>().toEqualTypeOf<Comment[]>();
    expectTypeOf<A['comments'][number]['author']>().toEqualTypeOf<User>();
    expectTypeOf<A['editor']>().toEqualTypeOf<User | undefined>();
  });

  it('maps collections, their adders and Invalidate', () => {
    const list = new schema.Collection([Todo]);
    expectTypeOf<Denormalize<typeof list>>().toEqualTypeOf<Todo[]>();
    expectTypeOf<Denormalize<typeof list.push>>().toEqualTypeOf<Todo>();
    expectTypeOf<Denormalize<typeof list.unshift>>().toEqualTypeOf<Todo>();
    const remove = new schema.Invalidate(Todo);
    expectTypeOf<Denormalize<typeof remove>>().toEqualTypeOf<Todo | undefined>();
    expectTypeOf<Denormalize<[typeof remove]>>().toEqualTypeOf<(Todo | undefined)[]>();
  });

  it('types denormalize() and MemoCache results from the schema', () => {
    expectTypeOf(denormalize([Todo], [], state)).toEqualTypeOf<Todo[] | undefined>();
    expectTypeOf(denormalize({ results: [Todo], total: 0 }, {}, state)).toEqualTypeOf<
      { results: Todo[]; total: number } | undefined
    >();
    expectTypeOf(new MemoCache().denormalize(Article, '1', state.entities).data).toEqualTypeOf<Article | undefined>();
    // @ts-expect-error a Todo list is not a User list
    const users: User[] | undefined = denormalize([Todo], [], state);
    void users;
  });
});

describe('Denormalize of collection adders', () => {
  it('reads addWith (pages) back as a list', () => {
    const list = new schema.Collection([Todo]);
    const page = list.addWith((existing, incoming) => [...existing, ...incoming]);
    expectTypeOf<Denormalize<typeof page>>().toEqualTypeOf<Todo[]>();
  });
});

describe('list edits in the entity meta', () => {
  it('a list edit is a pk, a stamp and where it went; normalize says whether a newer whole list was kept', () => {
    expectTypeOf<ListEdit>().toEqualTypeOf<readonly [pk: string, stamp: number, op: 'start' | 'end' | 'remove']>();
    expectTypeOf<EntityMeta['edits']>().toEqualTypeOf<readonly ListEdit[] | undefined>();
    expectTypeOf<EntityMeta['base']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NormalizeResult['keptNewerList']>().toEqualTypeOf<boolean>();
  });
});

describe('Entity, the abstract base', () => {
  it('cannot be built itself, and a subclass must declare pk()', () => {
    // @ts-expect-error Entity is abstract
    new Entity();
    // @ts-expect-error a non-abstract subclass without pk() does not compile
    class NoPk extends Entity {
      id = 0;
    }
    expectTypeOf<NoPk['id']>().toEqualTypeOf<number>();
    class WithPk extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
    }
    expectTypeOf(WithPk.fromJS({ id: 1 })).toEqualTypeOf<WithPk>();
    expectTypeOf(WithPk.fromJS({ id: 1 }).pk()).toEqualTypeOf<string>();
    expectTypeOf(WithPk.pk).parameter(0).not.toBeNever();
    expectTypeOf(WithPk.key).toEqualTypeOf<string>();
  });

  it('pk() may return undefined when it cannot be computed', () => {
    class Maybe extends Entity {
      id: string | undefined = undefined;
      pk() {
        return this.id;
      }
    }
    expectTypeOf(Maybe.fromJS().pk()).toEqualTypeOf<string | undefined>();
    class Wrong extends Entity {
      id = 0;
      // @ts-expect-error pk() returns a string (or a number, or undefined), not an object
      pk() {
        return { id: this.id };
      }
    }
    expectTypeOf<Wrong['id']>().toEqualTypeOf<number>();
  });

  it('Entity.pk(value) is the pk as a string (or undefined), whatever type pk() returns', () => {
    class Numbered extends Entity {
      id = 0;
      pk() {
        return this.id;
      }
    }
    expectTypeOf(Numbered.fromJS().pk()).toEqualTypeOf<number>();
    expectTypeOf(Numbered.pk({ id: 1 })).toEqualTypeOf<string | undefined>();
    // @ts-expect-error Entity.pk(value) may be undefined: it is no number to compare with
    const asNumber: number | undefined = Numbered.pk({ id: 1 });
    expectTypeOf(asNumber).toEqualTypeOf<number | undefined>();
  });
});
