/** The floor variant's rows: a deep `$state` list and its rows by id. */
import type { TodoRow } from '../api.js';

class Rows {
  todos: TodoRow[] = $state([]);
  byId = new Map<number, TodoRow>();
  set(data: TodoRow[]) {
    this.todos = data;
    this.byId = new Map(this.todos.map((todo) => [todo.id, todo]));
  }
}

/** The page's one list. */
export const state = new Rows();

/** The immutable floor's list: replaced, never changed in place. */
export const raw = new (class {
  todos: TodoRow[] = $state.raw([]);
})();
