/**
 * Reading a spec: JSON or YAML text, Swagger 2.0 converted to OpenAPI 3 (swagger2openapi, loaded only
 * for it), validated and bundled by @readme/openapi-parser, which keeps the internal `$ref`s: they
 * name the entities.
 */
import { readFile } from 'node:fs/promises';
import { bundle, compileErrors, validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';

/** A spec that cannot be read: not JSON/YAML, not OpenAPI, or invalid. */
export class SpecError extends Error {
  override readonly name = 'SpecError';
}

/** An OpenAPI 3.x document as plain JSON. */
export type OpenApiDocument = Record<string, any>;

/** Parses JSON or YAML text into a document (YAML is a superset of JSON, but JSON.parse is faster). */
export function parseText(text: string, file: string): OpenApiDocument {
  try {
    const value: unknown = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 });
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as OpenApiDocument;
  } catch (error) {
    throw new SpecError(`${file} is neither JSON nor YAML: ${(error as Error).message}`, { cause: error });
  }
}

/** Converts a Swagger 2.0 document to OpenAPI 3.0 (the converter is loaded only here). */
async function fromSwagger2(doc: OpenApiDocument): Promise<OpenApiDocument> {
  // @ts-expect-error swagger2openapi ships no types
  const { default: converter } = (await import('swagger2openapi')) as any;
  const { openapi } = await converter.convertObj(doc, { patch: true, warnOnly: true });
  return openapi as OpenApiDocument;
}

/** Options of `loadSpec`. */
export interface LoadOptions {
  /** Validate against the OpenAPI schema first (default true). */
  readonly validate?: boolean;
}

/** Loads a spec from a document: converts Swagger 2.0, validates, bundles (internal refs kept). */
export async function loadDocument(doc: OpenApiDocument, options: LoadOptions = {}): Promise<OpenApiDocument> {
  let spec = doc;
  if (typeof spec.swagger === 'string' && spec.swagger.startsWith('2.')) spec = await fromSwagger2(spec);
  if (typeof spec.openapi !== 'string' || !/^3\.[01]\./.test(spec.openapi)) {
    throw new SpecError(`Not an OpenAPI 3.0/3.1 or Swagger 2.0 document (openapi: ${String(spec.openapi)}).`);
  }
  if (options.validate !== false) {
    const result = await validate(structuredClone(spec) as any);
    if (!result.valid) throw new SpecError(`The spec is not valid OpenAPI:\n${compileErrors(result)}`);
  }
  // bundling only pulls in external files: a document whose refs are all internal is already bundled
  return hasExternalRefs(spec) ? ((await bundle(spec as any)) as OpenApiDocument) : spec;
}

function hasExternalRefs(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(hasExternalRefs);
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) return true;
  return Object.values(node).some(hasExternalRefs);
}

/** Loads a spec file (`.json`, `.yaml`, `.yml`). */
export async function loadSpec(file: string, options: LoadOptions = {}): Promise<OpenApiDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SpecError(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  return loadDocument(parseText(text, file), options);
}
