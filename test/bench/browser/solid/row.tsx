/** The row every Solid page renders for a todo (the same DOM whatever the library). */
import type { TodoRow } from '../api.js';

/** A todo's `<li>`: its title, and the class `done` while completed. */
export const row = (todo: TodoRow) => (
  <li id={`t${todo.id}`} classList={{ done: todo.completed }}>
    {todo.title}
  </li>
);
