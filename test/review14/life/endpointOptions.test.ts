/**
 * The request options of an endpoint (`pollFrequency`, `timeout`, `retry`, `retryDelay`) are checked where the
 * endpoint is defined, like its lifetimes: a value that is no number of the right kind (`NaN`, a string read from
 * an environment variable, a negative count or wait, `retry: true` or a TanStack-style retry function) would be
 * taken silently today and mean something else (no retries at all, no polling, an immediate retry). Such a value
 * throws an `EndpointDefinitionError` naming the endpoint and the option, from `new RestEndpoint`, `extend` and
 * `createResource`; every value the docs allow still works.
 */
import { describe, expect, it } from 'vitest';
import { EndpointDefinitionError, RestEndpoint, createResource } from '../../../core/index.js';
import { API, Todo, TodoResource } from '../../reliability/faultHarness.js';

const refused: [option: string, value: unknown][] = [
  ['pollFrequency', Number.NaN],
  ['pollFrequency', '5000'],
  ['pollFrequency', -1],
  ['timeout', Number.NaN],
  ['timeout', '10000'],
  ['timeout', -5],
  ['retry', Number.NaN],
  ['retry', '3'],
  ['retry', -1],
  ['retry', true],
  ['retry', (count: number) => count < 3],
  ['retry', null],
  ['retryDelay', Number.NaN],
  ['retryDelay', '500'],
  ['retryDelay', -100],
  ['retryDelay', null],
];

describe('request options that are no number of the right kind', () => {
  for (const [option, value] of refused) {
    it(`${option}: ${typeof value === 'function' ? 'a function' : String(value)} (${typeof value}) throws an EndpointDefinitionError naming the option and the endpoint`, () => {
      const define = () =>
        new RestEndpoint({ urlPrefix: API, path: '/todos/:id', schema: Todo, [option]: value } as never);
      expect(define).toThrow(EndpointDefinitionError);
      expect(define).toThrow(new RegExp(`${API}/todos/:id: ${option} must be `));
      expect(() => TodoResource.get.extend({ [option]: value } as never)).toThrow(
        new RegExp(`Todo\\.get: ${option} must be `),
      );
      expect(() =>
        createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo, [option]: value } as never),
      ).toThrow(EndpointDefinitionError);
    });
  }

  it('every value the docs allow is kept as given', () => {
    const allowed: Record<string, unknown[]> = {
      pollFrequency: [0, 1, 2_000, undefined],
      timeout: [0, 1, 10_000, Infinity, undefined],
      retry: [0, 3, Infinity, false, undefined],
      retryDelay: [0, 500, (attempt: number) => 100 * attempt, undefined],
    };
    for (const [option, values] of Object.entries(allowed))
      for (const value of values) {
        const endpoint = TodoResource.get.extend({ [option]: value } as never);
        expect((endpoint as unknown as Record<string, unknown>)[option]).toBe(value);
        const resource = createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo, [option]: value } as never);
        expect((resource.getList as unknown as Record<string, unknown>)[option]).toBe(value);
      }
  });
});
