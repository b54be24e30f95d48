import { createResource } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { API } from '../fixtures/todoServer.js';
import { TodoResource } from '../fixtures/todoResource.js';

export { TodoResource };

/** The same resource polling every 20 ms, to show that unmounting stops the timer. */
export const PollingTodoResource = createResource({
  urlPrefix: API,
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number } | undefined,
  pollFrequency: 20,
});
