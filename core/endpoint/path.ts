/**
 * The path grammar of rx-rest, once for the runtime and once for the type checker.
 *
 * A path parameter is `:` followed by one or more word characters (`A-Z a-z 0-9 _`); a `?` right
 * after the name makes it optional. Everything else in a path is literal. The same grammar drives
 * `compilePath` (runtime) and `PathArgs` / `PathKeys` (types), pinned by `test/endpoint/path.test-d.ts`.
 */

import { EndpointDefinitionError, describeKind } from '../errors.js';

/** The value a path parameter accepts. */
export type PathValue = string | number;

/** One `:name` or `:name?` token of a path, with where it sits in the path text. */
export interface PathParam {
  readonly name: string;
  readonly optional: boolean;
  /** Index of the `:` in the path. */
  readonly start: number;
  /** Index just past the name (and its `?`). */
  readonly end: number;
}

const PARAM = /:([A-Za-z0-9_]+)(\?)?/g;
const parsed = new Map<string, readonly PathParam[]>();

/** Lists the parameters of a path in order of appearance (parsed once per path, then cached). */
export function parsePath(path: string): readonly PathParam[] {
  let params = parsed.get(path);
  if (params === undefined) {
    params = Array.from(path.matchAll(PARAM), (match) => ({
      name: match[1]!,
      optional: match[2] === '?',
      start: match.index,
      end: match.index + match[0].length,
    }));
    parsed.set(path, params);
  }
  return params;
}

/** Syntax of data-client's path-to-regexp that this grammar would read as literal text (and so build wrong URLs). */
const UNSUPPORTED = /[{}*\\]|:\w+[(+]/;

/** What `UNSUPPORTED` found in `path`, for the development message. */
const unsupportedSyntax = (path: string): string =>
  (
    [
      [/[{}]/, '`{...}` groups'],
      [/:\w+\(/, 'custom patterns `:name(...)`'],
      [/:\w+\+/, '`+` modifiers'],
      [/\*/, 'wildcards `*`'],
      [/\\/, 'escapes `\\`'],
    ] as const
  ).find(([test]) => test.test(path))![1];

/**
 * Throws an EndpointDefinitionError when `path` uses syntax outside rx-rest's grammar (`{...}` groups,
 * wildcards, `:name(pattern)`, `+`, escapes), so that an endpoint fails when it is built rather than
 * requesting wrong URLs.
 *
 * @example
 * assertPathSyntax('/todos{/:id}'); // throws: groups are not supported
 */
export function assertPathSyntax(path: string): void {
  if (typeof path !== 'string') {
    throw new EndpointDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `An endpoint's path must be a string, but it is ${describeKind(path)}.`
        : 'path',
    );
  }
  if (UNSUPPORTED.test(path)) {
    throw new EndpointDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `Path "${path}": ${unsupportedSyntax(path)} are not supported; a path is literal text with \`:name\` and \`:name?\` parameters.`
        : path,
    );
  }
}

/** The names of the path parameters of `path`: `pathKeys('/:group/posts/:id?')` is `['group', 'id']`. */
export function pathKeys(path: string): string[] {
  return parsePath(path).map((param) => param.name);
}

/**
 * Fills the parameters of `path` from `args`, each value through `encodeURIComponent`, so that a
 * value such as `'../admin'` or `'a?b=c'` stays inside its own segment.
 *
 * An optional parameter whose value is `undefined` (or `null`) is left out together with the `/` in
 * front of it. A required parameter that is missing, `null` or `''` throws: an empty segment would
 * silently address a different resource (`/todos/` instead of `/todos/5`). A value that is not a
 * string or a finite number (an object, an array, a boolean, `NaN`) throws a `TypeError`, and so does
 * `'.'` or `'..'` as a whole segment: the URL parser would resolve it (`/todos/..` requests `/`).
 *
 * @example
 * compilePath('/:group/posts/:id?', { group: 'a b' }); // '/a%20b/posts'
 */
export function compilePath(path: string, args: Readonly<Record<string, unknown>> = {}): string {
  let out = '';
  let last = 0;
  const dots: [at: number, name: string][] = [];
  for (const param of parsePath(path)) {
    const value = args[param.name];
    let literal = path.slice(last, param.start);
    if (value === undefined || value === null || value === '') {
      if (!param.optional) {
        throw new Error(
          process.env.NODE_ENV !== 'production'
            ? `Missing ${paramText(path, param.name, 'path parameter')}: got ${value === '' ? 'an empty string' : String(value)}. ` +
                `Pass { ${param.name}: ... }, or write ":${param.name}?" to make it optional.`
            : `${path}: ${param.name}`,
        );
      }
      if (literal.endsWith('/')) literal = literal.slice(0, -1);
      out += literal;
    } else {
      out += literal;
      if (value === '.' || value === '..') dots.push([out.length, param.name]);
      out += encodeArgument(pathValue(path, param.name, value), path, param.name);
    }
    last = param.end;
  }
  out += path.slice(last);
  for (const [at, name] of dots) assertNotDotSegment(path, name, out, at);
  return out === '' ? '/' : out;
}

/** `Path parameter "id" for path "/todos/:id"`: how the errors about one argument start. */
function paramText(path: string, name: string, kind = 'Path parameter'): string {
  return `${kind} "${name}" for path "${path}"`;
}

/** A path parameter's value as text: strings and finite numbers only (`{}`, `[]`, `true`, `NaN` would name another resource). */
function pathValue(path: string, name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new TypeError(
    process.env.NODE_ENV !== 'production'
      ? `${paramText(path, name)} must be a string or a finite number, but it is ${describeKind(value)}. Pass the identifier itself, not an object holding it.`
      : `${path}: ${name}`,
  );
}

/**
 * `encodeURIComponent`, with a clear error for a lone surrogate (which no URL can carry) naming the argument
 * `name` of `path` (its text made only then: this runs for every argument of every URL).
 */
function encodeArgument(text: string, path: string, name: string, kind?: string): string {
  try {
    return encodeURIComponent(text);
  } catch (cause) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${paramText(path, name, kind)} holds a lone UTF-16 surrogate, which a URL cannot carry: ${JSON.stringify(text)}.`
        : `${path}: ${name}`,
      {
        cause,
      },
    );
  }
}

/** Throws when the segment of `out` holding a value that starts at `at` is `.` or `..`, which URL parsing would resolve away. */
function assertNotDotSegment(path: string, name: string, out: string, at: number): void {
  const start = out.lastIndexOf('/', at - 1) + 1;
  let end = at;
  while (end < out.length && out[end] !== '/' && out[end] !== '?' && out[end] !== '#') end++;
  const segment = out.slice(start, end);
  if (segment === '.' || segment === '..') {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${paramText(path, name)} makes the segment "${segment}", which the URL would resolve to another path. Reject such identifiers.`
        : `${path}: ${name}`,
    );
  }
}

/**
 * Drops the last path parameter and everything after it, and the `/` before it:
 * `'/:a/:b'` gives `'/:a'`, `'/:a'` gives `'/'`, `'/:group/posts/:id'` gives `'/:group/posts'`.
 * A path without parameters is returned unchanged.
 */
export function removeLastArg<P extends string>(path: P): RemoveLastArg<P> {
  const params = parsePath(path);
  const lastParam = params[params.length - 1];
  if (lastParam === undefined) return path as RemoveLastArg<P>;
  const head = path.slice(0, lastParam.start).replace(/\/$/, '');
  return (head === '' ? '/' : head) as RemoveLastArg<P>;
}

/**
 * Builds the query string (without `?`) from every argument that is not a path parameter: keys in
 * sorted order, `undefined` and `null` left out, arrays as a repeated key (`id=1&id=3`), keys and
 * values through `encodeURIComponent`. Dates are written as ISO strings, other objects as JSON.
 */
export function searchString(path: string, args: Readonly<Record<string, unknown>> = {}): string {
  const inPath = new Set(pathKeys(path));
  const pairs: string[] = [];
  for (const key of Object.keys(args).sort()) {
    if (inPath.has(key)) continue;
    const value = args[key];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      pairs.push(
        `${encodeArgument(key, path, key, QUERY_ARGUMENT)}=${encodeArgument(queryValue(item), path, key, QUERY_ARGUMENT)}`,
      );
    }
  }
  return pairs.join('&');
}

/** How the development messages name a query-string argument (left out of production builds). */
const QUERY_ARGUMENT = process.env.NODE_ENV !== 'production' ? 'Query argument' : undefined;

const regexes = new Map<string, RegExp>();

/**
 * A RegExp matching the filled forms of `path` (without query string): a parameter matches one
 * non-empty segment, an optional `/:name?` may be absent. `pathRegex('/todos/:id').test('/todos/5')`.
 */
export function pathRegex(path: string): RegExp {
  let regex = regexes.get(path);
  if (regex === undefined) {
    let source = '';
    let at = 0;
    for (const param of parsePath(path)) {
      const literal = path.slice(at, param.start);
      if (param.optional && literal.endsWith('/')) source += `${escapeRegExp(literal.slice(0, -1))}(?:/[^/?#]+)?`;
      else source += `${escapeRegExp(literal)}${param.optional ? '(?:[^/?#]+)?' : '[^/?#]+'}`;
      at = param.end;
    }
    regex = new RegExp(`^${source}${escapeRegExp(path.slice(at))}$`);
    regexes.set(path, regex);
  }
  return regex;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The path filled from `args` plus its query string: `'/todos/5?sort=asc'`. */
export function pathWithSearch(path: string, args: Readonly<Record<string, unknown>> = {}): string {
  const compiled = compilePath(path, args);
  const search = searchString(path, args);
  if (search === '') return compiled;
  return `${compiled}${compiled.includes('?') ? '&' : '?'}${search}`;
}

function queryValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

// ---------------------------------------------------------------------------------------------
// Types: the same grammar, read by the type checker.

type WordChar =
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z'
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z'
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | '_';

/** Splits `S` into its leading run of word characters and the rest: `TakeName<'id/x'>` is `['id', '/x']`. */
type TakeName<S extends string, Name extends string = ''> = S extends `${infer C}${infer Rest}`
  ? C extends WordChar
    ? TakeName<Rest, `${Name}${C}`>
    : [Name, S]
  : [Name, ''];

/** The parameter tokens of a path, `'name'` or `'name?'` for optional ones. */
type ParamTokens<P extends string> = P extends `${string}:${infer After}`
  ? TakeName<After> extends [infer Name extends string, infer Rest extends string]
    ? Name extends ''
      ? ParamTokens<Rest>
      : Rest extends `?${infer AfterOptional}`
        ? `${Name}?` | ParamTokens<AfterOptional>
        : Name | ParamTokens<Rest>
    : never
  : never;

type OptionalName<T> = T extends `${infer Name}?` ? Name : never;
type RequiredName<T> = T extends `${string}?` ? never : T;

/** The parameter names of a path: `PathKeys<'/:group/posts/:id?'>` is `'group' | 'id'`; `string` for a non-literal path. */
export type PathKeys<P extends string> = string extends P
  ? string
  : RequiredName<ParamTokens<P>> | OptionalName<ParamTokens<P>>;

/** `true` when the path has at least one parameter (and for a non-literal `string` path, which may). */
export type HasPathParams<P extends string> = [PathKeys<P>] extends [never] ? false : true;

/** A literal path without parameters: `ParamlessPath<'/todos'>` is `'/todos'`, `ParamlessPath<'/todos/:id'>` is `never`. */
export type ParamlessPath<P extends string> = HasPathParams<P> extends true ? never : P;

/**
 * The argument object a path needs: `PathArgs<'/:group/posts/:id'>` is
 * `{ group: string | number; id: string | number }`; `:q?` gives `q?: string | number`. A path without
 * parameters gives `{}`; a non-literal `string` path gives a record of optional values.
 */
export type PathArgs<P extends string> = string extends P
  ? { [key: string]: PathValue | undefined }
  : {
        [K in RequiredName<ParamTokens<P>>]: PathValue;
      } & {
        [K in OptionalName<ParamTokens<P>>]?: PathValue;
      } extends infer A
    ? { [K in keyof A]: A[K] }
    : never;

/** Everything before the last parameter (see `removeLastArg`); `Done` collects the text already passed. */
type BeforeLastParam<P extends string, Done extends string = ''> = P extends `${infer Head}:${infer Tail}`
  ? TakeName<Tail> extends ['', string]
    ? BeforeLastParam<Tail, `${Done}${Head}:`> // this ':' starts no parameter
    : [ParamTokens<Tail>] extends [never]
      ? `${Done}${Head}`
      : BeforeLastParam<Tail, `${Done}${Head}:`>
  : `${Done}${P}`;

type TrimTrailingSlash<P extends string> = P extends `${infer Head}/` ? Head : P;

/** The type of `removeLastArg(path)`: `RemoveLastArg<'/:group/posts/:id'>` is `'/:group/posts'`. */
export type RemoveLastArg<P extends string> = string extends P
  ? string
  : HasPathParams<P> extends false
    ? P
    : TrimTrailingSlash<BeforeLastParam<P>> extends infer Short extends string
      ? Short extends ''
        ? '/'
        : Short
      : never;
