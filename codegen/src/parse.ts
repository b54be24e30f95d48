/**
 * Reading a spec: JSON or YAML text, `$ref`s to other files brought in (each relative to the file that
 * holds it; a schema's under its own name, since names make the entities), Swagger 2.0 converted to
 * OpenAPI 3 (swagger2openapi, loaded only for it), validated by @readme/openapi-parser. The internal
 * `$ref`s are kept: they name the entities.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, relative, resolve } from 'node:path';
import { bundle, compileErrors, validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';

import { SpecError } from './errors.js';

export { SpecError };

/** An OpenAPI 3.x document as plain JSON. */
export type OpenApiDocument = Record<string, any>;

/** Parses JSON or YAML text into a value (YAML is a superset of JSON, but JSON.parse is faster); a byte order mark is skipped. */
function parseValue(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return /^\s*[{[]/.test(body) ? JSON.parse(body) : parseYaml(body, { maxAliasCount: -1 });
  } catch (error) {
    throw new SpecError(`${file} is neither JSON nor YAML: ${(error as Error).message}`, { cause: error });
  }
}

/** Parses JSON or YAML text into a document: an object. */
export function parseText(text: string, file: string): OpenApiDocument {
  const value = parseValue(text, file);
  if (value === null || value === undefined) throw new SpecError(`${file} is empty: it holds no OpenAPI document.`);
  if (typeof value !== 'object' || Array.isArray(value))
    throw new SpecError(
      `${file} holds ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not an OpenAPI document (an object with "openapi" or "swagger").`,
    );
  return value as OpenApiDocument;
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
  const spec = doc;
  const check = async (what: string) => {
    if (options.validate === false) return;
    const result = await validate(structuredClone(spec) as any);
    if (!result.valid) throw new SpecError(`The spec is not valid ${what}:\n${compileErrors(result)}`);
  };
  if (typeof spec.swagger === 'string' && spec.swagger.startsWith('2.')) {
    // checked before the conversion: the errors name the document's own parts (#/definitions/...)
    await check('Swagger 2.0');
    return fromSwagger2(spec);
  }
  if (typeof spec.openapi !== 'string' || !/^3\.[01]\./.test(spec.openapi)) {
    throw new SpecError(`Not an OpenAPI 3.0/3.1 or Swagger 2.0 document (openapi: ${String(spec.openapi)}).`);
  }
  await check('OpenAPI');
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

/** Loads a spec file (`.json`, `.yaml`, `.yml`), with the files its `$ref`s name. */
export async function loadSpec(file: string, options: LoadOptions = {}): Promise<OpenApiDocument> {
  const doc = parseText(await readText(file), file);
  return loadDocument(hasExternalRefs(doc) ? await bringInRefs(doc, resolve(file)) : doc, options);
}

async function readText(file: string, from?: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new SpecError(`Cannot read ${file}${from ?? ''}: ${(error as Error).message}`, { cause: error });
  }
}

/** The members under which a schema's members are not schemas themselves. */
const NOT_SCHEMAS = new Set(['example', 'examples', 'enum', 'default', 'const', 'x-examples']);

/**
 * Replaces every `$ref` to another file (and, inside such a file, to its own parts) by what it names,
 * relative to the file that holds the ref. A schema is added to the document's schemas
 * (`components.schemas`, Swagger's `definitions`) under the last segment of its pointer or its file's
 * name, and referred to there; anything else (a path item, a parameter, a response) is put in place.
 */
async function bringInRefs(doc: OpenApiDocument, file: string): Promise<OpenApiDocument> {
  const swagger = typeof doc.swagger === 'string';
  const home: Record<string, unknown> = swagger ? (doc.definitions ??= {}) : ((doc.components ??= {}).schemas ??= {});
  const prefix = swagger ? '#/definitions/' : '#/components/schemas/';
  const texts = new Map<string, Promise<unknown>>();
  /** `file#pointer` → the name its schema has in `home`. */
  const named = new Map<string, string>();
  const shown = (path: string) => relative(dirname(file), path) || basename(path);

  const target = async (
    ref: string,
    base: string,
  ): Promise<{ id: string; value: unknown; path: string; pointer: string }> => {
    const hash = ref.indexOf('#');
    const part = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    const where = ` (the $ref "${ref}" in ${shown(base)})`;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(part))
      throw new SpecError(`Remote $refs are not fetched${where}: download the file and refer to it by its path.`);
    const path = part === '' ? base : resolve(dirname(base), decodeURI(part));
    let text = texts.get(path);
    if (text === undefined) {
      text = readText(path, where).then((t) => parseValue(t, shown(path)));
      texts.set(path, text);
    }
    let value: unknown = await text;
    for (const segment of pointer.split('/').slice(1)) {
      const key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
      if (typeof value !== 'object' || value === null || !(key in value))
        throw new SpecError(`The $ref "${ref}" in ${shown(base)} names nothing: ${shown(path)} has no #${pointer}.`);
      value = (value as Record<string, unknown>)[key];
    }
    return { id: `${path}#${pointer}`, value, path, pointer };
  };

  const schemaName = (path: string, pointer: string) => {
    const last = pointer.split('/').pop() || basename(path, extname(path));
    let name = last.replace(/~1/g, '/').replace(/~0/g, '~');
    for (let n = 2; name in home; n++) name = `${last}${n}`;
    return name;
  };

  const hoist = async (ref: string, base: string): Promise<string> => {
    const found = await target(ref, base);
    let name = named.get(found.id);
    if (name === undefined) {
      name = schemaName(found.path, found.pointer);
      named.set(found.id, name);
      home[name] = {}; // taken while its own refs are brought in (a schema may refer to itself)
      home[name] = await visit(structuredClone(found.value), found.path, true);
    }
    return `${prefix}${name}`;
  };

  const visit = async (node: unknown, base: string, schema: boolean): Promise<unknown> => {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return Promise.all(node.map((item) => visit(item, base, schema)));
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && (base !== file || !ref.startsWith('#'))) {
      if (schema) return { ...node, $ref: await hoist(ref, base) };
      const found = await target(ref, base);
      return visit(structuredClone(found.value), found.path, false);
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node))
      out[key] = await visit(
        value,
        base,
        schema ? !NOT_SCHEMAS.has(key) : key === 'schema' || key === 'schemas' || key === 'definitions',
      );
    return out;
  };

  // a schema of the document that is a ref to another file keeps its name
  for (const [name, value] of Object.entries(home)) {
    const ref = (value as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string' || ref.startsWith('#')) continue;
    const found = await target(ref, file);
    if (!named.has(found.id)) {
      named.set(found.id, name);
      home[name] = await visit(structuredClone(found.value), found.path, true);
    }
  }
  return (await visit(doc, file, false)) as OpenApiDocument;
}
