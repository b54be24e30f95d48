/**
 * The controller's own numeric lifecycle options (`retry`, `retryDelay`, `gcTime`) are checked like an endpoint's
 * (test/review14/life/endpointOptions.test.ts): a value that is no number of the right kind (`NaN`, a string read
 * from an environment variable, a negative count or wait, `true`, a TanStack-style retry function) would be taken
 * silently and mean something else (no retries, retries without a wait, keys kept forever or dropped at once). In
 * development it throws a `TypeError` naming `new Controller({ option })`, what the option takes and the value
 * given; production builds leave the check out. Every value the docs allow still works.
 */
import { describe, expect, it } from 'vitest';
import { Controller } from '../../../core/index.js';
import { coreBuiltFor } from '../../fixtures/productionBuild.js';

const refused: [option: string, value: unknown][] = [
  ['retry', Number.NaN],
  ['retry', '3'],
  ['retry', -1],
  ['retry', true],
  ['retry', null],
  ['retry', (count: number) => count < 3],
  ['retryDelay', Number.NaN],
  ['retryDelay', '5000'],
  ['retryDelay', -100],
  ['retryDelay', true],
  ['retryDelay', null],
  ['gcTime', Number.NaN],
  ['gcTime', '5000'],
  ['gcTime', -1],
  ['gcTime', true],
  ['gcTime', null],
];

const shown = (value: unknown) => (typeof value === 'function' ? 'a function' : `${typeof value} ${String(value)}`);

describe("the controller's numeric options", () => {
  for (const [option, value] of refused)
    it(`${option}: ${shown(value)} throws a TypeError naming the option, what it takes and the value`, () => {
      const make = () => new Controller({ environment: {}, [option]: value } as never);
      expect(make).toThrow(TypeError);
      expect(make).toThrow(
        new RegExp(`^new Controller\\(\\{ ${option} \\}\\): ${option} must be .+, not ${typeof value}`),
      );
    });

  it('every value the docs allow is taken', async () => {
    const allowed: Record<string, unknown[]> = {
      retry: [0, 3, 2.5, Infinity, false, undefined],
      retryDelay: [0, 500, (attempt: number) => 100 * attempt, undefined],
      gcTime: [0, 1_000, Infinity, undefined],
    };
    for (const [option, values] of Object.entries(allowed))
      for (const value of values) {
        const controller = new Controller({ environment: {}, [option]: value } as never);
        controller.dispose();
      }
  });

  it('a production build leaves the check and its prose out', async () => {
    expect(() => new Controller({ gcTime: -1 })).toThrow('(Infinity: keeps everything)');
    const { code, core } = await coreBuiltFor('production');
    expect(code).not.toContain('keeps everything)');
    new core.Controller({ environment: {}, gcTime: '5000' } as never).dispose();
  });
});
