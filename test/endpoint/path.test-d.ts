import { describe, expectTypeOf, test } from 'vitest';
import {
  removeLastArg,
  type HasPathParams,
  type ParamlessPath,
  type PathArgs,
  type PathKeys,
  type RemoveLastArg,
} from '../../core/endpoint/path.js';

type V = string | number;

describe('PathKeys', () => {
  test('a table of paths', () => {
    expectTypeOf<PathKeys<'/todos'>>().toEqualTypeOf<never>();
    expectTypeOf<PathKeys<'/'>>().toEqualTypeOf<never>();
    expectTypeOf<PathKeys<'/todos/:id'>>().toEqualTypeOf<'id'>();
    expectTypeOf<PathKeys<'/:group/posts/:id'>>().toEqualTypeOf<'group' | 'id'>();
    expectTypeOf<PathKeys<'/search/:q?/:page?'>>().toEqualTypeOf<'q' | 'page'>();
    expectTypeOf<PathKeys<'/files/:name.json'>>().toEqualTypeOf<'name'>();
    expectTypeOf<PathKeys<'/a-:first_name-:n2'>>().toEqualTypeOf<'first_name' | 'n2'>();
    expectTypeOf<PathKeys<'/time/a:/b'>>().toEqualTypeOf<never>();
    expectTypeOf<PathKeys<string>>().toEqualTypeOf<string>();
  });
});

describe('PathArgs', () => {
  test('required parameters', () => {
    expectTypeOf<PathArgs<'/:group/posts/:id'>>().toEqualTypeOf<{ group: V; id: V }>();
    expectTypeOf<PathArgs<'/todos/:id'>>().toEqualTypeOf<{ id: V }>();
  });
  test('optional parameters', () => {
    expectTypeOf<PathArgs<'/search/:q?'>>().toEqualTypeOf<{ q?: V }>();
    expectTypeOf<PathArgs<'/:group/search/:q?/:page?'>>().toEqualTypeOf<{ group: V; q?: V; page?: V }>();
  });
  test('no parameters', () => {
    expectTypeOf<PathArgs<'/todos'>>().toEqualTypeOf<{}>();
  });
  test('a non-literal path accepts any record', () => {
    expectTypeOf<PathArgs<string>>().toEqualTypeOf<{ [key: string]: V | undefined }>();
  });
  test('wrong or missing names are errors', () => {
    const ok: PathArgs<'/:group/posts/:id'> = { group: 'a', id: 5 };
    expectTypeOf(ok).toEqualTypeOf<{ group: V; id: V }>();
    // @ts-expect-error id is missing
    const missing: PathArgs<'/:group/posts/:id'> = { group: 'a' };
    // @ts-expect-error userId is not a parameter
    const wrong: PathArgs<'/todos/:id'> = { id: 1, userId: 2 };
    // @ts-expect-error values are strings or numbers
    const bad: PathArgs<'/todos/:id'> = { id: true };
    // @ts-expect-error an optional parameter is still typed
    const badOptional: PathArgs<'/search/:q?'> = { q: {} };
    void [missing, wrong, bad, badOptional];
  });
});

describe('HasPathParams / ParamlessPath', () => {
  test('tell paths with and without parameters apart', () => {
    expectTypeOf<HasPathParams<'/todos'>>().toEqualTypeOf<false>();
    expectTypeOf<HasPathParams<'/todos/:id'>>().toEqualTypeOf<true>();
    expectTypeOf<HasPathParams<'/search/:q?'>>().toEqualTypeOf<true>();
    expectTypeOf<HasPathParams<string>>().toEqualTypeOf<true>();
    expectTypeOf<ParamlessPath<'/todos'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf<ParamlessPath<'/todos/:id'>>().toEqualTypeOf<never>();
  });
});

describe('RemoveLastArg', () => {
  test('matches the runtime table', () => {
    expectTypeOf<RemoveLastArg<'/:a/:b'>>().toEqualTypeOf<'/:a'>();
    expectTypeOf<RemoveLastArg<'/:a'>>().toEqualTypeOf<'/'>();
    expectTypeOf<RemoveLastArg<'/:group/posts/:id'>>().toEqualTypeOf<'/:group/posts'>();
    expectTypeOf<RemoveLastArg<'/todos/:id'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf<RemoveLastArg<'/todos/:id/comments'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf<RemoveLastArg<'/todos'>>().toEqualTypeOf<'/todos'>();
    expectTypeOf<RemoveLastArg<'/t/a:/:id'>>().toEqualTypeOf<'/t/a:'>();
    expectTypeOf<RemoveLastArg<string>>().toEqualTypeOf<string>();
    expectTypeOf(removeLastArg('/:group/posts/:id')).toEqualTypeOf<'/:group/posts'>();
  });
});
