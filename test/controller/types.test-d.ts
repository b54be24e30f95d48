import { describe, expectTypeOf, it } from 'vitest';
import { Controller, createResource, type EndpointData } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';

const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  paginationField: 'page',
  searchParams: {} as { userId?: number } | undefined,
});
const controller = new Controller();

describe('controller results are typed from the endpoint', () => {
  it('get, getList, push and getPage', () => {
    expectTypeOf<EndpointData<typeof TodoResource.get>>().toEqualTypeOf<Todo>();
    expectTypeOf<EndpointData<typeof TodoResource.getList>>().toEqualTypeOf<Todo[]>();
    expectTypeOf<EndpointData<typeof TodoResource.getList.push>>().toEqualTypeOf<Todo>();
    expectTypeOf<EndpointData<typeof TodoResource.getList.getPage>>().toEqualTypeOf<Todo[]>();
    expectTypeOf(controller.fetch(TodoResource.getList.getPage, { page: 2 })).toEqualTypeOf<Promise<Todo[]>>();
    // @ts-expect-error getPage needs its pagination field
    void controller.fetch(TodoResource.getList.getPage, { userId: 1 });
  });
});
