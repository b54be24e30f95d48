/**
 * An entity's `static validator` whose output leaves out (or empties) the fields `pk()` reads: the record has no
 * usable pk after validation, though the response had one. The NormalizeError says that the validator's output
 * is what `pk()` read, so the fix (declare the pk's fields in the validator) is in the message; nothing is written.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import { Controller, Entity, NormalizeError, RestEndpoint } from '../../../core/index.js';

const API = 'http://validator-pk.test';

function entityWith(validator: unknown) {
  return class Row extends Entity {
    id = 0;
    name = '';
    pk() {
      return `${this.id}`;
    }
    static override key = 'Row';
    static override validator = validator as never;
  };
}

describe("a validator whose output drops the pk's fields", () => {
  it.each([
    ['zod', z.object({ name: z.string() })],
    ['valibot', v.object({ name: v.string() })],
  ])('%s: a NormalizeError naming the validator output; the store keeps what it had', (_name, validator) => {
    const Row = entityWith(validator);
    const list = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: [Row] });
    const controller = new Controller();
    controller.setResponse(list, {}, []);
    const before = controller.getState();
    let thrown: unknown;
    try {
      controller.setResponse(list, {}, [{ id: 5, name: 'five' }]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NormalizeError);
    const message = (thrown as Error).message;
    expect(message).toContain('Row');
    // what pk() read: the validator's output, without the id
    expect(message).toContain(`{"name":"five"}`);
    expect(message).toMatch(/static validator/);
    expect(controller.getState().entities).toBe(before.entities);
    expect(controller.getState().endpoints).toBe(before.endpoints);
  });

  it('a record without a pk and no validator keeps the message it had', () => {
    const Row = entityWith(undefined);
    const list = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: [Row] });
    expect(() => new Controller().setResponse(list, {}, [{ name: 'x' }] as never)).toThrow(
      /no usable primary key: pk\(\) returned "undefined" for \{"name":"x"\}\. Check/,
    );
  });
});
