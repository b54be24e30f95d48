/**
 * Records two streams read: when one stream's re-read rebuilds a record that now reads other records (a post given
 * another author), the other stream's re-read of that record finds it built already, and must still be indexed
 * under the records it reads now, so that a later write of the new author reaches it.
 */
import { describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint, type QueryState } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';

class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'SharedUser';
}

class Post extends Entity {
  id = 0;
  title = '';
  author = User.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'SharedPost';
  static override schema = { author: User };
}

const API = 'http://shared.test';
const posts = new RestEndpoint({ urlPrefix: API, path: '/posts', schema: [Post] });
const front = new RestEndpoint({ urlPrefix: API, path: '/front', schema: { posts: [Post] } });
const users = ['a', 'b', 'c', 'd'];
const post = (id: number, author: string) => ({
  id,
  title: `post ${id}`,
  author: { id: author, name: `user ${author}` },
});
const json = (value: unknown) => JSON.stringify(value);

describe('a record another stream rebuilt with other reads', () => {
  for (const n of [3, LONG_READ + 6]) {
    it(`follows the new author of a post read by a list of ${n} too`, () => {
      const controller = new Controller({ retry: 0, environment: {}, now: () => 1_000 });
      const list = () => Array.from({ length: n }, (_, i) => post(i + 1, users[(i + 1) % 4]!));
      controller.setResponse(posts, {}, list());
      // the front page's posts 1 to 3 by user a
      controller.setResponse(front, {}, { posts: [1, 2, 3].map((id) => post(id, 'a')) });
      const states: QueryState<unknown>[] = [];
      const all = controller.observe(posts, {}).subscribe();
      const page = controller.observe(front, {}).subscribe((state) => states.push(state));
      // the list's response gives them their authors again (b, c, d): the list re-reads first, then the page
      controller.setResponse(posts, {}, list());
      expect((states.at(-1)!.data as { posts: Post[] }).posts.map((p) => p.author.id)).toEqual(['b', 'c', 'd']);
      const emitted = states.length;
      controller.set(User, { id: 'c' }, { id: 'c', name: 'renamed' });
      const fresh = new Controller({ initialState: controller.getState(), now: () => 1_000 });
      expect(json(states.at(-1)!.data)).toBe(json(fresh.getResponse(front, {}).data));
      expect(states).toHaveLength(emitted + 1);
      all.unsubscribe();
      page.unsubscribe();
      fresh.dispose();
      controller.dispose();
    });
  }
});
