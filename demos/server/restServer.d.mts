/** Types of restServer.mjs (the demos' json-server). */
export declare const SEED_FILE: string;

export interface SeedTodo {
  id: number;
  userId: number;
  title: string;
  completed: boolean;
  createdAt: string;
}
export interface SeedUser {
  id: number;
  name: string;
  username: string;
  email: string;
}
export interface SeedData {
  users: SeedUser[];
  todos: SeedTodo[];
}

export declare function seedData(options?: { now?: number; newestAgeMs?: number }): SeedData;
export declare function copySeed(options?: { now?: number; newestAgeMs?: number }): {
  dir: string;
  file: string;
  remove(): void;
};

/** The live stream's `GET /events` messages (the data of each, as JSON). */
export type TodoChange =
  { type: 'created'; todo: SeedTodo } | { type: 'updated'; todo: SeedTodo } | { type: 'deleted'; id: number };

/** The live stream's side on the server. */
export interface TodoEvents {
  /** How many streams are open now. */
  readonly clients: number;
  /** How many streams were opened since the server started. */
  readonly connections: number;
  /** Sends `text` as the data of one message to every open stream, unchecked (a malformed message, for tests). */
  send(text: string): void;
  /** Ends every open stream (the clients reconnect); the server goes on. */
  drop(): void;
}

export interface RestServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly file: string;
  readonly running: boolean;
  /** Every request received since the server started, as `METHOD /path?query` (clear it with `length = 0`). */
  readonly requests: string[];
  /** The current data, as the server holds it. */
  data(): SeedData;
  /** Puts the data back as it was when the server started (the stream tells the changes). */
  reset(): void;
  /** `GET /events`, the Server-Sent Events stream of every change of the todos. */
  readonly events: TodoEvents;
  /** Stops listening (ending the streams, dropping open connections); `start()` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export declare function startRestServer(options: {
  file: string;
  host?: string;
  port?: number;
  /** How often a quiet stream sends a keep-alive comment, in milliseconds (default 15 000). */
  keepAliveMs?: number;
}): Promise<RestServer>;
