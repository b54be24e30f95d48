/**
 * controller.get, controller.set and controller.observe of queryables: reads and writes of the entity
 * tables without a request (data-client's `controller.get(schema, ...args)` and `controller.set`).
 */
import { describe, expect, it } from 'vitest';
import { Controller, Entity, NormalizeError, RestEndpoint, schema, type QueryState } from '../../core/index.js';
import { Todo } from '../fixtures/entities.js';
import { record } from '../fixtures/streams.js';

const API = 'http://store-queries.test';
let requests = 0;
const offline = {
  urlPrefix: API,
  fetchResponse(): Promise<Response> {
    requests++;
    return Promise.reject(new Error('no request may leave these tests'));
  },
};
const getTodos = new RestEndpoint({ ...offline, path: '/todos', schema: [Todo] });
const getTodo = new RestEndpoint({ ...offline, path: '/todos/:id', schema: Todo });

class Member extends Entity {
  id = 0;
  username = '';
  pk() {
    return `${this.id}`;
  }
  static override indexes = ['username'];
}
const getMembers = new RestEndpoint({ ...offline, path: '/members', schema: [Member] });

const pageOfAll = () => new schema.Object({ results: new schema.All(Todo), nextPage: '' });

const doneCount = new schema.Query(new schema.All(Todo), (todos) => todos.filter((todo) => todo.completed).length);

function loaded(): Controller {
  const controller = new Controller();
  controller.setResponse(getTodos, {}, [
    { id: 1, title: 'a', completed: true },
    { id: 2, title: 'b', completed: false },
  ]);
  controller.setResponse(getMembers, {}, [
    { id: 7, username: 'ann' },
    { id: 8, username: 'bob' },
  ]);
  return controller;
}

describe('controller.get', () => {
  it('reads an entity by pk, by an object holding its pk, or by one of its indexes', () => {
    const controller = loaded();
    expect(controller.get(Todo, { id: 2 })).toBeInstanceOf(Todo);
    expect(controller.get(Todo, { id: 2 })?.title).toBe('b');
    expect(controller.get(Todo, '1')?.title).toBe('a');
    expect(controller.get(Member, { username: 'bob' })?.id).toBe(8);
    expect(controller.get(Todo, { id: 3 })).toBeUndefined();
    expect(controller.get(Member, { username: 'nobody' })).toBeUndefined();
  });

  it('reads schema.All and schema.Query from the tables, the same objects while nothing changed', () => {
    const controller = loaded();
    const all = controller.get(new schema.All(Todo));
    expect(all?.map((todo) => todo.title)).toEqual(['a', 'b']);
    expect(controller.get(doneCount)).toBe(1);
    expect(controller.get(Todo, { id: 1 })).toBe(all?.[0]);
    expect(requests).toBe(0);
  });

  it('reads schema.Values stored as a Collection under its arguments, and follows set in observe; undefined when missing', () => {
    const byId = new schema.Collection(new schema.Values(Todo));
    const getById = new RestEndpoint({
      ...offline,
      path: '/todos-by-id',
      searchParams: {} as { userId: number },
      schema: byId,
    });
    const controller = new Controller();
    expect(controller.get(byId, { userId: 1 })).toBeUndefined();
    controller.setResponse(getById, { userId: 1 }, { '1': { id: 1, title: 'a' }, '3': { id: 3, title: 'c' } });
    const read = controller.get(byId, { userId: 1 });
    expect(Object.keys(read ?? {})).toEqual(['1', '3']);
    expect(read?.['3']).toBeInstanceOf(Todo);
    expect(read?.['3']?.title).toBe('c');
    expect(controller.get(byId, { userId: 1 })).toBe(read);
    expect(controller.get(byId, { userId: 2 })).toBeUndefined();
    const observed = record<QueryState<Record<string, Todo>>>(controller.observe(byId, { userId: 1 }));
    expect(observed.last()).toMatchObject({ loading: false, fetching: false });
    expect(observed.last().data).toBe(read);
    controller.set(Todo, { id: 3, title: 'renamed' });
    expect(observed.last().data?.['3']?.title).toBe('renamed');
    observed.unsubscribe();
    expect(requests).toBe(0);
  });

  it('keeps the non-schema members of an object schema (nextPage), as data-client does', () => {
    const page = pageOfAll();
    const read = loaded().get(page);
    expect(read?.nextPage).toBe('');
    expect(read?.results.map((todo) => todo.title)).toEqual(['a', 'b']);
  });
});

describe('controller.set', () => {
  it('writes an entity without a request; a partial value merges; every observer that reads it re-emits', () => {
    const controller = loaded();
    const one = record<QueryState<Todo>>(controller.observe(getTodo, { id: 1 }));
    const list = record<QueryState<Todo[]>>(controller.observe(getTodos, {}));
    const before = list.last().data;
    controller.set(Todo, { id: 1 }, { id: 1, title: 'renamed' });
    expect(one.last().data?.title).toBe('renamed');
    expect(one.last().data?.completed).toBe(true); // merged into the stored record
    expect(list.last().data?.[0]?.title).toBe('renamed');
    expect(list.last().data?.[1]).toBe(before?.[1]); // the other row kept its object
    expect(controller.get(Todo, { id: 1 })?.title).toBe('renamed');
    controller.set(Todo, { id: 3 }, { id: 3, title: 'new' });
    expect(controller.get(Todo, { id: 3 })?.title).toBe('new');
    one.unsubscribe();
    list.unsubscribe();
    expect(requests).toBe(0);
  });

  it('rejects a value without a pk with a NormalizeError and leaves the store as it was', () => {
    const controller = loaded();
    const state = JSON.stringify(controller.getState());
    expect(() => controller.set(Todo, {}, { title: 'no id' })).toThrow(NormalizeError);
    expect(() => controller.set(Todo, {}, true)).toThrow(NormalizeError);
    expect(JSON.stringify(controller.getState())).toBe(state);
  });
});

describe('controller.observe of a queryable', () => {
  it('emits the answer at once (never loading, never fetching) and again when it changes', () => {
    const controller = loaded();
    const count = record<QueryState<number>>(controller.observe(doneCount));
    expect(count.values).toHaveLength(1);
    expect(count.last()).toMatchObject({ data: 1, loading: false, fetching: false, error: undefined });
    controller.set(Todo, { id: 2 }, { id: 2, completed: true });
    expect(count.last().data).toBe(2);
    controller.setResponse(getTodo, { id: 9 }, { id: 9, title: 'nine', completed: true }); // a new row
    expect(count.last().data).toBe(3);
    const emitted = count.values.length;
    controller.set(Member, {}, { id: 7, username: 'anne' }); // another table: no emission
    expect(count.values).toHaveLength(emitted);
    count.unsubscribe();
    expect(requests).toBe(0);
  });

  it('follows an index lookup to the entity it finds, and to a new one that takes the value', () => {
    const controller = loaded();
    const bob = record<QueryState<Member>>(controller.observe(Member, { username: 'bob' }));
    expect(bob.last().data?.id).toBe(8);
    controller.set(Member, {}, { id: 8, username: 'robert' });
    expect(bob.last().data).toBeUndefined();
    controller.set(Member, {}, { id: 9, username: 'bob' });
    expect(bob.last().data?.id).toBe(9);
    bob.unsubscribe();
  });
});
