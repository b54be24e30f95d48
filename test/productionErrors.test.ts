/**
 * Error prose in an app's production build: the core bundled as Vite and esbuild bundle it for production
 * (`process.env.NODE_ENV` defined as "production") leaves the advice out, and each error keeps its class, its
 * name and its fields; bundled for development, and in these tests, every message is complete.
 */
import { describe, expect, it } from 'vitest';
import * as source from '../core/index.js';
import { bundled, coreBuiltFor } from './fixtures/productionBuild.js';

/** Each kind of failure, caught: a definition error, a normalize error, a request error. */
function failures(core: typeof source) {
  class Todo extends core.Entity {
    id = 0;
    pk() {
      return this.id === 0 ? undefined : String(this.id);
    }
    static override key = 'Todo';
  }
  const caught = (run: () => unknown): Error => {
    try {
      run();
    } catch (error) {
      return error as Error;
    }
    throw new Error('did not throw');
  };
  return {
    definition: caught(() => core.createResource({ path: '/todos', schema: Todo })),
    normalize: caught(() => core.normalize(Todo, { title: 'no id' })),
    network: new core.NetworkError(
      { method: 'GET', url: 'https://api.example.com/todos/1' },
      new Response('gone', { status: 404 }),
    ),
  };
}

describe('error prose in production builds', () => {
  it('drops the advice and keeps each error class, its name and its fields', async () => {
    const { code, core } = await coreBuiltFor('production');
    expect(code).not.toContain('Check the path, method, urlPrefix');
    expect(code).not.toContain('so it needs a parameter');
    // the schema classes esbuild keeps whole with the `schema` namespace (Union, Values, All: see test/bench/size.mjs)
    expect(code).not.toContain('names no member; expected one of');
    expect(code).not.toContain('members must be Entity classes');
    // the request a NormalizeError names, a ParseError's cause, a URL argument's kind, the renamed-class report
    expect(code).not.toContain('In the response to');
    expect(code).not.toContain('Query argument');
    expect(code).not.toContain('a minifier renamed it');
    // the abort reasons, a snapshot's refusal, the teardowns' AggregateError, automaticValidation's warning
    expect(code).not.toContain('no fetch awaits it');
    expect(code).not.toContain('nothing of the snapshot was written');
    expect(code).not.toContain('teardowns of the controller threw');
    expect(code).not.toContain('turns this warning off');
    // the functions beside the controller: infinite lists, snapshots
    expect(code).not.toContain('cannot derive a page endpoint');
    expect(code).not.toContain('as takeSnapshot(controller) or getState() give');
    expect(code).not.toContain('expects a Controller as its first argument');
    const { definition, normalize, network } = failures(core);
    expect(definition).toBeInstanceOf(core.EndpointDefinitionError);
    expect(definition.name).toBe('EndpointDefinitionError');
    expect(definition.message).toBe('/todos');
    expect(normalize).toBeInstanceOf(core.NormalizeError);
    expect(normalize.name).toBe('NormalizeError');
    expect((normalize as source.NormalizeError).schemaKey).toBe('Todo');
    expect(normalize.message).toBe('Todo: pk');
    expect(network).toBeInstanceOf(core.RequestError);
    expect(network.name).toBe('NetworkError');
    expect((network as source.NetworkError).status).toBe(404);
    expect(network.message).toBe('GET https://api.example.com/todos/1 404');
    const inResponse = (normalize as source.NormalizeError).inResponseTo({ method: 'GET', url: '/todos/1' });
    expect(inResponse.message).toBe('Todo: pk (GET /todos/1)');
  });

  it("leaves the adapters' advice out of production builds too, and keeps it in development", async () => {
    const external = ['svelte', 'svelte/*', 'solid-js', 'solid-js/*', 'rxjs'];
    const built = (entry: string, nodeEnv: string) => bundled(entry, nodeEnv, external);
    for (const [entry, advice] of [
      ['adapters/svelte/index.ts', 'Call setController(new Controller())'],
      ['adapters/solid/index.ts', 'Wrap your app in <ControllerProvider'],
      ['adapters/persist/index.ts', 'the app goes on without it'],
      ['adapters/sync/index.ts', 'this tab is not synced with others'],
    ] as const) {
      expect(await built(entry, 'production')).not.toContain(advice);
      expect(await built(entry, 'development')).toContain(advice);
    }
  });

  it('keeps every message complete in a development build, as in the source under test', async () => {
    const { code, core } = await coreBuiltFor('development');
    expect(code).toContain('Check the path, method, urlPrefix');
    expect(code).toContain('names no member; expected one of');
    const built = failures(core);
    const tested = failures(source);
    for (const kind of ['definition', 'normalize', 'network'] as const) {
      expect(built[kind].message).toBe(tested[kind].message);
      expect(built[kind].name).toBe(tested[kind].name);
    }
    expect(tested.definition.message).toContain('so it needs a parameter');
    expect(tested.normalize.message).toContain('no usable primary key');
    expect(tested.network.message).toContain('Check the path, method, urlPrefix');
  });
});
