/**
 * Runs one spec end to end: generate into a scratch directory (with the mock server's URL as urlPrefix),
 * type-check the output with `tsc --strict`, import it, and drive a resource through a Controller.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { analyze } from '../src/analyze.js';
import { generate, type GenerateResult } from '../src/generate.js';
import { loadSpec } from '../src/parse.js';
import type { Model } from '../src/model.js';
import { startMockServer, type ExtraTable, type MockServer } from './mockServer.js';

const root = new URL('../..', import.meta.url).pathname;

/** A generated spec with its mock server. */
export interface Generated {
  readonly dir: string;
  readonly result: GenerateResult;
  readonly model: Model;
  readonly server: MockServer;
  dispose(): Promise<void>;
}

/** Generates `spec` against a fresh mock server. */
export async function generateAgainstMock(spec: string, extra: readonly ExtraTable[] = []): Promise<Generated> {
  const doc = await loadSpec(spec);
  const model = analyze(doc);
  const first = (doc.servers ?? [])[0] as
    { url?: string; variables?: Record<string, { default?: string }> } | undefined;
  // the variables' defaults, as the generator takes them (`{port}` as 'x' would be no URL)
  const server0 = first?.url?.replace(/\{([^}]+)\}/g, (_, name: string) => first.variables?.[name]?.default ?? 'x');
  const basePath = server0 ? new URL(server0, 'http://localhost').pathname.replace(/\/$/, '') : '';
  const server = await startMockServer(doc, model, basePath, extra);
  const dir = mkdtempSync(join(tmpdir(), 'rx-rest-openapi-'));
  const result = await generate(spec, { out: dir, config: { urlPrefix: `${server.url}${basePath}` } });
  return {
    dir,
    result,
    model: result.model,
    server,
    async dispose() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `tsc --strict` over the generated files (rx-rest resolved to this repository's sources): the diagnostics. */
export function typeCheck(dir: string, files: Iterable<string>): string[] {
  const program = ts.createProgram(
    [...files].map((name) => join(dir, name)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      skipLibCheck: true,
      types: [],
      paths: { 'rx-rest': [join(root, 'core/index.ts')] },
    },
  );
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || d.file.fileName.startsWith(dir))
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}
