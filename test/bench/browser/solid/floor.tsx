/**
 * Solid alone, the floor of an update: the rows in a store (`createStore`), one todo changed by setting its title
 * through the store's setter. No library keeps a cache here; what any data layer adds is measured above it.
 */
import { For } from 'solid-js';
import { createStore } from 'solid-js/store';
import { render } from 'solid-js/web';
import type { TodoRow } from '../api.js';
import type { Variant } from '../harness.js';
import { row } from './row.jsx';

const [todos, setTodos] = createStore<{ list: TodoRow[] }>({ list: [] });
const index = new Map<number, number>();

export default {
  prepare: (data) => {
    data.forEach((todo, i) => index.set(todo.id, i));
    setTodos('list', data);
  },
  mount(target) {
    render(
      () => (
        <ul>
          <For each={todos.list}>{row}</For>
        </ul>
      ),
      target,
    );
    return { update: (id, title) => setTodos('list', index.get(id)!, 'title', title) };
  },
} satisfies Variant;
