/** Types of sveltekitServer.mjs (the SvelteKit demo's servers, in child processes). */

/** The SvelteKit app's folder (demos/sveltekit-todo/). */
export declare const SVELTEKIT_ROOT: string;

/** `port` when it is free, else a free one (0: any free one). */
export declare function freePort(port?: number): Promise<number>;

/** Builds the app into demos/sveltekit-todo/build (adapter-node). */
export declare function buildSvelteKit(): Promise<void>;

/** A running SvelteKit app. */
export interface SvelteKitServer {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** What the app printed lately. */
  readonly output: string;
  /** Ends its process. */
  close(): Promise<void>;
}

/** Starts the app in `vite dev` or its production build (`node build`) against the REST server at `api`. */
export declare function startSvelteKit(options: {
  mode?: 'dev' | 'preview';
  port?: number;
  api: string;
}): Promise<SvelteKitServer>;
