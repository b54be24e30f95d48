/**
 * Limits and edge cases through the controller: inputs nested far deeper than the stack allows, a
 * rejected cyclic response kept in the state, and bad path arguments given to `fetch`.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Controller,
  DeserializeError,
  Entity,
  NormalizeError,
  RestEndpoint,
  createResource,
} from '../../core/index.js';
// a plain Todo (no deserializer)
import { PlainTodo as Todo } from '../fixtures/entities.js';

const API = 'http://pending.test';

class Node extends Entity {
  id = 0;
  child: Node | undefined = undefined;
  pk() {
    return `${this.id}`;
  }
  static override key = 'PendingNode';
}
Node.schema = { child: Node };

const NodeResource = createResource({ urlPrefix: API, path: '/nodes/:id', schema: Node });
const TodoResource = createResource({ urlPrefix: API, path: '/todos/:id', schema: Todo });

let body = '{}';
const requests: string[] = [];
const server = setupServer(
  http.all(`${API}/*`, ({ request }) => {
    requests.push(request.url);
    return new HttpResponse(body, { headers: { 'Content-Type': 'application/json' } });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  requests.length = 0;
});

/** A JSON text nested `depth` levels (JSON.stringify itself overflows past ~4,000 levels; JSON.parse does not). */
function deepJson(depth: number, open: (i: number) => string, close: string, leaf: string): string {
  let text = '';
  for (let i = 0; i < depth; i++) text += open(i);
  return text + leaf + close.repeat(depth);
}

/** Succeeds, or fails with a named error that is not a bare stack overflow. */
async function worksOrNamedError(run: () => unknown): Promise<'works' | Error> {
  try {
    await run();
    return 'works';
  } catch (error) {
    expect(error).not.toBeInstanceOf(RangeError);
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
}

describe('deep nesting', () => {
  // The normalizer recurses per nesting level: past what the stack allows, a NormalizeError saying so
  // (not a bare RangeError), and the state passed in stays as it was (the writer is copy-on-write).
  it('a response with a self-referencing entity 10,000 levels deep works or is a NormalizeError; the store is unchanged', async () => {
    const controller = new Controller();
    body = '{"id":-1}';
    await controller.fetch(NodeResource.get, { id: -1 });
    const before = controller.getState();
    body = deepJson(10_000, (i) => `{"id":${i},"child":`, '}', '{"id":10000}');
    const outcome = await worksOrNamedError(() => controller.fetch(NodeResource.get, { id: 0 }));
    if (outcome !== 'works') {
      expect(outcome).toBeInstanceOf(NormalizeError);
      expect(outcome.message).toMatch(/deep/);
      expect(controller.getState().entities).toBe(before.entities);
    }
  });

  // The cycle check of plain fields is iterative, so a plain value nested 10,000 levels deep is fine.
  it('an entity whose plain field is nested 10,000 levels deep works or is a NormalizeError', async () => {
    const controller = new Controller();
    body = `{"id":1,"title":"deep","meta":${deepJson(10_000, () => '{"n":', '}', '{"leaf":true}')}}`;
    const outcome = await worksOrNamedError(() => controller.fetch(TodoResource.get, { id: 1 }));
    if (outcome !== 'works') expect(outcome).toBeInstanceOf(NormalizeError);
    else expect(controller.getResponse(TodoResource.get, { id: 1 }).data!.title).toBe('deep');
  });

  // A stored graph deeper than the stack allows (here written from one flat response) is read, or
  // reported as a named error, never a bare RangeError.
  it('a stored chain 10,000 entities deep (stored from one flat response) reads without a RangeError', async () => {
    const controller = new Controller();
    const depth = 10_000;
    // one flat list response: every node names its child by a shallow object
    const flat = Array.from({ length: depth }, (_, i) =>
      i === depth - 1 ? { id: i } : { id: i, child: { id: i + 1 } },
    );
    controller.setResponse(NodeResource.getList, {}, flat);
    expect(Object.keys(controller.getState().entities.PendingNode!)).toHaveLength(depth);
    const outcome = await worksOrNamedError(() => {
      let node = controller.getResponse(NodeResource.get, { id: 0 }).data;
      let levels = 0;
      while (node) {
        levels++;
        node = node.child;
      }
      expect(levels).toBe(depth);
    });
    if (outcome !== 'works') expect(outcome.name).not.toBe('Error');
  });
});

describe('a stored NormalizeError keeps the state serializable', () => {
  // A NormalizeError kept in meta[key].error does not carry its (cyclic) input into JSON: the state
  // survives JSON.stringify (API.md).
  it('after a cyclic response is rejected, getState() still survives JSON.stringify', async () => {
    const controller = new Controller();
    const cyclic = new RestEndpoint({
      urlPrefix: API,
      path: '/cyclic',
      schema: Todo,
      process() {
        const meta: Record<string, unknown> = {};
        meta.self = meta;
        return { id: 1, meta };
      },
    });
    body = '{}';
    await expect(controller.fetch(cyclic)).rejects.toBeInstanceOf(NormalizeError);
    expect(() => JSON.stringify(controller.getState())).not.toThrow();
  });
});

describe('bad path arguments through the controller', () => {
  // `fetch` with a missing or malformed path argument returns a rejected promise (API.md: fetch "rejects
  // with the endpoint's error"), and no request is made.
  it.each([
    ['an object', { id: {} }],
    ['a missing parameter', {}],
    ['".."', { id: '..' }],
  ])('fetch with %s as the id returns a rejected promise instead of throwing', async (_label, args) => {
    const controller = new Controller();
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = controller.fetch(TodoResource.get, args as never);
    }).not.toThrow();
    await expect(result).rejects.toBeInstanceOf(Error);
    expect(requests).toEqual([]);
  });
});

describe('a stored value that cannot be read', () => {
  class Stamp extends Entity {
    id = 0;
    at = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'LimitsStamp';
    static override schema = {
      at: (value: unknown) => {
        if (typeof value !== 'number') throw new TypeError(`not a timestamp: ${String(value)}`);
        return value * 1000;
      },
    };
  }
  const StampResource = createResource({ urlPrefix: API, path: '/stamps/:id', schema: Stamp });

  it('is the query state error of its observers (never an exception in the store), and a later good write recovers', () => {
    const controller = new Controller();
    // a string where the deserializer takes a number, on purpose: the type would refuse it, the read must too
    controller.setResponse(StampResource.get, { id: 1 }, { id: 1, at: 'yesterday' } as never);
    const states: { data: Stamp | undefined; error: Error | undefined }[] = [];
    const subscription = controller.observe(StampResource.get, { id: 1 }).subscribe((state) => states.push(state));
    expect(states.at(-1)?.data).toBeUndefined();
    expect(states.at(-1)?.error).toBeInstanceOf(DeserializeError);
    expect(states.at(-1)?.error?.message).toMatch(/LimitsStamp\.at/);
    controller.setResponse(StampResource.get, { id: 1 }, { id: 1, at: 5 });
    expect(states.at(-1)?.error).toBeUndefined();
    expect(states.at(-1)?.data?.at).toBe(5000);
    subscription.unsubscribe();
    expect(requests).toEqual([]);
  });
});
