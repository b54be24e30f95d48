import { describe, expectTypeOf, it } from 'vitest';
import { createResource } from '../../core/endpoint/createResource.js';
import { Entity, schema, type Denormalize } from '../../core/schema/index.js';
import type { EndpointData } from '../../core/controller/index.js';
import { FeedItem, Link, Post } from '../fixtures/feedItems.js';

describe('createResource with a schema.Union, types', () => {
  it('reads back the members, and takes their fields as the body', () => {
    const Feed = createResource({ path: '/feed/:id', schema: FeedItem });
    expectTypeOf<EndpointData<typeof Feed.get>>().toEqualTypeOf<Link | Post>();
    expectTypeOf<EndpointData<typeof Feed.getList>>().toEqualTypeOf<(Link | Post)[]>();
    expectTypeOf<EndpointData<typeof Feed.getList.push>>().toEqualTypeOf<Link | Post>();
    expectTypeOf<Denormalize<typeof Feed.delete.schema>>().toEqualTypeOf<Link | Post | undefined>();
    Feed.getList.push({}, { type: 'post', title: 'x' });
    // @ts-expect-error a field of no member
    Feed.getList.push({}, { nope: 1 });
  });
});
