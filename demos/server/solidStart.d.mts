/** Types of solidStart.mjs (the SolidStart demo as a child process). */
export declare const SOLIDSTART_ROOT: string;

export declare function buildSolidStart(options?: { logLevel?: 'info' | 'warn' | 'error' | 'silent' }): Promise<void>;

export declare function startSolidStart(options: {
  mode?: 'dev' | 'preview';
  /** 0: a free port. */
  port?: number;
  /** The REST server's URL (no trailing slash). */
  api: string;
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
}): Promise<{ url: string; close(): Promise<void> }>;
