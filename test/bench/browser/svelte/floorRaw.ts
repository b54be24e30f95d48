/**
 * Svelte alone, immutable rows: the list in a `$state.raw`, one todo changed by replacing the list with a mapped copy
 * (the todo a new object). What TanStack's page does without TanStack.
 */
import { flushSync, mount } from 'svelte';
import type { Variant } from '../harness.js';
import FloorRawList from './FloorRawList.svelte';
import { raw } from './floorState.svelte.js';

export default {
  prepare: (data) => (raw.todos = data),
  mount(target) {
    mount(FloorRawList, { target });
    flushSync();
    return {
      update: (id, title) => (raw.todos = raw.todos.map((todo) => (todo.id === id ? { ...todo, title } : todo))),
    };
  },
} satisfies Variant;
