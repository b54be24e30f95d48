/**
 * Review of validation types (API.md: "Where the validator's output type is known, it is the entity's stored
 * type"; docs/validation.md: a validator that disagrees with the class is a compile error where the entity
 * is used), with arktype, valibot and zod.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Controller, Entity, RestEndpoint, createResource, type Denormalize } from '../../../core/index.js';

class ArkNote extends Entity {
  id = 0;
  body = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'ArkNote11';
  static override validator = type({ id: 'number', body: 'string', 'pinned?': 'boolean' });
}

class ValibotNote extends Entity {
  id = 0;
  body = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'ValibotNote11';
  static override validator = v.object({ id: v.number(), body: v.string(), stars: v.number() });
}

class WrongId extends Entity {
  id = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'WrongId11';
  static override validator = z.object({ id: z.string() });
}

describe('validator output types', () => {
  it('fields the validator adds type the entity data (arktype optional, valibot required)', () => {
    expectTypeOf<Denormalize<typeof ArkNote>['pinned']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Denormalize<typeof ValibotNote>['stars']>().toEqualTypeOf<number>();
    const notes = new RestEndpoint({ urlPrefix: 'http://x', path: '/notes', schema: [ValibotNote] });
    const c = new Controller();
    expectTypeOf(c.fetch(notes)).resolves.items.toHaveProperty('stars').toEqualTypeOf<number>();
  });

  it('a validator that disagrees with the class is a compile error where the entity is used', () => {
    // @ts-expect-error id: string where the class says number
    createResource({ urlPrefix: 'http://x', path: '/w/:id', schema: WrongId });
    // @ts-expect-error the same in a RestEndpoint
    new RestEndpoint({ urlPrefix: 'http://x', path: '/w', schema: WrongId });
  });
});
