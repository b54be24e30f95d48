/**
 * EntityMixin as data-client names and builds it (cases ported from data-client's EntityMixin and Entity
 * tests): the table is named after the class that extends the mixin, a nested mixin default makes its
 * field required, the options `process`, `merge`, `validate` (and the other statics) apply, and
 * `static defaults` / `static automaticValidation` behave as there.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Entity, EntityMixin, MemoCache, NormalizeError, denormalize, normalize } from '../../core/index.js';
import { SchemaDefinitionError } from '../../core/errors.js';

class TacoData {
  id = '';
  name = '';
  alias: string | undefined = undefined;
}
class Tacos extends EntityMixin(TacoData) {}
class Burritos extends EntityMixin(TacoData) {}

class ArticleData {
  id = '';
  title = '';
}
class ArticleEntity extends EntityMixin(ArticleData) {}

class OptionalData {
  id = '';
  article: ArticleEntity | null = null;
  requiredArticle = ArticleEntity.fromJS();
  nextPage = '';
}
class WithOptional extends EntityMixin(OptionalData, {
  schema: { article: ArticleEntity, requiredArticle: ArticleEntity },
}) {}

describe('the table of an EntityMixin class', () => {
  it('is named after the class extending the mixin, so two mixins of one base keep two tables', () => {
    expect(Tacos.key).toBe('Tacos');
    expect(Burritos.key).toBe('Burritos');
    const tacos = normalize([Tacos], [{ id: '1', name: 'foo' }]);
    const both = normalize([Burritos], [{ id: '1', name: 'bar' }], [], tacos);
    expect(both.entities.Tacos!['1']).toEqual({ id: '1', name: 'foo' });
    expect(both.entities.Burritos!['1']).toEqual({ id: '1', name: 'bar' });
    expect(both.entities.TacoData).toBeUndefined();
    expect(denormalize(Tacos, '1', both)!.name).toBe('foo');
    expect(denormalize(Burritos, '1', both)!.name).toBe('bar');
  });

  it('is the base class name for the mixin itself', () => {
    class MyData {
      id = '';
    }
    expect(EntityMixin(MyData).key).toBe('MyData');
  });

  it('follows options.key, then a static key of the base, then a static key of the subclass', () => {
    class MyData {
      id = '';
    }
    expect(EntityMixin(MyData, { key: 'MYKEY' }).key).toBe('MYKEY');
    class MyEntity2 extends EntityMixin(MyData, { key: 'MYKEY' }) {}
    expect(MyEntity2.key).toBe('MYKEY');
    class Keyed {
      id = '';
      static key = 'BASEKEY';
    }
    expect(EntityMixin(Keyed).key).toBe('BASEKEY');
    expect(EntityMixin(Keyed, { key: 'OVERRIDE' }).key).toBe('OVERRIDE');
    class Static extends EntityMixin(MyData, { key: 'OPTIONSKEY' }) {
      static override key = 'STATICKEY';
    }
    expect(Static.key).toBe('STATICKEY');
  });

  it('cannot be named for an anonymous class: reading the key throws a SchemaDefinitionError', () => {
    const Anonymous = EntityMixin(
      class {
        id = '';
      },
    );
    expect(() => Anonymous.key).toThrow(SchemaDefinitionError);
    expect(() => Anonymous.key).toThrow(/static key/);
    expect(() => normalize(Anonymous, { id: '1' })).toThrow(SchemaDefinitionError);
    const AnonymousEntity = [
      class extends Entity {
        id = '';
        pk() {
          return this.id;
        }
      },
    ][0]!;
    expect(() => AnonymousEntity.key).toThrow(SchemaDefinitionError);
  });
});

describe('a nested EntityMixin default', () => {
  it('makes its field required, as a nested Entity default does', () => {
    const { result, entities } = normalize(WithOptional, { id: 'w', article: null, requiredArticle: '5' });
    // the required article is not in the store: the read is unusable
    expect(new MemoCache().denormalize(WithOptional, result, entities)).toMatchObject({
      data: undefined,
      invalid: true,
    });
    const complete = normalize(WithOptional, { id: 'w', requiredArticle: { id: '5', title: 'T' } });
    const read = denormalize(WithOptional, complete.result, complete)!;
    expect(read.requiredArticle).toBeInstanceOf(ArticleEntity);
    expect(read.article).toBeNull();
    expect(read.nextPage).toBe('');
  });
});

describe('EntityMixin options', () => {
  it('process prepares the input, seeing the parent and the key', () => {
    class Child {
      id = '';
      parentId = '';
      parentKey = '';
    }
    const ChildEntity = EntityMixin(Child, {
      process(input, parent, key) {
        return { ...(input as object), parentId: (parent as { id: string }).id, parentKey: key ?? '' };
      },
    });
    class Parent {
      id = '';
      child = ChildEntity.fromJS();
    }
    const ParentEntity = EntityMixin(Parent, { schema: { child: ChildEntity } });
    const { result, entities } = normalize(ParentEntity, { id: '1', child: { id: '4' } });
    const read = denormalize(ParentEntity, result, { entities })!;
    expect(read.child).toMatchObject({ id: '4', parentId: '1', parentKey: 'child' });
  });

  it('merge combines a stored record with a newer one', () => {
    const Kept = EntityMixin(TacoData, {
      key: 'KeptTaco',
      merge(existing, incoming) {
        return { ...existing, ...incoming, name: existing.name };
      },
    });
    const { entities } = normalize(
      [Kept],
      [
        { id: '1', name: 'foo' },
        { id: '1', name: 'bar', alias: 'bar' },
      ],
    );
    expect(entities.KeptTaco!['1']).toEqual({ id: '1', name: 'foo', alias: 'bar' });
  });

  it('validate rejects a response with a NormalizeError and a stored record reads as unusable', () => {
    const Checked = EntityMixin(TacoData, {
      key: 'CheckedTaco',
      validate(processed) {
        return typeof processed.name === 'string' ? undefined : 'name must be a string';
      },
    });
    expect(() => normalize(Checked, { id: '1', name: 5 })).toThrow(NormalizeError);
    expect(() => normalize(Checked, { id: '1', name: 5 })).toThrow(/name must be a string/);
    expect(new MemoCache().denormalize(Checked, '1', { CheckedTaco: { '1': { id: '1' } } }).data).toBeUndefined();
  });

  it('other Entity statics given as options (indexes, shouldUpdate) are the class statics', () => {
    const Frozen = EntityMixin(TacoData, { key: 'FrozenTaco', indexes: ['name'], shouldUpdate: () => false });
    expect(Frozen.indexes).toEqual(['name']);
    const first = normalize(Frozen, { id: '1', name: 'foo' });
    const second = normalize(Frozen, { id: '1', name: 'bar' }, [], first);
    expect(second.entities.FrozenTaco!['1']).toEqual({ id: '1', name: 'foo' });
  });
});

describe('static defaults', () => {
  it('is an instance holding the class defaults, per class, with inheritance', () => {
    abstract class DefaultsEntity extends EntityMixin(
      class {
        id = '';
      },
    ) {
      static getMyDefaults() {
        return this.defaults;
      }
    }
    class ID extends DefaultsEntity {
      override pk() {
        return this.id;
      }
    }
    class UserEntity extends ID {
      username = '';
    }
    expect(ID.getMyDefaults()).toBeInstanceOf(ID);
    expect({ ...ID.getMyDefaults() }).toEqual({ id: '' });
    expect(UserEntity.getMyDefaults()).toBeInstanceOf(UserEntity);
    expect({ ...UserEntity.getMyDefaults() }).toEqual({ id: '', username: '' });
    expect(UserEntity.defaults).toBe(UserEntity.defaults);
    class Plain extends Entity {
      id = 0;
      title = 'untitled';
      pk() {
        return `${this.id}`;
      }
    }
    expect(Plain.defaults).toBeInstanceOf(Plain);
    expect(Plain.defaults.title).toBe('untitled');
  });
});

describe('static automaticValidation', () => {
  afterEach(() => vi.restoreAllMocks());

  class Strict extends Entity {
    id = '';
    pk() {
      return this.id;
    }
  }
  class Warned extends Strict {
    static override automaticValidation = 'warn' as const;
    static override process(input: unknown) {
      return Array.isArray(input) ? { id: String(input[0]) } : { ...(input as object) };
    }
  }

  it('by default, an array where an entity is expected is a NormalizeError', () => {
    expect(() => normalize(Strict, [{ id: '1' }])).toThrow(NormalizeError);
  });

  it("'warn' warns about an array and goes on; 'silent' goes on without a word", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    class WarnedDefault extends Strict {
      static override automaticValidation = 'warn' as const;
    }
    class Silent extends Strict {
      static override automaticValidation = 'silent' as const;
    }
    // the default process copies the array: no pk, so that is still reported, after the warning
    expect(() => normalize(WarnedDefault, ['x'])).toThrow(/no usable primary key/);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/WarnedDefault.*array/);
    expect(() => normalize(Silent, ['x'])).toThrow(/no usable primary key/);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(normalize(Warned, ['7']).result).toBe('7');
  });
});
