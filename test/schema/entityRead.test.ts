import { describe, expect, it } from 'vitest';
import { MemoCache, normalize } from '../../core/index.js';
import { Article, Comment, User } from '../fixtures/entities.js';

const comment = (id: number, author: string) => ({ id, body: `c${id}`, author: { id: author, name: author } });

describe('reading an entity from its record', () => {
  it('keeps the list of a rebuilt entity when its items are the same entities', () => {
    const memo = new MemoCache();
    const state = normalize(Article, {
      id: 1,
      title: 'one',
      author: { id: 'ann', name: 'Ann' },
      comments: [comment(1, 'bob'), comment(2, 'cid')],
    });
    const first = memo.denormalize(Article, state.result, state.entities).data!;
    // the author changed: the article is rebuilt, its comments (which do not read the author) are not
    const renamed = normalize(User, { id: 'ann', name: 'Ann II' }, [], state);
    const second = memo.denormalize(Article, state.result, renamed.entities).data!;
    expect(second).not.toBe(first);
    expect(second.author.name).toBe('Ann II');
    expect(second.comments).toBe(first.comments);
    // a comment's author changed: a new list, the other comment the same instance
    const bob = normalize(User, { id: 'bob', name: 'Bob II' }, [], renamed);
    const third = memo.denormalize(Article, state.result, bob.entities).data!;
    expect(third.comments).not.toBe(second.comments);
    expect(third.comments[0]!.author.name).toBe('Bob II');
    expect(third.comments[1]).toBe(second.comments[1]);
  });

  it('keeps a list with dropped items once its remaining items are the same, and drops missing items', () => {
    const memo = new MemoCache();
    const state = normalize(Article, { id: 1, title: 'one', author: { id: 'ann', name: 'Ann' }, comments: [] });
    // a record written around the normalizer: its list names a comment the store does not hold
    const comments = normalize([Comment], [comment(1, 'bob')], [], state);
    const entities = {
      ...comments.entities,
      Article: { 1: { ...comments.entities.Article!['1']!, comments: ['1', '9'] } },
    };
    const first = memo.denormalize(Article, '1', entities).data!;
    expect(first.comments.map((c) => c.id)).toEqual([1]);
    const renamed = normalize(User, { id: 'ann', name: 'Ann II' }, [], { ...comments, entities });
    const second = memo.denormalize(Article, '1', renamed.entities).data!;
    expect(second.author.name).toBe('Ann II');
    expect(second.comments).toBe(first.comments);
  });

  it('gives fields in declaration order and defaults whatever order or gaps the record has', () => {
    const memo = new MemoCache();
    const record = { comments: [], author: 'ann', title: 'late', id: 7, extra: 'kept' };
    const entities = { User: { ann: { id: 'ann', name: 'Ann' } }, Article: { 7: record } };
    const read = memo.denormalize(Article, '7', entities).data!;
    expect(read).toBeInstanceOf(Article);
    expect(Object.keys(read)).toEqual(['id', 'title', 'author', 'editor', 'comments', 'extra']);
    expect(read.title).toBe('late');
    const gaps = {
      User: entities.User,
      Article: { 7: { id: 7, title: undefined, author: 'ann', editor: undefined, comments: [] } },
    };
    const again = new MemoCache().denormalize(Article, '7', gaps).data!;
    expect(again.title).toBe('');
    expect(Object.keys(again)).toEqual(['id', 'title', 'author', 'editor', 'comments']);
  });

  it('reads a __proto__ key of a record as plain data, whatever else the record holds', () => {
    const record = JSON.parse('{"id":"ann","name":"Ann","__proto__":{"polluted":true}}') as object;
    const read = new MemoCache().denormalize(User, 'ann', { User: { ann: record } }).data!;
    expect(read).toBeInstanceOf(User);
    expect(Object.getPrototypeOf(read)).toBe(User.prototype);
    expect((read as unknown as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(read, '__proto__')?.value).toEqual({ polluted: true });
  });
});
