/**
 * Entities that nest lists and chains, and Collections stored under arguments, around the lengths where the read
 * path changes (`LONG_READ`, and 32, from where a list is patched), written in seeded sequences: long tag lists
 * inside entities, comments -> author -> team, the same entity reached by two paths in one result (and twice in one
 * list), an entity with `process`/`merge`/`shouldUpdate` of its own, and several lists of one Collection edited
 * with push, unshift, remove and move. After every write each stream shows what a fresh controller reads, emits
 * exactly when its data changed and keeps what did not.
 */
import { describe, it } from 'vitest';
import { Entity, RestEndpoint, schema } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { seededStreams } from '../fixtures/seededStreams.js';

class Tag extends Entity {
  id = '';
  label = '';
  pk() {
    return this.id;
  }
  static override key = 'NTag';
}
class Article extends Entity {
  id = '';
  title = '';
  tags: Tag[] = [];
  pk() {
    return this.id;
  }
  static override key = 'NArticle';
  static override schema = { tags: [Tag] };
}
/** Tags by a key of its own (a `schema.Values` field). */
class Board extends Entity {
  id = '';
  byKey: Record<string, Tag> = {};
  pk() {
    return this.id;
  }
  static override key = 'NBoard';
  static override schema = { byKey: new schema.Values(Tag) };
}
class Team extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'NTeam';
}
class Member extends Entity {
  id = '';
  name = '';
  team = Team.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'NMember';
  static override schema = { team: Team };
}
class Comment extends Entity {
  id = '';
  body = '';
  author = Member.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'NComment';
  static override schema = { author: Member };
}
/** Counts what it is sent (merge adds), ignores an older version (shouldUpdate), and stamps a field (process). */
class Counter extends Entity {
  id = '';
  count = 0;
  version = 0;
  stamp = '';
  pk() {
    return this.id;
  }
  static override key = 'NCounter';
  static override process(input: unknown, parent: unknown, key: string | undefined, args: readonly unknown[]) {
    const value = super.process(input, parent, key, args);
    return { ...value, stamp: `v${String(value.version)}` };
  }
  static override merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
    return { ...existing, ...incoming, count: Number(existing.count ?? 0) + Number(incoming.count ?? 0) };
  }
  static override shouldUpdate(
    existingMeta: { readonly date: number; readonly fetchedAt: number },
    incomingMeta: { readonly date: number; readonly fetchedAt: number },
    existing: Readonly<Record<string, unknown>>,
    incoming: Readonly<Record<string, unknown>>,
  ) {
    return Number(incoming.version ?? 0) >= Number(existing.version ?? 0);
  }
}
class Task extends Entity {
  id = '';
  owner = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'NTask';
}

const API = 'http://nested.test';
const articles = new RestEndpoint({ urlPrefix: API, path: '/articles', schema: [Article] });
const article = new RestEndpoint({ urlPrefix: API, path: '/articles/:id', schema: Article });
const board = new RestEndpoint({ urlPrefix: API, path: '/board', schema: Board });
const tags = new RestEndpoint({ urlPrefix: API, path: '/tags', schema: [Tag] });
const comments = new RestEndpoint({ urlPrefix: API, path: '/comments', schema: [Comment] });
const people = new RestEndpoint({
  urlPrefix: API,
  path: '/people',
  schema: { members: [Member], comments: [Comment], again: [Member] },
});
const counters = new RestEndpoint({ urlPrefix: API, path: '/counters', schema: [Counter] });
const tasks = new RestEndpoint({
  urlPrefix: API,
  path: '/tasks',
  searchParams: {} as { owner?: string },
  schema: new schema.Collection([Task]),
});
const taskMove = new RestEndpoint({
  urlPrefix: API,
  path: '/tasks/:id',
  method: 'PATCH',
  schema: tasks.schema.move,
});

const tag = (id: string, step = 0) => ({ id, label: `tag ${id}.${step}` });
const team = (id: string, step = 0) => ({ id, name: `team ${id}.${step}` });
const member = (id: string, teamId: string, step = 0) => ({ id, name: `m ${id}.${step}`, team: team(teamId, step) });

describe('nested lists, chains and collections written record by record', () => {
  const runs = [5, 31, 32, 33, LONG_READ - 1, LONG_READ, LONG_READ + 1].flatMap((length) => [
    { length, seed: 1, batch: false },
    { length, seed: 2, batch: false },
    { length, seed: 3, batch: true },
  ]);
  for (const { length, seed, batch } of runs) {
    it(`${length} items, seed ${seed}${batch ? ', two writes per task, batched' : ''}`, { timeout: 60_000 }, () => {
      const h = seededStreams(seed * 7919 + length, { batch });
      const { rnd, controller } = h;
      const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `${i + from}`);
      const teams = ['t1', 't2', 't3'];
      const memberIds = ['m1', 'm2', 'm3', 'm4', 'm5'];
      const teamOf = new Map(memberIds.map((id, i) => [id, teams[i % 3]!]));
      let tagIds = ids(length);
      const articleTags = new Map<string, string[]>([
        ['a1', tagIds],
        ['a2', tagIds.slice().reverse()],
        // a tag twice in one list
        ['a3', [...tagIds.slice(0, 3), ...tagIds]],
      ]);
      const articleJson = (id: string, step = 0) => ({
        id,
        title: `${id}.${step}`,
        tags: articleTags.get(id)!.map((t) => tag(t, step)),
      });
      let commentIds = ids(length);
      const commentJson = (id: string, step = 0) => {
        const author = memberIds[Number(id) % memberIds.length]!;
        return { id, body: `c${id}.${step}`, author: member(author, teamOf.get(author)!, step) };
      };
      const byOwner = new Map<string, string>();
      let taskIds = ids(length);
      for (const id of taskIds) byOwner.set(id, rnd.pick(['a', 'b']));
      const taskJson = (id: string, step = 0) => ({ id, owner: byOwner.get(id)!, title: `${id}.${step}` });

      controller.setResponse(
        articles,
        {},
        ['a1', 'a2', 'a3'].map((id) => articleJson(id)),
      );
      controller.setResponse(article, { id: 'a1' }, articleJson('a1'));
      controller.setResponse(
        tags,
        {},
        tagIds.map((t) => tag(t)),
      );
      controller.setResponse(
        comments,
        {},
        commentIds.map((c) => commentJson(c)),
      );
      controller.setResponse(
        people,
        {},
        {
          members: memberIds.map((m) => member(m, teamOf.get(m)!)),
          comments: commentIds.map((c) => commentJson(c)),
          again: [...memberIds, ...memberIds].map((m) => member(m, teamOf.get(m)!)),
        },
      );
      controller.setResponse(
        counters,
        {},
        ids(length).map((c) => ({ id: c, count: 1, version: 1 })),
      );
      for (const owner of ['a', 'b'])
        controller.setResponse(
          tasks,
          { owner },
          taskIds.filter((t) => byOwner.get(t) === owner).map((t) => taskJson(t)),
        );
      controller.setResponse(
        tasks,
        {},
        taskIds.map((t) => taskJson(t)),
      );
      let boardKeys = tagIds.slice();
      const boardJson = (step = 0) => ({
        id: 'b',
        byKey: Object.fromEntries(boardKeys.map((t) => [`k${t}`, tag(t, step)])),
      });
      controller.setResponse(board, {}, boardJson());
      h.watch('board', board);
      h.watch('articles', articles);
      h.watch('article a1', article, { id: 'a1' });
      h.watch('tags', tags);
      h.watch('comments', comments);
      h.watch('people', people);
      h.watch('counters', counters);
      h.watch('tasks of a', tasks, { owner: 'a' });
      h.watch('tasks of b', tasks, { owner: 'b' });
      h.watch('all tasks', tasks, {});
      let next = 1000;
      const write = (step: number, op: number, n: number) => {
        const id = `${n}`;
        switch (op) {
          case 0:
            controller.set(Tag, { id }, tag(id, step));
            break;
          case 1: {
            // an article's tags grow, shrink or turn around
            const a = rnd.pick(['a1', 'a2', 'a3']);
            let list = articleTags.get(a)!;
            const r = rnd.next();
            if (r < 0.4) list = [...list, `${next++}`];
            else if (r < 0.7 && list.length > 1) list = list.filter((_, i) => i !== rnd.int(list.length));
            else list = list.slice().reverse();
            articleTags.set(a, list);
            controller.set(Article, { id: a }, articleJson(a, step));
            break;
          }
          case 2:
            controller.set(Team, { id: `t${(n % 3) + 1}` }, team(`t${(n % 3) + 1}`, step));
            break;
          case 3: {
            // a member changes team
            const m = rnd.pick(memberIds);
            teamOf.set(m, rnd.pick(teams));
            controller.set(Member, { id: m }, { id: m, team: teamOf.get(m)! });
            break;
          }
          case 4:
            controller.set(Member, { id: `m${(n % 5) + 1}` }, { id: `m${(n % 5) + 1}`, name: `n${step}` });
            break;
          case 5:
            controller.set(Comment, { id }, commentJson(id, step));
            break;
          case 6: {
            if (rnd.next() < 0.5 && commentIds.length > 1)
              commentIds = commentIds.filter((_, i) => i !== rnd.int(commentIds.length));
            else commentIds = [...commentIds, `${next++}`];
            controller.setResponse(
              comments,
              {},
              commentIds.map((c) => commentJson(c, step)),
            );
            break;
          }
          case 7:
            // merge adds, an older version is ignored, process stamps
            controller.set(Counter, { id }, { id, count: 1, version: rnd.int(4) });
            break;
          case 8:
            controller.setResponse(counters, {}, [{ id, count: 2, version: rnd.int(4) }]);
            break;
          case 9: {
            const t = `${next++}`;
            byOwner.set(t, rnd.pick(['a', 'b']));
            taskIds = [...taskIds, t];
            const edit = rnd.next() < 0.5 ? tasks.push : tasks.unshift;
            controller.setResponse(edit, { owner: byOwner.get(t)! }, taskJson(t), taskJson(t, step));
            break;
          }
          case 10: {
            const t = rnd.pick(taskIds);
            controller.setResponse(tasks.remove, { owner: byOwner.get(t)! }, { id: t }, taskJson(t, step));
            break;
          }
          case 11: {
            const t = rnd.pick(taskIds);
            const owner = byOwner.get(t) === 'a' ? 'b' : 'a';
            byOwner.set(t, owner);
            controller.setResponse(taskMove, { id: t }, { owner }, taskJson(t, step));
            break;
          }
          case 12:
            controller.set(Task, { id }, { id, title: `w${step}` });
            break;
          case 13:
            controller.set(new schema.Invalidate(rnd.next() < 0.5 ? Tag : Comment), { id }, { id });
            break;
          case 16:
            // the board's entries come and go
            if (rnd.next() < 0.5 && boardKeys.length > 1)
              boardKeys = boardKeys.filter((_, i) => i !== rnd.int(boardKeys.length));
            else boardKeys = [...boardKeys, `${next++}`];
            controller.set(Board, { id: 'b' }, boardJson(step));
            break;
          case 14:
            controller.set([Tag], [tag(id, step), tag(`${n + 1}`, step)]);
            break;
          default:
            if (rnd.next() < 0.5 && tagIds.length > 1) tagIds = tagIds.slice(1);
            else tagIds = [`${next++}`, ...tagIds];
            controller.setResponse(
              tags,
              {},
              tagIds.map((t) => tag(t, step)),
            );
        }
      };
      const responds = (op: number) => op === 6 || op === 8 || op === 9 || op === 10 || op === 11 || op === 15;
      h.steps(80, 17, () => rnd.int(length + 3) + 1, write, responds, batch);
      h.dispose();
    });
  }
});

describe('a record that comes back', () => {
  /** A list of `length` comments by m2 (team t2) and a result of one comment, 1, by m1 (team t1); both watched. */
  const start = (length: number) => {
    const h = seededStreams(length);
    h.controller.setResponse(
      comments,
      {},
      Array.from({ length }, (_, i) => ({ id: `${i + 1}`, body: `c${i + 1}`, author: member('m2', 't2') })),
    );
    h.controller.setResponse(people, {}, { members: [], comments: [comment('1')], again: [] });
    h.watch('comments', comments);
    h.watch('people', people);
    return h;
  };
  const comment = (id: string, step = 0) => ({ id, body: `c${id}.${step}`, author: member('m1', 't1', step) });
  for (const length of [3, LONG_READ + 1]) {
    it(`a comment: is followed again to what it reads (${length} comments)`, () => {
      const h = start(length);
      const { controller } = h;
      h.run('the comment deleted', () => controller.set(new schema.Invalidate(Comment), { id: '1' }, { id: '1' }));
      // (another record's reads change meanwhile: the results' paths are computed anew without the deleted comment's)
      h.run('another author moved', () => controller.set(Member, { id: 'm2' }, { id: 'm2', team: 't3' }));
      h.run('the comment written again', () => controller.set(Comment, { id: '1' }, comment('1', 1)));
      h.run("its author's team renamed", () => controller.set(Team, { id: 't1' }, team('t1', 2)));
      h.run('its author moved to another team', () => controller.set(Member, { id: 'm1' }, { id: 'm1', team: 't3' }));
      h.run('that team renamed', () => controller.set(Team, { id: 't3' }, team('t3', 3)));
      h.dispose();
    });
    it(`a comment's author: is followed again to what it reads (${length} comments)`, () => {
      const h = start(length);
      const { controller } = h;
      h.run('the author deleted', () => controller.set(new schema.Invalidate(Member), { id: 'm1' }, { id: 'm1' }));
      h.run('another author moved', () => controller.set(Member, { id: 'm2' }, { id: 'm2', team: 't3' }));
      h.run('the author written again, in its team', () => controller.set(Member, { id: 'm1' }, member('m1', 't1', 1)));
      h.run("the author's team renamed", () => controller.set(Team, { id: 't1' }, team('t1', 2)));
      h.dispose();
    });
  }
});
