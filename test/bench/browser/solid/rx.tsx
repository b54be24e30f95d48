/** rx-rest, Solid: the list cached with `setResponse`, read with `createQuery` and `<For>`; one todo changed with `controller.set`. */
import { Controller } from 'rx-rest';
import { createQuery } from 'rx-rest/solid';
import { For } from 'solid-js';
import { render } from 'solid-js/web';
import { Todo, TodoResource } from '../api.js';
import type { Variant } from '../harness.js';

const controller = new Controller({ gcTime: Number.POSITIVE_INFINITY });

function List() {
  const todos = createQuery(TodoResource.getList, {}, controller);
  return (
    <ul>
      <For each={todos()}>
        {(todo) => (
          <li id={`t${todo.id}`} classList={{ done: todo.completed }}>
            {todo.title}
          </li>
        )}
      </For>
    </ul>
  );
}

export default {
  prepare: (data) => controller.setResponse(TodoResource.getList, {}, data),
  mount(target) {
    render(() => <List />, target);
    return { update: (id, title) => controller.set(Todo, { id }, { id, title }) };
  },
} satisfies Variant;
