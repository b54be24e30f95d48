/** The benchmark pages' data: a `Todo` entity, its resource for rx-rest, and the rows both libraries start from. */
import { Entity, createResource } from 'rx-rest';

/** One todo, as rx-rest stores it (declared here: the pages import the package, not the test fixtures). */
export class Todo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

/** The todos' resource (never fetched: the pages put the list in the cache before they render). */
export const TodoResource = createResource({ urlPrefix: 'http://bench.invalid', path: '/todos/:id', schema: Todo });

/** A todo as plain JSON (what TanStack caches, and what rx-rest receives). */
export type TodoRow = { id: number; userId: number; title: string; completed: boolean };

/** `n` todos, ids 1..n. */
export const rows = (n: number): TodoRow[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    userId: (i % 10) + 1,
    title: `todo ${i + 1}`,
    completed: i % 3 === 0,
  }));
