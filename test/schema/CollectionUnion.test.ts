/**
 * Collections of a Union as data-client keys and edits them (ported from data-client's Collection tests,
 * "polymorphism"): the table is `[User;Group]`, and `remove` / `move` find union members by
 * `{ id, schema }`, whatever type their pk has.
 */
import { describe, expect, it } from 'vitest';
import { Entity, collectionArgsKey, denormalize, normalize, schema } from '../../core/index.js';

class User extends Entity {
  id = '';
  type = 'users';
  groupId = 0;
  pk() {
    return this.id;
  }
  static override key = 'User';
}
class Group extends Entity {
  id = 0;
  type = 'groups';
  groupId = 0;
  pk() {
    // a numeric pk: kept as a number by pk(), stored as a string
    return this.id;
  }
  static override key = 'Group';
}

const members = { users: User, groups: Group };
const polymorphic = new schema.Collection(new schema.Array(members, 'type'));
const ofUnion = new schema.Collection([new schema.Union(members, 'type')]);
const direct = new schema.Collection(new schema.Union(members, 'type'));

describe('a Collection of a Union', () => {
  it('is keyed by its members as data-client keys it', () => {
    expect(polymorphic.key).toBe('[User;Group]');
    expect(ofUnion.key).toBe('[User;Group]');
    expect(direct.key).toBe('[User;Group]');
  });

  it('remove takes a member out of the matching lists, compared by { id, schema }', () => {
    const args = { completed: false };
    const loaded = normalize(
      ofUnion,
      [
        { id: '1', type: 'users' },
        { id: 2, type: 'groups' },
        { id: 3, type: 'groups' },
      ],
      [args],
    );
    const pk = collectionArgsKey(args);
    const removedUser = normalize(ofUnion.remove, { id: '1', type: 'users' }, [args], loaded);
    expect(removedUser.entities[ofUnion.key]![pk]).toEqual([
      { id: '2', schema: 'groups' },
      { id: '3', schema: 'groups' },
    ]);
    // a numeric pk is removed too
    const removedGroup = normalize(ofUnion.remove, { id: 2, type: 'groups' }, [args], removedUser);
    expect(removedGroup.entities[ofUnion.key]![pk]).toEqual([{ id: '3', schema: 'groups' }]);
    const read = denormalize(ofUnion, pk, removedGroup)!;
    expect(read.map((item) => item.constructor)).toEqual([Group]);
  });

  it('remove updates only the lists its arguments match', () => {
    let state = normalize(
      polymorphic,
      [
        { id: '1', type: 'users', groupId: 1 },
        { id: 2, type: 'groups', groupId: 1 },
      ],
      [{ groupId: 1 }],
    );
    state = normalize(polymorphic, [{ id: 5, type: 'groups', groupId: 2 }], [{ groupId: 2 }], state);
    const removed = normalize(polymorphic.remove, { id: 2, type: 'groups' }, [{ groupId: 1 }], state);
    expect(removed.entities[polymorphic.key]!['{"groupId":"1"}']).toEqual([{ id: '1', schema: 'users' }]);
    expect(removed.entities[polymorphic.key]!['{"groupId":"2"}']).toEqual([{ id: '5', schema: 'groups' }]);
  });

  it('move takes a member out of the lists its old values matched and into those its new values match', () => {
    let state = normalize(
      ofUnion,
      [
        { id: '1', type: 'users', groupId: 1 },
        { id: 2, type: 'groups', groupId: 1 },
      ],
      [{ groupId: 1 }],
    );
    state = normalize(ofUnion, [{ id: 5, type: 'groups', groupId: 2 }], [{ groupId: 2 }], state);
    const moved = normalize(ofUnion.move, { id: 2, type: 'groups', groupId: 2 }, [{ id: 2 }, { groupId: 2 }], state);
    expect(moved.entities[ofUnion.key]!['{"groupId":"1"}']).toEqual([{ id: '1', schema: 'users' }]);
    expect(moved.entities[ofUnion.key]!['{"groupId":"2"}']).toEqual([
      { id: '5', schema: 'groups' },
      { id: '2', schema: 'groups' },
    ]);
    expect(moved.entities.Group!['2']).toMatchObject({ groupId: 2 });
    const movedUser = normalize(
      ofUnion.move,
      { id: '1', type: 'users', groupId: 2 },
      [{ id: '1' }, { groupId: 2 }],
      moved,
    );
    expect(movedUser.entities[ofUnion.key]!['{"groupId":"1"}']).toEqual([]);
    expect(movedUser.entities[ofUnion.key]!['{"groupId":"2"}']).toEqual([
      { id: '5', schema: 'groups' },
      { id: '2', schema: 'groups' },
      { id: '1', schema: 'users' },
    ]);
  });
});
