import { describe, expectTypeOf, it } from 'vitest';
import { fetchQuery } from '../../../adapters/svelte/index.js';
import type { Todo } from '../../fixtures/entities.js';
import { TodoResource } from '../resources.js';

describe('fetchQuery types', () => {
  it('is typed from the endpoint: its args and its data', () => {
    expectTypeOf(fetchQuery(TodoResource.get, { id: 1 })).resolves.toMatchTypeOf<Todo>();
    expectTypeOf(fetchQuery(TodoResource.getList, { userId: 1 })).resolves.toMatchTypeOf<Todo[]>();
    // @ts-expect-error the args of TodoResource.get need an id
    void fetchQuery(TodoResource.get, {});
    // @ts-expect-error a mutation is not a read
    void fetchQuery(TodoResource.partialUpdate, { id: 1 }, { title: 'x' });
  });
});
