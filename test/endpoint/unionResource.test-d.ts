import { describe, expectTypeOf, it } from 'vitest';
import { createResource } from '../../core/endpoint/createResource.js';
import { Entity, schema, type Denormalize } from '../../core/schema/index.js';
import type { EndpointData } from '../../core/controller/index.js';

class Link extends Entity {
  id = 0;
  type = 'link' as const;
  url = '';
  pk() {
    return `${this.id}`;
  }
}
class Post extends Entity {
  id = 0;
  type = 'post' as const;
  title = '';
  pk() {
    return `${this.id}`;
  }
}
const FeedItem = new schema.Union({ link: Link, post: Post }, 'type');

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
