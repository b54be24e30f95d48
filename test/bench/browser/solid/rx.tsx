/**
 * rx-rest, Solid: the list cached with `setResponse`, read with `createQuery` and `<For>` (entities as the
 * core's objects, or with `reconcile: true` as stores); one todo changed with `controller.set`.
 */
import { Controller } from 'rx-rest';
import { createQuery } from 'rx-rest/solid';
import { For } from 'solid-js';
import { render } from 'solid-js/web';
import { Todo, TodoResource } from '../api.js';
import type { Variant } from '../harness.js';
import { row } from './row.jsx';

const controller = new Controller({ gcTime: Number.POSITIVE_INFINITY });

let reconcile = false;

function List() {
  const todos = createQuery(TodoResource.getList, {}, { controller, reconcile });
  return (
    <ul>
      <For each={todos()}>{row}</For>
    </ul>
  );
}

/** The variant, with entities as the core's objects or (`reconcile`) as stores. */
export const rxVariant = (withStores: boolean): Variant => ({
  prepare: (data) => controller.setResponse(TodoResource.getList, {}, data),
  mount(target) {
    reconcile = withStores;
    render(() => <List />, target);
    return { update: (id, title) => controller.set(Todo, { id }, { id, title }) };
  },
});

export default rxVariant(false);
