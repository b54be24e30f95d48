/**
 * Svelte alone, the floor of a one-record update: the rows in a deep `$state` (a signal per field read), one todo
 * changed by assigning its title. No library keeps a cache here; what any data layer adds is measured above it.
 */
import { flushSync, mount } from 'svelte';
import type { Variant } from '../harness.js';
import FloorList from './FloorList.svelte';
import { state } from './floorState.svelte.js';

export default {
  prepare: (data) => state.set(data),
  mount(target) {
    mount(FloorList, { target, props: { todos: state.todos } });
    flushSync();
    return {
      update: (id, title) => {
        const todo = state.byId.get(id);
        if (todo) todo.title = title;
      },
    };
  },
} satisfies Variant;
