import { describe, expectTypeOf, test } from 'vitest';
import type { Accessor, Resource } from 'solid-js';
import type { QueryState } from '../../../core/index.js';
import { createQuery, createQueryState, useLive, useSuspense } from '../../../adapters/solid/index.js';
import type { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';

describe('rx-rest/solid types', () => {
  test('createQuery is typed from the endpoint', () => {
    expectTypeOf(createQuery(TodoResource.get, { id: 1 })).toEqualTypeOf<Resource<Todo>>();
    expectTypeOf(createQuery(TodoResource.get, () => ({ id: 1 }))).toEqualTypeOf<Resource<Todo>>();
    expectTypeOf(createQuery(TodoResource.getList, () => ({ userId: 1 }))).toEqualTypeOf<Resource<Todo[]>>();
    expectTypeOf(createQuery(TodoResource.get, { id: 1 })()).toEqualTypeOf<Todo | undefined>();
    expectTypeOf(useLive(TodoResource.get, { id: 1 })).toEqualTypeOf<Resource<Todo>>();
    expectTypeOf(useSuspense(TodoResource.get, { id: 1 })).toEqualTypeOf<Resource<Todo>>();
    expectTypeOf(createQueryState(TodoResource.get, { id: 1 })).toEqualTypeOf<Accessor<QueryState<Todo>>>();
  });

  test('args: a value, null, or an accessor, checked against the endpoint', () => {
    createQuery(TodoResource.get, () => null);
    createQuery(TodoResource.get, null);
    createQuery(TodoResource.getList, () => undefined);
    // @ts-expect-error id is missing
    createQuery(TodoResource.get, {});
    // @ts-expect-error not an argument of get
    createQuery(TodoResource.get, { id: 1, userId: 1 });
    // @ts-expect-error an accessor of the wrong args
    createQuery(TodoResource.get, () => ({ name: 'x' }));
  });
});
