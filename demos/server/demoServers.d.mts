/** Types of demoServers.mjs (the REST server and both demo apps). */
import type { RestServer } from './restServer.mjs';

export declare const APPS: readonly { name: 'svelte' | 'solid'; title: string; root: string; port: number }[];

/** The SolidStart app's preferred port. */
export declare const SOLIDSTART_PORT: number;

export declare function buildDemos(options?: { logLevel?: 'info' | 'warn' | 'error' | 'silent' }): Promise<void>;

export interface Demo {
  rest: RestServer;
  /** The URL of each app, with a trailing slash. */
  apps: { svelte: string; solid: string; sveltekit?: string; solidstart?: string };
  /** The scratch copy of the seed the REST server works on. */
  scratch: string;
  /** Stops everything and deletes the scratch copy. */
  close(): Promise<void>;
}

export declare function startDemo(options?: {
  mode?: 'dev' | 'preview';
  ports?: 'fixed' | 'free';
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
  /** Start the SvelteKit app too (default true). */
  sveltekit?: boolean;
  /** Start the SolidStart app too (default true). */
  solidstart?: boolean;
}): Promise<Demo>;
