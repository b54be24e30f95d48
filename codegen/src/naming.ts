/** Names: identifiers from schema names and operationIds, and rx-rest paths from OpenAPI paths. */
import type { EntityModel } from './model.js';

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await any boolean number string ' +
    'symbol unknown never object undefined'
  ).split(' '),
);

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** `list_pets`, `list-pets`, `listPets` → `listPets`; a leading digit or a reserved word gets a `_`. */
export function camelCase(text: string): string {
  const parts = words(text);
  const name = parts
    .map((word, index) =>
      index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join('');
  return safeIdentifier(name);
}

/** `pet_owner`, `pet.owner`, `PetOwner` → `PetOwner`. */
export function pascalCase(text: string): string {
  const name = words(text)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return safeIdentifier(name);
}

function safeIdentifier(name: string): string {
  if (name === '') return '_';
  if (/^[0-9]/.test(name) || RESERVED.has(name)) return `_${name}`;
  return name;
}

/** Whether `name` can be written unquoted as a property name. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

/** A property key as written in TypeScript: `id`, `'foo-bar'`. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** An OpenAPI path turned into an rx-rest path, with the parameters it had to rename. */
export interface ConvertedPath {
  /** `/pets/:petId` */
  readonly path: string;
  /** OpenAPI parameter name → rx-rest argument name (only those that changed). */
  readonly renamed: ReadonlyMap<string, string>;
  /** OpenAPI parameter names in order. */
  readonly params: readonly string[];
}

/**
 * `/pets/{petId}` → `/pets/:petId`. rx-rest's parameters are word characters only, so `{pet-id}`
 * becomes `:pet_id` (renamed, and the rename reported). Returns a string (the reason) when the path
 * cannot be written in rx-rest's grammar: a literal `:` followed by a word character, or a parameter
 * directly followed by a word character.
 */
export function convertPath(
  openapiPath: string,
  rename: (param: string) => string | undefined = () => undefined,
): ConvertedPath | string {
  const renamed = new Map<string, string>();
  const params: string[] = [];
  const used = new Set<string>();
  let out = '';
  const pattern = /\{([^}]+)\}/g;
  let last = 0;
  for (const match of openapiPath.matchAll(pattern)) {
    const literal = openapiPath.slice(last, match.index);
    if (/:[A-Za-z0-9_]/.test(literal))
      return `the literal "${literal}" holds a ':' that rx-rest would read as a parameter`;
    out += literal;
    const original = match[1]!;
    let name = rename(original) ?? original.replace(/[^A-Za-z0-9_]/g, '_');
    // `{ __proto__: 1 }` sets an object's prototype: no call could pass it
    if (name === '__proto__') name = 'protoValue';
    while (used.has(name)) name = `${name}_`;
    used.add(name);
    if (name !== original) renamed.set(original, name);
    params.push(original);
    out += `:${name}`;
    last = match.index + match[0].length;
    if (/^[A-Za-z0-9_?]/.test(openapiPath.slice(last))) {
      return `the parameter {${original}} is followed by "${openapiPath.slice(last, last + 1)}", which rx-rest would read as part of its name`;
    }
  }
  const rest = openapiPath.slice(last);
  if (/:[A-Za-z0-9_]/.test(rest)) return `the literal "${rest}" holds a ':' that rx-rest would read as a parameter`;
  return { path: out + rest, renamed, params };
}

/** A path parameter's name and OpenAPI `style` (`simple`, its default, `label` or `matrix`). */
export interface PathStyle {
  readonly name: string;
  readonly style: string | undefined;
}

/**
 * The prefixes OpenAPI's `label` (`.value`) and `matrix` (`;name=value`) styles put before a path
 * parameter's value, written into the path around its `{name}` (`/pets/{id}` → `/pets/.{id}`), so that
 * rx-rest writes the URL the spec describes. `simple` (the default) writes the value alone.
 */
export function styledPath(openapiPath: string, params: readonly PathStyle[]): string {
  return openapiPath.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const style = params.find((p) => p.name === name)?.style;
    if (style === 'label') return `.${whole}`;
    if (style === 'matrix') return `;${name}=${whole}`;
    return whole;
  });
}

/**
 * Names the generated files declare or read besides the spec's own: rx-rest's imports, the client's
 * exports, and the globals a generated file uses (`new Date(iso)`, `String(params.id)`, ...). A schema or
 * operation named like one of them gets a suffix (`Entity2`).
 */
export const GENERATED_NAMES: readonly string[] = [
  'Entity',
  'schema',
  'RestEndpoint',
  'createResource',
  'urlPrefix',
  'requestHeaders',
  'sendHeaders',
  'ApiEndpoint',
  'withQueryNames',
  'withPathStyles',
  'pathValues',
  'Date',
  'Temporal',
  'String',
  'Record',
  'Promise',
  'RequestInit',
];
/** The files every output has (besides one per entity), lower-cased. */
const GENERATED_FILES = ['index', 'types', 'unions', 'resources', 'endpoints', 'client'];

/**
 * Gives each name once: a second `listPets` becomes `listPets2`. Names that are also file names (the entity
 * classes, `Pet.ts`) are unique ignoring case too, since macOS and Windows file systems ignore it (`Pet.ts`
 * and `pet.ts`, `Types.ts` and the generated `types.ts`, are one file there).
 */
export class NameRegistry {
  readonly #used = new Set<string>(GENERATED_NAMES);
  readonly #files = new Set<string>(GENERATED_FILES);
  /** Reserves `name` (or `name2`, `name3`, ...) and returns what it reserved. */
  take(name: string): string {
    let candidate = name;
    for (let n = 2; this.#used.has(candidate); n++) candidate = `${name}${n}`;
    this.#used.add(candidate);
    return candidate;
  }
  /** Reserves a name that also names a file `<name>.ts`: unique as `take` gives it and ignoring case. */
  takeFile(name: string): string {
    let candidate = name;
    for (let n = 2; this.#used.has(candidate) || this.#files.has(candidate.toLowerCase()); n++)
      candidate = `${name}${n}`;
    this.#used.add(candidate);
    this.#files.add(candidate.toLowerCase());
    return candidate;
  }
}

/**
 * Properties that cannot be an instance's field, each with the field that holds its value (`pk`: the Entity's
 * method `pk()`; `constructor`: a class cannot declare one; `__proto__`: assigning it would set the prototype). The
 * store keeps the property as sent; `process` copies it to that field.
 */
const DATA_ONLY = new Map([
  ['pk', 'pkValue'],
  ['constructor', 'constructorValue'],
  ['__proto__', 'protoValue'],
]);

/** The field holding each data-only property of `entity` (see `DATA_ONLY`): `pkValue`, or `pkValue2` when that is taken. */
export function dataOnlyFields(entity: Pick<EntityModel, 'fields'>): Map<string, string> {
  const copies = new Map<string, string>();
  for (const field of entity.fields) {
    const base = DATA_ONLY.get(field.name);
    if (base === undefined) continue;
    let copy = base;
    for (let n = 2; entity.fields.some((f) => f.name === copy) || [...copies.values()].includes(copy); n++)
      copy = `${base}${n}`;
    copies.set(field.name, copy);
  }
  return copies;
}
