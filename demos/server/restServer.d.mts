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

export interface RestServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly file: string;
  readonly running: boolean;
  /** The current data, as the server holds it. */
  data(): SeedData;
  /** Puts the data back as it was when the server started. */
  reset(): void;
  /** Stops listening (and drops open connections); `start()` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export declare function startRestServer(options: { file: string; host?: string; port?: number }): Promise<RestServer>;
