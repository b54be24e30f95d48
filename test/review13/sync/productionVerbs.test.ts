/**
 * `controller.expireAll` / `invalidateAll` given what is no endpoint throw a TypeError naming the verb and the
 * argument in an app's production build too (the prose-rich check is development only), and change nothing.
 */
import { describe, expect, it } from 'vitest';
import { coreBuiltFor } from '../../fixtures/productionBuild.js';

/** What a verb taking an endpoint may be handed by mistake: nothing, an Entity class, a plain object, a key, a function. */
const wrongTargets = (Todo: unknown): unknown[] => [undefined, null, Todo, {}, 'GET /todos', () => undefined];

describe('expireAll and invalidateAll on what is no endpoint', () => {
  for (const mode of ['production', 'development'] as const)
    it(`throw a TypeError naming the verb and the argument in a ${mode} build; the store is unchanged`, async () => {
      const { core } = await coreBuiltFor(mode);
      const controller = new core.Controller();
      const Todo = class extends core.Entity {
        id = 0;
        title = '';
        pk() {
          return `${this.id}`;
        }
        static override key = 'Todo';
      };
      controller.set(Todo, { id: 1 }, { id: 1, title: 'kept' });
      const before = controller.getState();
      for (const verb of ['expireAll', 'invalidateAll'] as const)
        for (const target of wrongTargets(Todo)) {
          let thrown: unknown;
          try {
            controller[verb](target as never);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(TypeError);
          // production: `expireAll(endpoint)`; development: `controller.expireAll(endpoint, ...): the first argument, ...`
          expect((thrown as Error).message).toContain(`${verb}(endpoint`);
        }
      expect(controller.getState()).toBe(before);
      // a real endpoint still works
      const endpoint = new core.RestEndpoint({
        urlPrefix: 'https://api.example.com',
        path: '/todos/:id',
        schema: Todo,
      });
      controller.setResponse(endpoint, { id: 1 }, { id: 1, title: 'kept' });
      controller.expireAll(endpoint);
      expect(controller.getResponse(endpoint, { id: 1 }).stale).toBe(true);
      controller.invalidateAll(endpoint);
      expect(controller.getResponse(endpoint, { id: 1 }).invalid).toBe(true);
      controller.dispose();
    });
});
