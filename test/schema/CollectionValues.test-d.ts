import { describe, expectTypeOf, it } from 'vitest';
import { schema, type Denormalize } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';

describe('Collections of schema.Values, types', () => {
  it('read back as objects of entities; assign, remove and move exist, push and unshift do not', () => {
    const byId = new schema.Collection(new schema.Values(Todo));
    expectTypeOf<Denormalize<typeof byId>>().toEqualTypeOf<Record<string, Todo>>();
    expectTypeOf<Denormalize<typeof byId.assign>>().toEqualTypeOf<Record<string, Todo>>();
    expectTypeOf(byId.push).toBeNever();
    expectTypeOf(byId.remove).not.toBeNever();
    expectTypeOf(byId.move).not.toBeNever();
    const list = new schema.Collection([Todo]);
    expectTypeOf(list.assign).toBeNever();
    expectTypeOf<Denormalize<typeof list.push>>().toEqualTypeOf<Todo>();
  });
});
