import { describe, expect, it } from 'vitest';
import { INVALID, MemoCache, SchemaDefinitionError, denormalize, normalize, schema } from '../../core/index.js';
import { Article, Todo } from '../fixtures/entities.js';

describe('schema.Invalidate', () => {
  const loaded = () => normalize([Todo], [{ id: 1 }, { id: 2 }, { id: 3 }]);

  it('marks the entity INVALID from an object holding its pk, or from the pk itself', () => {
    const fromObject = normalize(new schema.Invalidate(Todo), { id: 2 }, [], loaded());
    expect(fromObject.result).toBe('2');
    expect(fromObject.entities.Todo!['2']).toBe(INVALID);
    const fromString = normalize(new schema.Invalidate(Todo), '3', [], loaded());
    expect(fromString.entities.Todo!['3']).toBe(INVALID);
    const fromNumber = normalize(new schema.Invalidate(Todo), 1, [], loaded());
    expect(fromNumber.entities.Todo!['1']).toBe(INVALID);
  });

  it('invalidates a batch with [new schema.Invalidate(Entity)]', () => {
    const batch = normalize([new schema.Invalidate(Todo)], [{ id: 1 }, { id: 3 }], [], loaded());
    expect(batch.result).toEqual(['1', '3']);
    expect(batch.entities.Todo).toEqual({ '1': INVALID, '2': { id: 2 }, '3': INVALID });
  });

  it('drops invalid entities from lists and optional members', () => {
    const state = normalize(
      [Article],
      [
        {
          id: 1,
          author: { id: 'a' },
          editor: { id: 'e' },
          comments: [
            { id: 10, author: { id: 'a' } },
            { id: 11, author: { id: 'e' } },
          ],
        },
      ],
    );
    const User = Article.schema.editor;
    const invalidated = normalize(new schema.Invalidate(User), 'e', [], state);
    const [article] = denormalize([Article], state.result, invalidated)!;
    expect(article!.editor).toBeUndefined();
    // comment 11 requires its author, so it is unusable and dropped from the list
    expect(article!.comments.map((c) => c.id)).toEqual([10]);
  });

  it('makes a result that requires the entity unusable', () => {
    const memo = new MemoCache();
    const state = normalize(Todo, { id: 1 });
    expect(memo.denormalize(Todo, state.result, state.entities).invalid).toBe(false);
    const deleted = normalize(new schema.Invalidate(Todo), { id: 1 }, [], state);
    expect(memo.denormalize(Todo, state.result, deleted.entities)).toMatchObject({ data: undefined, invalid: true });
    const inObject = normalize({ todo: Todo, count: 0 }, { todo: { id: 1 }, count: 1 });
    const gone = normalize(new schema.Invalidate(Todo), '1', [], inObject);
    expect(memo.denormalize({ todo: Todo, count: 0 }, inObject.result, gone.entities).invalid).toBe(true);
    // a later response brings it back
    const back = normalize(Todo, { id: 1, title: 'back' }, [], deleted);
    expect(memo.denormalize(Todo, state.result, back.entities).data!.title).toBe('back');
  });

  it('reads back as the entity while valid, and as unusable (like the entity) once invalid', () => {
    const state = loaded();
    const invalidate = new schema.Invalidate(Todo);
    expect(denormalize(invalidate, '1', state)).toBeInstanceOf(Todo);
    const deleted = normalize(invalidate, '1', [], state);
    expect(new MemoCache().denormalize(invalidate, '1', deleted.entities)).toMatchObject({
      data: undefined,
      invalid: true,
    });
  });

  it('needs an Entity class', () => {
    expect(() => new schema.Invalidate(undefined as never)).toThrow(SchemaDefinitionError);
  });
});
