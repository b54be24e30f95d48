import { describe, expectTypeOf, it } from 'vitest';
import { schema, type Denormalize } from '../../../core/index.js';
import { Todo } from '../../fixtures/entities.js';

describe('a Collection of schema.Values: remove takes (and reads back) an object of entries, as assign does', () => {
  it('its type is the object of entries the runtime normalizes (a single item would be read as entries)', () => {
    const byId = new schema.Collection(new schema.Values(Todo));
    expectTypeOf<Denormalize<typeof byId.remove>>().toEqualTypeOf<Record<string, Todo>>();
    const list = new schema.Collection([Todo]);
    expectTypeOf<Denormalize<typeof list.remove>>().toEqualTypeOf<Todo>();
  });
});
