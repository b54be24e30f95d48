/**
 * Standard Schema v1 (https://standardschema.dev), the interface zod 4, valibot 1 and arktype 2
 * implement: the types, written out here so that the core depends on none of them, and the one check
 * an entity's `static validator` runs while a record is normalized.
 */
import {
  ValidationError,
  describeKind,
  type StandardIssue,
  type StandardPathSegment,
  type ValidationContext,
} from '../errors.js';

export type { StandardIssue, StandardPathSegment };

/**
 * A Standard Schema v1 object: a zod 4, valibot 1 or arktype 2 schema, or one written by hand.
 *
 * @example
 * const positive: StandardSchemaV1<number> = {
 *   '~standard': {
 *     version: 1,
 *     vendor: 'my-app',
 *     validate: (value) =>
 *       typeof value === 'number' && value > 0 ? { value } : { issues: [{ message: 'expected a positive number' }] },
 *   },
 * };
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The standard's properties. */
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** What a Standard Schema holds under `'~standard'`. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** The version of the standard: 1. */
  readonly version: 1;
  /** The library that made the schema (`'zod'`, `'valibot'`, `'arktype'`, ...). */
  readonly vendor: string;
  /** Checks a value: its (possibly transformed) output, or the issues found; synchronously or as a Promise. */
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  /** The input and output types, for TypeScript only (never present at run time). */
  readonly types?: StandardTypes<Input, Output> | undefined;
}

/** The result of `validate`: the output, or the issues. */
export type StandardResult<Output> = StandardSuccess<Output> | StandardFailure;

/** A value that passed: `value` is the validator's output. */
export interface StandardSuccess<Output> {
  /** The output (the input, or what the validator made of it: defaults filled in, unknown keys left out, ...). */
  readonly value: Output;
  /** Absent: no issues. */
  readonly issues?: undefined;
}

/** A value that failed: what was wrong with it. */
export interface StandardFailure {
  /** The issues found (at least one). */
  readonly issues: ReadonlyArray<StandardIssue>;
}

/** The input and output types of a Standard Schema (type-level only). */
export interface StandardTypes<Input = unknown, Output = Input> {
  /** What the schema accepts. */
  readonly input: Input;
  /** What it gives back. */
  readonly output: Output;
}

/** The output type of a Standard Schema (`unknown` when it does not say). */
export type InferOutput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : unknown;

/** The input type of a Standard Schema (`unknown` when it does not say). */
export type InferInput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly input: infer I }
    ? I
    : unknown
  : unknown;

/**
 * Runs a Standard Schema on `value`: its output, or a Promise of it when the schema answered with one (any
 * thenable: a Promise of another realm or library is one too). A failure throws (rejects with) a
 * `ValidationError` naming what `context` tells; so does a `validate()` that throws (or whose Promise
 * rejects), with what it threw as the `cause` and as the one issue's message; an answer that is neither `{ value }` nor
 * `{ issues }`, a `TypeError` naming the validator.
 */
export function validated(
  schema: StandardSchemaV1,
  value: unknown,
  context: () => ValidationContext,
): unknown | Promise<unknown> {
  const output = (answer: any) => {
    if (answer?.issues) throw new ValidationError(answer.issues, value, context());
    if (!('value' in Object(answer)))
      throw new TypeError(process.env.NODE_ENV !== 'production' ? oddAnswer(answer, context()) : 'validate()');
    return answer.value;
  };
  // a validator that throws refuses the value too (a transform that met what it did not expect)
  const threw = (cause: unknown): never => {
    throw new ValidationError([{ message: String(cause) }], value, context(), cause);
  };
  let result: any;
  try {
    result = schema['~standard'].validate(value);
  } catch (cause) {
    threw(cause);
  }
  return result?.then ? Promise.resolve(result).then(output, threw) : output(result);
}

/** The message of a `validate()` that answered neither `{ value }` nor `{ issues }`. */
function oddAnswer(answer: unknown, { entity, request }: ValidationContext): string {
  return (
    `${entity ? `${entity}'s static validator` : `The responseSchema of ${request?.endpoint}`} returned ` +
    `${describeKind(answer)}: a Standard Schema's validate() returns { value } or { issues } (or a Promise of one).`
  );
}

/** A class field's type as a validator's output must give it: primitives (and lists of them) as declared, anything else (a nested entity, a deserialized value) unchecked. */
type StoredField<V> = [V] extends [
  string | number | boolean | bigint | null | undefined | readonly (string | number | boolean | null)[],
]
  ? V
  : unknown;

/**
 * The stored shape of an entity's record as its validator must give it: each data field of `T`
 * optional (a response may leave it out: the class default fills it), of the field's type where
 * TypeScript can tell (a string, a number, a boolean, a list of them). A nested entity or a field with a
 * deserializer in `static schema` is stored as JSON and left unchecked.
 */
export type EntityFields<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]?: StoredField<T[K]>;
};

/**
 * A Standard Schema whose output fits the fields of entity `T`: with `satisfies`, a validator that
 * disagrees with the class (`id: z.string()` for `id = 0`) is a compile error, and its own output type
 * is kept (fields it adds type the entity's data).
 *
 * @example
 * class Todo extends Entity {
 *   id = 0; title = '';
 *   pk() { return `${this.id}`; }
 *   static override validator = z.object({ id: z.number(), title: z.string() }) satisfies EntityValidator<Todo>;
 * }
 */
export type EntityValidator<T> = StandardSchemaV1<unknown, EntityFields<T>>;

/**
 * The data an entity class reads as: its instance, plus the fields its `static validator`'s output
 * declares that the class does not (where that output type is known).
 */
export type ValidatedInstance<T, C> = C extends { readonly validator?: infer V }
  ? WithOutput<T, InferOutput<NonNullable<V>>>
  : T;

/** `T` with the members of `O` it lacks (`T` itself when `O` is unknown or adds nothing). */
type WithOutput<T, O> = [O] extends [never]
  ? T
  : unknown extends O
    ? T
    : [O] extends [object]
      ? [Exclude<keyof O, keyof T>] extends [never]
        ? T
        : T & Omit<O, keyof T>
      : T;

/**
 * `unknown` when entity class `C`'s `static validator` fits its fields (or it has none, or its output type
 * is not known); otherwise the type it should have, so that `schema: C` (in `createResource`,
 * `new RestEndpoint`) does not compile: a validator that disagrees with the class is caught where the
 * entity is used, even without `satisfies EntityValidator<T>`.
 */
export type CheckedValidator<C> = C extends { readonly prototype: infer T; readonly validator?: infer V }
  ? unknown extends InferOutput<NonNullable<V>>
    ? unknown
    : [NonNullable<V>] extends [EntityValidator<T>]
      ? unknown
      : { readonly validator: EntityValidator<T> }
  : unknown;
