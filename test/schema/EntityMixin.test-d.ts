import { describe, expectTypeOf, it } from 'vitest';
import { Entity, EntityMixin, type Denormalize } from '../../core/index.js';

class TacoData {
  id = '';
  name = '';
}

describe('EntityMixin types', () => {
  it('a class extending the mixin reads back as its instances, with the base fields', () => {
    class Tacos extends EntityMixin(TacoData) {}
    expectTypeOf<Denormalize<typeof Tacos>>().toMatchTypeOf<TacoData>();
    expectTypeOf<Denormalize<typeof Tacos>>().toMatchTypeOf<Tacos>();
    expectTypeOf(Tacos.fromJS({ name: 'x' })).toMatchTypeOf<Tacos>();
    expectTypeOf(Tacos.key).toEqualTypeOf<string>();
    expectTypeOf<Denormalize<[typeof Tacos]>>().toMatchTypeOf<Tacos[]>();
  });

  it('takes the Entity statics as options, typed', () => {
    EntityMixin(TacoData, {
      process: (input, _parent, key) => ({ ...(input as object), key }),
      merge: (existing, incoming) => ({ ...existing, ...incoming }),
      validate: (processed) => (typeof processed.name === 'string' ? undefined : 'no name'),
      indexes: ['name'],
      automaticValidation: 'warn',
    });
    // @ts-expect-error indexes name fields of the class
    EntityMixin(TacoData, { indexes: ['nope'] });
    // @ts-expect-error validate returns a message or undefined
    EntityMixin(TacoData, { validate: () => 1 });
  });

  it('static defaults and automaticValidation exist on every entity class', () => {
    class Todo extends Entity {
      id = 0;
      pk() {
        return `${this.id}`;
      }
      static override automaticValidation = 'silent' as const;
    }
    expectTypeOf(Todo.defaults).toEqualTypeOf<Readonly<Record<string, unknown>>>();
    expectTypeOf(EntityMixin(TacoData).defaults).toEqualTypeOf<Readonly<Record<string, unknown>>>();
    expectTypeOf(Todo.automaticValidation).toEqualTypeOf<'silent'>();
  });
});
