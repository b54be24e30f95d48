/**
 * Types of runtime validation: a validator's known output types the entity's data, `satisfies
 * EntityValidator<T>` makes a validator that disagrees with the class's fields a compile error, and every
 * library's schema (and a hand-written one) fits `static validator` and `responseSchema`.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  Controller,
  Entity,
  RestEndpoint,
  ValidationError,
  createResource,
  schema,
  type Denormalize,
  type EntityValidator,
  type InferOutput,
  type StandardIssue,
  type StandardSchemaV1,
} from '../../core/index.js';

class ZodTodo extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'ZodTodo';
  // `tags` is not a class field: the validator's output types it
  static override validator = z.object({
    id: z.number(),
    title: z.string(),
    tags: z.array(z.string()),
  }) satisfies EntityValidator<ZodTodo>;
}

class ValibotTodo extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'ValibotTodo';
  static override validator = v.object({
    id: v.number(),
    title: v.string(),
    due: v.nullable(v.string()),
  }) satisfies EntityValidator<ValibotTodo>;
}

class ArkTodo extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'ArkTodo';
  static override validator = type({
    id: 'number',
    title: 'string',
    'rank?': 'number',
  }) satisfies EntityValidator<ArkTodo>;
}

class Plain extends Entity {
  id = 0;
  pk() {
    return `${this.id}`;
  }
}

describe('the validator types the entity data', () => {
  it("adds the output's fields the class lacks, and keeps the class's own", () => {
    expectTypeOf<Denormalize<typeof ZodTodo>>().toExtend<ZodTodo>();
    expectTypeOf<Denormalize<typeof ZodTodo>['tags']>().toEqualTypeOf<string[]>();
    expectTypeOf<Denormalize<typeof ZodTodo>['id']>().toEqualTypeOf<number>();
    expectTypeOf<Denormalize<typeof ValibotTodo>['due']>().toEqualTypeOf<string | null>();
    expectTypeOf<Denormalize<typeof ArkTodo>['rank']>().toEqualTypeOf<number | undefined>();
  });

  it('an entity without a validator reads as its instance', () => {
    expectTypeOf<Denormalize<typeof Plain>>().toEqualTypeOf<Plain>();
  });

  it('what the controller and endpoints resolve follows', () => {
    const Todos = createResource({ path: '/todos/:id', schema: ZodTodo });
    const controller = new Controller();
    expectTypeOf(controller.fetch(Todos.get, { id: 1 }))
      .resolves.toHaveProperty('tags')
      .toEqualTypeOf<string[]>();
    expectTypeOf(controller.fetch(Todos.getList)).resolves.items.toHaveProperty('tags');
    expectTypeOf(controller.get(ZodTodo, { id: 1 })).toEqualTypeOf<Denormalize<typeof ZodTodo> | undefined>();
  });
});

describe('a validator that disagrees with the class fields does not compile', () => {
  it('zod, valibot, arktype', () => {
    class Todo extends Entity {
      id = 0;
      title = '';
      done = false;
      pk() {
        return `${this.id}`;
      }
      static override key = 'Todo';
    }
    // @ts-expect-error: id is a number in the class
    void (z.object({ id: z.string(), title: z.string() }) satisfies EntityValidator<Todo>);
    // @ts-expect-error: done is a boolean in the class
    void (v.object({ id: v.number(), done: v.string() }) satisfies EntityValidator<Todo>);
    // @ts-expect-error: title is a string in the class
    void (type({ id: 'number', title: 'number' }) satisfies EntityValidator<Todo>);
    // agreeing ones do, fields left out included (the class default fills them)
    void (z.object({ id: z.number(), title: z.string().optional() }) satisfies EntityValidator<Todo>);
    void (v.object({ id: v.number(), done: v.boolean() }) satisfies EntityValidator<Todo>);
    void (type({ id: 'number', title: 'string' }) satisfies EntityValidator<Todo>);
  });

  it('without satisfies, where the entity is used: createResource and new RestEndpoint', () => {
    class Wrong extends Entity {
      id = 0;
      title = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Wrong';
      static override validator = z.object({ id: z.string(), title: z.string() });
    }
    // @ts-expect-error: Wrong's validator says id is a string, the class a number
    createResource({ path: '/wrong/:id', schema: Wrong });
    // @ts-expect-error: the same for an endpoint
    new RestEndpoint({ path: '/wrong/:id', schema: Wrong });
    // a validator that fits, or one whose output type is unknown (hand-written), passes
    createResource({ path: '/todos/:id', schema: ZodTodo });
    class Hand extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override validator: StandardSchemaV1 = {
        '~standard': { version: 1, vendor: 'app', validate: (value) => ({ value }) },
      };
    }
    createResource({ path: '/hand/:id', schema: Hand });
  });

  it('fields with a deserializer or a nested entity are stored as JSON: not checked against the class', () => {
    class User extends Entity {
      id = '';
      pk() {
        return this.id;
      }
    }
    class Post extends Entity {
      id = 0;
      at = new Date(0);
      author = User.fromJS();
      pk() {
        return `${this.id}`;
      }
      static override schema = { at: (iso: string) => new Date(iso), author: User };
    }
    void (z.object({
      id: z.number(),
      at: z.string(),
      author: z.object({ id: z.string() }),
    }) satisfies EntityValidator<Post>);
  });
});

describe('Standard Schema objects', () => {
  it('every library fits StandardSchemaV1, and a hand-written object does', () => {
    expectTypeOf(z.string()).toExtend<StandardSchemaV1<string, string>>();
    expectTypeOf(v.string()).toExtend<StandardSchemaV1<string, string>>();
    expectTypeOf(type('string')).toExtend<StandardSchemaV1<string, string>>();
    const positive = {
      '~standard': {
        version: 1,
        vendor: 'app',
        validate: (value: unknown) =>
          typeof value === 'number' && value > 0 ? { value } : { issues: [{ message: 'expected a positive number' }] },
      },
    } satisfies StandardSchemaV1<unknown, number>;
    expectTypeOf(positive).toExtend<StandardSchemaV1>();
    expectTypeOf<InferOutput<typeof ZodTodo.validator>>().toEqualTypeOf<{
      id: number;
      title: string;
      tags: string[];
    }>();
  });

  it('responseSchema takes any of them; ValidationError carries the issues', () => {
    new RestEndpoint({ path: '/todos', responseSchema: z.array(z.object({ id: z.number() })) });
    new RestEndpoint({ path: '/todos', responseSchema: v.array(v.object({ id: v.number() })) });
    new RestEndpoint({ path: '/todos', responseSchema: type({ id: 'number' }).array() });
    // @ts-expect-error: not a Standard Schema
    new RestEndpoint({ path: '/todos', responseSchema: { validate: () => true } });
    expectTypeOf<ValidationError['issues']>().toEqualTypeOf<readonly StandardIssue[]>();
    expectTypeOf<ValidationError['name']>().toEqualTypeOf<'ValidationError'>();
  });
});

describe("the validator's output types its entity wherever a schema reads it", () => {
  class User extends Entity {
    id = 0;
    name = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'TUser';
    // `email` is not a class field: the validator's output types it
    static override validator = z.object({
      id: z.number(),
      name: z.string(),
      email: z.string(),
    }) satisfies EntityValidator<User>;
  }
  class Group extends Entity {
    id = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'TGroup';
    static override validator = z.object({ id: z.number(), size: z.number() });
  }

  it('in a list, a Collection, a Union, Values and what push adds', () => {
    expectTypeOf<Denormalize<[typeof User]>[number]['email']>().toEqualTypeOf<string>();
    expectTypeOf<Denormalize<schema.Collection<[typeof User]>>[number]['email']>().toEqualTypeOf<string>();
    const member = new schema.Union({ user: User, group: Group }, 'type');
    expectTypeOf<Extract<Denormalize<typeof member>, { size: unknown }>['size']>().toEqualTypeOf<number>();
    const byId = new schema.Values(User);
    expectTypeOf<Denormalize<typeof byId>[string]['email']>().toEqualTypeOf<string>();
    const Users = createResource({ path: '/users/:id', schema: User });
    expectTypeOf(new Controller().fetch(Users.getList.push, {}, { name: 'x' }))
      .resolves.toHaveProperty('email')
      .toEqualTypeOf<string>();
  });
});
