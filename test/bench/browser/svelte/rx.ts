/** rx-rest's Svelte variants: the list cached with `setResponse`, one todo changed with `controller.set`. */
import { Controller } from 'rx-rest';
import { flushSync, mount, type Component } from 'svelte';
import { Todo, TodoResource } from '../api.js';
import type { Variant } from '../harness.js';

/** A variant that mounts `List` (a component taking the controller) on a controller holding the list. */
export function rxVariant(List: Component<{ controller: Controller }>): Variant {
  const controller = new Controller({ gcTime: Number.POSITIVE_INFINITY });
  return {
    prepare: (data) => controller.setResponse(TodoResource.getList, {}, data),
    mount(target) {
      mount(List, { target, props: { controller } });
      flushSync();
      return { update: (id, title) => controller.set(Todo, { id }, { id, title }) };
    },
  };
}
