/**
 * The devtools panel on a server (Node, no `document`): importing it touches no browser global, and
 * `mountDevtools` returns a teardown that does nothing.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';

describe('mountDevtools on a server', () => {
  it('imports and mounts without window or document', async () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const { mountDevtools } = await import('../../../adapters/devtools/index.js');
    const teardown = mountDevtools(new Controller(), { initialIsOpen: true });
    expect(typeof teardown).toBe('function');
    expect(() => teardown()).not.toThrow();
  });
});
