/**
 * Named errors of rx-rest. Every message says what failed (which entity, endpoint or URL), what was
 * found instead, and what to do about it. In an app's production build (where the bundler defines
 * `process.env.NODE_ENV` as `"production"`, as Vite and esbuild do) the advice and the longer
 * explanations are left out of the bundle: each error keeps its class, its name and its fields, and its
 * message names what failed. Each guard is written `process.env.NODE_ENV !== 'production'` where the prose
 * is, so that the bundler's constant folding drops the prose there.
 *
 * This module holds the errors about data and definitions (a response that does not fit its schema or its
 * validator, a malformed schema, endpoint or snapshot) and re-exports the errors of one request
 * (core/requestErrors.ts) and the helpers that show values in messages (core/preview.ts): import any of
 * them from here.
 */
import { preview } from './preview.js';
import { describeRequest, type RequestDescription } from './requestErrors.js';

export { describeKind, preview, toError, truncate } from './preview.js';
export {
  AbortError,
  NetworkError,
  ParseError,
  RequestError,
  TimeoutError,
  type RequestDescription,
} from './requestErrors.js';

/**
 * Thrown when a response (or a value given to `setResponse`) does not fit its schema: a missing or
 * unusable primary key, an array where an entity was expected, a cycle in the input, ... The store is
 * never changed by a normalize that throws.
 */
export class NormalizeError extends Error {
  override readonly name = 'NormalizeError';
  /** The `key` of the entity or schema that rejected the input (e.g. `'Todo'`). */
  declare readonly schemaKey: string;
  /** The offending input value. */
  declare readonly input: unknown;

  /** The request whose response did not fit, when the controller normalized one. */
  declare readonly request: RequestDescription | undefined;
  readonly #detail: string;

  constructor(schemaKey: string, message: string, input: unknown, request?: RequestDescription) {
    const where = !request
      ? ''
      : process.env.NODE_ENV !== 'production'
        ? `${/[.!?]$/.test(message) ? '' : '.'} In the response to ${describeRequest(request)}.`
        : ` (${describeRequest(request)})`;
    super(`${schemaKey}: ${message}${where}`);
    this.schemaKey = schemaKey;
    // not enumerable: an error kept in the state must not carry a (possibly cyclic) input into JSON
    Object.defineProperty(this, 'input', { value: input, enumerable: false });
    this.request = request;
    this.#detail = message;
  }

  /** The same error, its message also naming the request whose response it rejected (the controller adds this). */
  inResponseTo(request: RequestDescription): NormalizeError {
    const error = new NormalizeError(this.schemaKey, this.#detail, this.input, request);
    if (this.stack) error.stack = this.stack.replace(this.message, error.message);
    return error;
  }
}

/** One issue a Standard Schema validator found (its spec's `Issue`): a message and where in the value. */
export interface StandardIssue {
  /** What is wrong, in the validator's words. */
  readonly message: string;
  /** Where in the value: keys and indexes from the top (`['items', 0, 'title']`), or segments holding them. */
  readonly path?: ReadonlyArray<PropertyKey | StandardPathSegment> | undefined;
}

/** A segment of an issue's path, as some validators give it (`{ key: 'title' }`). */
export interface StandardPathSegment {
  /** The key or index. */
  readonly key: PropertyKey;
}

/** Where a `ValidationError` happened: the request, the entity and its pk, as far as they are known. */
export interface ValidationContext {
  /** The request whose response failed (the controller adds it to an entity's failure). */
  readonly request?: RequestDescription | undefined;
  /** The entity whose `static validator` rejected a record (e.g. `'Todo'`). */
  readonly entity?: string | undefined;
  /** The pk of the rejected record, when it could be computed. */
  readonly pk?: string | undefined;
}

/**
 * Rejects a request whose response a validator refused: the endpoint's `responseSchema` (the whole
 * body) or an entity's `static validator` (one record). Nothing of that response is written; an
 * observer that had data keeps it and shows this error, and the request is not retried.
 *
 * @example
 * try { await controller.fetch(TodoResource.get, { id: 1 }); }
 * catch (error) { if (error instanceof ValidationError) console.warn(error.entity, error.pk, error.issues); }
 */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  /** The issues, as the validator gave them. */
  declare readonly issues: readonly StandardIssue[];
  /** The request, when known. */
  declare readonly request: RequestDescription | undefined;
  /** The entity whose validator refused a record (`undefined` for an endpoint's `responseSchema`). */
  declare readonly entity: string | undefined;
  /** The pk of the refused record, when `pk()` makes a usable one of it (`undefined` for a partial record without its id). */
  declare readonly pk: string | undefined;
  /** The value that was refused (the body, or the processed record). */
  declare readonly value: unknown;

  /**
   * `cause`: what a `validate()` that threw threw (`issues` then holds one issue, its message); `error.cause`
   * keeps it.
   */
  constructor(issues: readonly StandardIssue[], value: unknown, context: ValidationContext, cause?: unknown) {
    const { request, entity, pk } = context;
    super(
      process.env.NODE_ENV !== 'production'
        ? validationMessage(issues, context, cause !== undefined)
        : `${entity ?? 'responseSchema'}: ${issues[0]?.message}`,
      { cause },
    );
    this.issues = issues;
    this.request = request;
    this.entity = entity;
    this.pk = pk;
    // not enumerable: an error kept in the state must not carry the value into JSON
    Object.defineProperty(this, 'value', { value });
  }

  /** The same error, its message also naming the request whose response it rejected (the controller adds this). */
  inResponseTo(request: RequestDescription): ValidationError {
    // (its own fields, as a context: `entity` and `pk`)
    return new ValidationError(this.issues, this.value, { ...this, request }, this.cause);
  }
}

/**
 * @internal Issues as JSON-safe data (for a snapshot or a server-rendered page), and issues read back from
 * such data: each issue whose `message` is a string, as `{ message, path }` with the path's keys (a `{ key }`
 * segment unwrapped, a key that is no number as a string). Anything that is no list gives none, an issue
 * without a string message is left out: what a hostile snapshot holds there is dropped, never thrown.
 */
export function jsonSafeIssues(issues: unknown): StandardIssue[] {
  return (Array.isArray(issues) ? issues : []).flatMap((issue: { message?: unknown; path?: unknown } | null) =>
    typeof issue?.message !== 'string'
      ? []
      : Array.isArray(issue.path)
        ? {
            message: issue.message,
            path: issue.path.map((segment: { key?: unknown } | null) => {
              const key = segment?.key ?? segment;
              return typeof key === 'number' ? key : String(key);
            }),
          }
        : { message: issue.message },
  );
}

/** An error as plain data, as a snapshot's meta holds it: name, message and status, and a `ValidationError`'s issues, entity and pk. */
export interface PlainError {
  readonly name: string;
  readonly message: string;
  readonly status?: number;
  /** A `ValidationError`'s issues (JSON-safe), entity and pk. */
  readonly issues?: readonly StandardIssue[];
  readonly entity?: string | undefined;
  readonly pk?: string | undefined;
}

/**
 * @internal An error as plain data (a snapshot's meta, the error a server render sends to the page): its
 * name, message and numeric status, and a `ValidationError`'s issues (JSON-safe), entity and pk; never its
 * stack, its response or the value it refused.
 */
export function plainError(error: Error): PlainError {
  const { name, message } = error;
  const status = (error as { status?: unknown }).status;
  const plain = typeof status === 'number' ? { name, message, status } : { name, message };
  return error instanceof ValidationError
    ? { ...plain, issues: jsonSafeIssues(error.issues), entity: error.entity, pk: error.pk }
    : plain;
}

/**
 * @internal The error a state's meta keeps, given a `toJSON` (`plainError`) when it has none (a plain `Error`, whose
 * name and message JSON leaves out): `getState()` JSON then keeps them for `initialState`. The same object (an app
 * may compare it), the property not enumerable; a frozen or non-extensible error is kept as it is.
 */
export function jsonKept(error: Error): Error {
  // Reflect's: false (no throw) for a frozen error
  if (!('toJSON' in error)) Reflect.defineProperty(error, 'toJSON', { value: errorToJSON, configurable: true });
  return error;
}

/** A plain error's JSON: what JSON writes of it (its own enumerable fields, a `status`), with its name and message. */
function errorToJSON(this: Error): object {
  return { ...this, name: this.name, message: this.message };
}

/**
 * @internal An error rebuilt from what `plainError` gives (or from an error in a `getState()` JSON): a
 * `ValidationError` again for one named so (its message, when it has none, made from its issues), else an
 * `Error` with its name, message and status; JSON keeps them (`jsonKept`). Malformed parts
 * (issues no list, an entity or pk no string, ...) are dropped; `undefined` for what is no object.
 */
export function restoreError(value: unknown): Error | undefined {
  if (value instanceof Error) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, message, status, issues, entity, pk } = value as Partial<Record<keyof PlainError, unknown>>;
  const text = (field: unknown) => (typeof field === 'string' ? field : undefined);
  const error =
    name === 'ValidationError'
      ? new ValidationError(jsonSafeIssues(issues), undefined, { entity: text(entity), pk: text(pk) })
      : Object.assign(new Error('Restored error'), text(name) && { name });
  if (typeof message === 'string') error.message = message;
  // written by JSON again (the restored state persisted, sent to another tab)
  return jsonKept(typeof status === 'number' ? Object.assign(error, { status }) : error);
}

/** A `ValidationError`'s message: who failed, in the response to what, where in the value, and the first issue. */
function validationMessage(
  issues: readonly StandardIssue[],
  { request, entity, pk }: ValidationContext,
  threw: boolean,
): string {
  // the first issue's path as text: `[2].title`
  let path = '';
  // (a hand-written validator's path may hold what the standard does not: null, or be no list)
  const at = issues[0]?.path;
  for (const segment of Array.isArray(at) ? at : []) {
    const key = (segment as StandardPathSegment | null)?.key ?? segment;
    path += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return (
    `${entity ? `${entity}${pk == null ? '' : ` "${pk}"`} failed its validator` : 'The response failed its responseSchema'}` +
    `${request ? ` in the response to ${describeRequest(request)}` : ''}${path && ` at ${path.replace(/^\./, '')}`}: ` +
    `${threw ? 'its validate() threw: ' : ''}` +
    `${issues[0]?.message ?? 'the validator gave no issue'}${issues.length > 1 ? ` (+${issues.length - 1} more issues)` : ''}`
  );
}

/**
 * Thrown when reading an entity whose field deserializer (`static schema = { createdAt: Temporal.Instant.from }`)
 * rejects the stored value. The raw value stays in the store; fix the data or make the deserializer tolerant.
 */
export class DeserializeError extends Error {
  override readonly name = 'DeserializeError';
  /** The entity key (e.g. `'Todo'`). */
  declare readonly schemaKey: string;
  /** The field whose deserializer failed. */
  declare readonly field: string;
  /** The stored value it was given. */
  declare readonly value: unknown;

  constructor(schemaKey: string, field: string, value: unknown, cause: unknown) {
    super(
      process.env.NODE_ENV !== 'production'
        ? `${schemaKey}.${field}: the deserializer failed on ${preview(value)}: ${cause instanceof Error ? cause.message : String(cause)}`
        : `${schemaKey}.${field}`,
      { cause },
    );
    this.schemaKey = schemaKey;
    this.field = field;
    this.value = value;
  }
}

/** Thrown when a schema itself is malformed (e.g. an Entity without `pk()`, `new schema.Invalidate()` without an entity). */
export class SchemaDefinitionError extends Error {
  override readonly name = 'SchemaDefinitionError';
}

/**
 * Thrown when an endpoint or a resource is defined or derived wrongly: a resource path without a
 * parameter, `getList.push` on an endpoint whose schema holds no Collection, ... The message names the
 * endpoint and what to change.
 */
export class EndpointDefinitionError extends Error {
  override readonly name = 'EndpointDefinitionError';
}

/**
 * Thrown by `restoreSnapshot` and `new Controller({ initialState })` for a snapshot that cannot be
 * restored safely: a time (`date`, `fetchedAt`, `expiresAt`) that is not a finite number, or values
 * nested more than 4,096 levels deep (which the merge and the reads could not walk). Nothing of the
 * snapshot is written: the store is as it was. A `TypeError`, like the error for a value that is no
 * snapshot at all. In development, also thrown by `JSON.stringify` of a state (`getState()`, `state$`) or a
 * snapshot that holds a bigint, naming where (`entities.Todo.2.amount`), instead of JSON's own TypeError.
 *
 * @example
 * try { restoreSnapshot(controller, JSON.parse(saved)); }
 * catch (error) { if (error instanceof SnapshotError) console.warn(error.path, error.message); }
 */
export class SnapshotError extends TypeError {
  override readonly name = 'SnapshotError';
  /** Where in the snapshot the problem is, e.g. `entitiesMeta.Todo.1.fetchedAt` (`''` for the whole value). */
  declare readonly path: string;
  /** What is wrong there (the message without the call and the path). */
  declare readonly detail: string;

  /** `source`: what was restoring (`'restoreSnapshot'`, `'new Controller({ initialState })'`). */
  constructor(path: string, detail: string, source = 'restoreSnapshot') {
    super(`${source}: ${path ? `${path}: ` : ''}${detail}`);
    this.path = path;
    this.detail = detail;
  }
}

/**
 * @internal Reports `error` as an uncaught error of its own microtask: what runs a list of callbacks (the
 * store's listeners, the end of a task's afterQueries, the add-ons waiting for hydration) calls it for one
 * that threw, so that the others still run and the error is not lost.
 */
export function reportLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
