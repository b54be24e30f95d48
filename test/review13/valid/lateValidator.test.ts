/**
 * An entity's `static validator` is the class's current one on every write: one assigned after the class was
 * first used (a generated entity whose validator the app assigns from its own code) checks the responses that
 * follow, one replaced is replaced, one removed stops checking; a subclass's `static override validator` keeps
 * its own, and one without inherits its parent's current validator. Snapshots restored later use it too.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Controller,
  Entity,
  SnapshotError,
  ValidationError,
  createResource,
  restoreSnapshot,
  takeSnapshot,
  type StandardSchemaV1,
} from '../../../core/index.js';

const API = 'http://late-validator.test';

/** A hand-written Standard Schema: `field` must be a string. */
function stringAt(field: string): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) =>
        typeof (value as Record<string, unknown>)[field] === 'string'
          ? { value }
          : { issues: [{ message: 'expected a string', path: [field] }] },
    },
  };
}

let body: unknown = {};
const server = setupServer(http.get(`${API}/*`, () => HttpResponse.json(body as Record<string, unknown>)));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('a static validator assigned after the first use of its class', () => {
  it('checks the responses that follow, and a replaced or removed one is replaced or removed', async () => {
    class LatePet extends Entity {
      id = 0;
      name = '';
      tag = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'LatePet';
    }
    const PetResource = createResource({ urlPrefix: API, path: '/pets/:id', schema: LatePet });
    const controller = new Controller();
    body = { id: 1, name: 'Rex', tag: 'dog' };
    expect((await controller.fetch(PetResource.get, { id: 1 })).name).toBe('Rex');

    LatePet.validator = stringAt('name');
    body = { id: 1, name: 7, tag: 'dog' };
    const refused = await controller.fetch(PetResource.get, { id: 1 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).entity).toBe('LatePet');
    expect(controller.getState().entities.LatePet?.['1']).toMatchObject({ name: 'Rex' }); // nothing written

    LatePet.validator = stringAt('tag');
    expect((await controller.fetch(PetResource.get, { id: 1 })).name).toBe(7); // name is no longer checked
    body = { id: 1, name: 'Rex', tag: 3 };
    await expect(controller.fetch(PetResource.get, { id: 1 })).rejects.toThrow(ValidationError);

    LatePet.validator = undefined;
    expect((await controller.fetch(PetResource.get, { id: 1 })).tag).toBe(3);
  });

  it('applies to setResponse and to records nested in another entity', () => {
    class LateOwner extends Entity {
      id = 0;
      name = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'LateOwner';
    }
    class LateHouse extends Entity {
      id = 0;
      owner = LateOwner.fromJS();
      pk() {
        return `${this.id}`;
      }
      static override key = 'LateHouse';
      static override schema = { owner: LateOwner };
    }
    const get = createResource({ urlPrefix: API, path: '/houses/:id', schema: LateHouse }).get;
    const controller = new Controller();
    controller.setResponse(get, { id: 1 }, { id: 1, owner: { id: 5, name: 'Ann' } });
    LateOwner.validator = stringAt('name');
    expect(() =>
      controller.setResponse(get, { id: 1 }, { id: 1, owner: { id: 5, name: 9 as unknown as string } }),
    ).toThrow(ValidationError);
    expect(controller.getState().entities.LateOwner?.['5']).toMatchObject({ name: 'Ann' });
  });

  it("keeps a subclass's static override, and a subclass without one inherits its parent's current validator", async () => {
    class Animal extends Entity {
      id = 0;
      name = '';
      sound = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'LateAnimal';
    }
    class Cat extends Animal {
      static override key = 'LateCat';
      static override validator = stringAt('sound');
    }
    class Dog extends Animal {
      static override key = 'LateDog';
    }
    const controller = new Controller();
    const cat = createResource({ urlPrefix: API, path: '/cats/:id', schema: Cat }).get;
    const dog = createResource({ urlPrefix: API, path: '/dogs/:id', schema: Dog }).get;
    body = { id: 1, name: 2, sound: 'meow' };
    await controller.fetch(cat, { id: 1 });
    await controller.fetch(dog, { id: 1 });

    Animal.validator = stringAt('name');
    expect((await controller.fetch(cat, { id: 1 })).name).toBe(2); // Cat keeps its own validator
    await expect(controller.fetch(dog, { id: 1 })).rejects.toThrow(ValidationError); // Dog inherits Animal's
    body = { id: 1, name: 'Tom', sound: 4 };
    await expect(controller.fetch(cat, { id: 1 })).rejects.toThrow(ValidationError);
    expect((await controller.fetch(dog, { id: 1 })).sound).toBe(4);
  });

  it('checks restored snapshots with the current validator', () => {
    class LateNote extends Entity {
      id = 0;
      title = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'LateNote';
    }
    const get = createResource({ urlPrefix: API, path: '/notes/:id', schema: LateNote }).get;
    const source = new Controller();
    source.setResponse(get, { id: 1 }, { id: 1, title: 5 as unknown as string });
    const snapshot = takeSnapshot(source);
    LateNote.validator = stringAt('title');
    expect(() => restoreSnapshot(new Controller(), snapshot)).toThrow(SnapshotError);
  });
});
