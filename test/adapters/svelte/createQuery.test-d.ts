import { describe, expectTypeOf, test } from 'vitest';
import type { Readable } from 'svelte/store';
import { readable } from 'svelte/store';
import type { QueryState } from '../../../core/index.js';
import { createQuery, createQueryState, useLive, useSuspense } from '../../../adapters/svelte/index.js';
import type { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';

describe('rx-rest/svelte types', () => {
  test('createQuery is typed from the endpoint', () => {
    expectTypeOf(createQuery(TodoResource.get, { id: 1 })).toEqualTypeOf<Readable<QueryState<Todo>>>();
    expectTypeOf(createQuery(TodoResource.getList, { userId: 1 })).toEqualTypeOf<Readable<QueryState<Todo[]>>>();
    expectTypeOf(useLive(TodoResource.get, { id: 1 })).toEqualTypeOf<Readable<QueryState<Todo>>>();
    expectTypeOf(useSuspense(TodoResource.get, { id: 1 })).toEqualTypeOf<Readable<QueryState<Todo>>>();
    expectTypeOf(createQueryState(TodoResource.get, { id: 1 }).data).toEqualTypeOf<Todo | undefined>();
  });

  test('args: a value, null, a store, or a getter, checked against the endpoint', () => {
    createQuery(TodoResource.get, null);
    createQuery(TodoResource.get, readable({ id: 2 }));
    createQuery(TodoResource.get, () => ({ id: 3 }));
    createQuery(TodoResource.getList, undefined);
    // @ts-expect-error id is missing
    createQuery(TodoResource.get, {});
    // @ts-expect-error not an argument of get
    createQuery(TodoResource.get, { id: 1, userId: 1 });
    // @ts-expect-error a store of the wrong args
    createQuery(TodoResource.get, readable({ userId: 1 }));
    // @ts-expect-error a getter of the wrong args
    createQuery(TodoResource.get, () => ({ name: 'x' }));
  });
});
