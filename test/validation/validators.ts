/**
 * The same validators written with each Standard Schema library the project supports (zod 4, valibot 1,
 * arktype 2) and by hand: the validation tests run once against each.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import type { StandardIssue, StandardSchemaV1 } from '../../core/index.js';

/** The validators one test run uses. */
export interface Validators {
  readonly name: string;
  /** A todo as the test server sends it: `id`, `userId` numbers, `title` a string, `completed` a boolean, `createdAt` a string. */
  readonly todo: StandardSchemaV1;
  /** A list of such todos (a whole response body). */
  readonly todoList: StandardSchemaV1;
  /** A todo whose missing `title` becomes `'untitled'`: the validator's output is what is stored. */
  readonly todoWithDefault: StandardSchemaV1;
  /**
   * A todo whose transform trims its `title` without checking it first: `validate()` throws a TypeError
   * (`title.trim is not a function`) for a title that is no string.
   */
  readonly todoThatThrows: StandardSchemaV1;
  /** A list of such todos. */
  readonly todoListThatThrows: StandardSchemaV1;
}

/** A hand-written Standard Schema for a record with these primitive fields (`?` after a type: optional). */
function handWritten(fields: Record<string, string>, defaults: Record<string, unknown> = {}): StandardSchemaV1 {
  const check = (value: unknown, path: readonly PropertyKey[]): { issues: StandardIssue[]; value: unknown } => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { issues: [{ message: 'expected an object', path }], value };
    const out: Record<string, unknown> = { ...value };
    const issues: StandardIssue[] = [];
    for (const [field, kind] of Object.entries(fields)) {
      const optional = kind.endsWith('?');
      const member = out[field] === undefined ? defaults[field] : out[field];
      if (member === undefined && optional) continue;
      out[field] = member;
      if (typeof member !== kind.replace('?', ''))
        issues.push({ message: `expected ${kind.replace('?', '')}, got ${typeof member}`, path: [...path, field] });
    }
    return { issues, value: out };
  };
  const record: StandardSchemaV1 = {
    '~standard': {
      version: 1,
      vendor: 'hand-written',
      validate: (value) => {
        const { issues, value: out } = check(value, []);
        return issues.length ? { issues } : { value: out };
      },
    },
  };
  return record;
}

/** A hand-written list of `item`. */
function handWrittenList(item: StandardSchemaV1): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'hand-written',
      validate: (value) => {
        if (!Array.isArray(value)) return { issues: [{ message: 'expected an array' }] };
        const issues: StandardIssue[] = [];
        const out: unknown[] = [];
        value.forEach((member, index) => {
          const result = item['~standard'].validate(member) as {
            issues?: readonly StandardIssue[];
            value?: unknown;
          };
          if (result.issues)
            for (const issue of result.issues) issues.push({ ...issue, path: [index, ...(issue.path ?? [])] });
          else out.push(result.value);
        });
        return issues.length ? { issues } : { value: out };
      },
    },
  };
}

const zodTodo = z.object({
  id: z.number(),
  userId: z.number(),
  title: z.string(),
  completed: z.boolean(),
  createdAt: z.string(),
});
const valibotTodo = v.object({
  id: v.number(),
  userId: v.number(),
  title: v.string(),
  completed: v.boolean(),
  createdAt: v.string(),
});
const arkTodo = type({ id: 'number', userId: 'number', title: 'string', completed: 'boolean', createdAt: 'string' });
const handTodo = handWritten({
  id: 'number',
  userId: 'number',
  title: 'string',
  completed: 'boolean',
  createdAt: 'string',
});

/** A todo with its title trimmed, whatever the title is (a transform that throws on a title that is no string). */
const trimmed = <T extends { title?: unknown }>(todo: T): T => ({ ...todo, title: (todo.title as string).trim() });

const zodThrows = z.looseObject({ id: z.number(), title: z.unknown() }).transform(trimmed);
const valibotThrows = v.pipe(v.looseObject({ id: v.number(), title: v.unknown() }), v.transform(trimmed));
const arkThrows = type({ id: 'number', title: 'unknown' }).pipe(trimmed);
const handThrows: StandardSchemaV1 = {
  '~standard': {
    version: 1,
    vendor: 'hand-written',
    validate: (value) => ({ value: trimmed(value as { title?: unknown }) }),
  },
};

/** One entry per library, and one written by hand. */
export const VALIDATORS: readonly Validators[] = [
  {
    name: 'zod',
    todo: zodTodo,
    todoList: z.array(zodTodo),
    todoWithDefault: z.object({ id: z.number(), title: z.string().default('untitled') }),
    todoThatThrows: zodThrows,
    todoListThatThrows: z.array(zodThrows),
  },
  {
    name: 'valibot',
    todo: valibotTodo,
    todoList: v.array(valibotTodo),
    todoWithDefault: v.object({ id: v.number(), title: v.optional(v.string(), 'untitled') }),
    todoThatThrows: valibotThrows,
    todoListThatThrows: v.array(valibotThrows),
  },
  {
    name: 'arktype',
    todo: arkTodo,
    todoList: arkTodo.array(),
    todoWithDefault: type({ id: 'number', title: 'string = "untitled"' }),
    todoThatThrows: arkThrows,
    todoListThatThrows: arkThrows.array(),
  },
  {
    name: 'hand-written',
    todo: handTodo,
    todoList: handWrittenList(handTodo),
    todoWithDefault: handWritten({ id: 'number', title: 'string' }, { title: 'untitled' }),
    todoThatThrows: handThrows,
    todoListThatThrows: handWrittenList(handThrows),
  },
];

/** `schema`, answering with a Promise (an async refinement, as a validator may have). */
export function asAsync(schema: StandardSchemaV1): StandardSchemaV1 {
  const standard = schema['~standard'];
  return { '~standard': { version: 1, vendor: standard.vendor, validate: async (value) => standard.validate(value) } };
}
