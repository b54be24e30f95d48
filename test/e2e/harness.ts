/**
 * The shared frame of the e2e files that drive the built demo apps: the REST server and both apps
 * (`vite preview`, free ports) and one Chromium, started before the file's tests and stopped after them.
 * Each test starts on the seed data; the pages it opened (pushed to `pages`) are closed after it, and an
 * error thrown in any of them (pushed to `pageErrors`) fails it.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startDemo, type Demo } from '../../demos/server/demoServers.mjs';
import { launchBrowser } from './browser.js';

/** What a file's tests use: read its fields inside tests and hooks (they are set in `beforeAll`). */
export interface DemoHarness {
  demo: Demo;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
  readonly pages: Page[];
  readonly pageErrors: string[];
}

/** What else to do after each test: `beforeClose` before its pages close, `afterClose` after. */
export interface HarnessHooks {
  readonly beforeClose?: () => Promise<void> | void;
  readonly afterClose?: () => Promise<void> | void;
}

/** Registers the file's hooks and gives what its tests use. */
export function demoHarness(hooks: HarnessHooks = {}): DemoHarness {
  const harness = { pages: [], pageErrors: [] } as unknown as DemoHarness;
  beforeAll(async () => {
    harness.demo = await startDemo({
      mode: 'preview',
      ports: 'free',
      logLevel: 'silent',
      sveltekit: false,
      solidstart: false,
    });
    harness.browser = await launchBrowser();
  });
  afterAll(async () => {
    await harness.browser?.close();
    await harness.demo?.close();
  });
  beforeEach(() => {
    harness.demo.rest.reset();
    harness.pageErrors.length = 0;
  });
  afterEach(async () => {
    await hooks.beforeClose?.();
    await Promise.all(harness.pages.splice(0).map((page) => page.close()));
    expect(harness.pageErrors).toEqual([]);
    await hooks.afterClose?.();
  });
  return harness;
}
