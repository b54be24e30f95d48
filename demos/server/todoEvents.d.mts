/** Types of todoEvents.mjs (the REST server's live stream). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SeedTodo, TodoEvents } from './restServer.mjs';

export declare function todoEvents(options: {
  /** The todos as the server holds them now. */
  readTodos: () => readonly SeedTodo[] | undefined;
  keepAliveMs?: number;
}): TodoEvents & {
  /** The handler of `GET /events`. */
  stream(req: IncomingMessage, res: ServerResponse): void;
  /** Sends a message for every todo that changed since the last call. */
  publish(): void;
};
