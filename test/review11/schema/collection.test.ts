/**
 * Outside review of `schema.Collection` from API.md and the docs: lists keyed by their arguments, push /
 * unshift / getPage / remove / move reaching every matching list, nonFilterArgumentKeys, Collections of
 * Values (assign / remove / move) and collections nested in an entity.
 */
import { describe, expect, it } from 'vitest';
import { Entity, RestEndpoint, createResource, schema } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';
import { record } from '../../fixtures/streams.js';

const API = 'http://r11c.test';
const { make } = useControllers({ retry: 0, environment: {} });

class Task extends Entity {
  id = 0;
  userId = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'R11Task';
}

const Tasks = createResource({
  urlPrefix: API,
  path: '/tasks/:id',
  schema: Task,
  searchParams: {} as { userId?: number; orderBy?: string; sort?: string } | undefined,
  paginationField: 'page',
});

const task = (id: number, userId = 1, title = `task ${id}`) => ({ id, userId, title });
const ids = (list: readonly Task[] | undefined) => list?.map((t) => t.id);

function seeded() {
  const c = make();
  c.setResponse(Tasks.getList, { userId: 1 }, [task(1), task(2)]);
  c.setResponse(Tasks.getList, { userId: 2 }, [task(3, 2)]);
  c.setResponse(Tasks.getList, {}, [task(1), task(2), task(3, 2)]);
  return c;
}

describe('lists keyed by their arguments', () => {
  it('two argument sets are two lists sharing one record table; key order and undefined do not matter', () => {
    const c = seeded();
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([1, 2]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 2 }).data)).toEqual([3]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 1, orderBy: undefined }).data)).toEqual([1, 2]);
    expect(c.getResponse(Tasks.getList, { userId: 1 }).data![0]).toBe(c.getResponse(Tasks.getList, {}).data![0]);
  });
});

describe('push and unshift', () => {
  it('push adds the created entity to the end of every list whose arguments match the body', () => {
    const c = seeded();
    c.setResponse(Tasks.getList.push, {}, { userId: 1, title: 'new' }, task(10, 1, 'new'));
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([1, 2, 10]);
    expect(ids(c.getResponse(Tasks.getList, {}).data)).toEqual([1, 2, 3, 10]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 2 }).data)).toEqual([3]);
  });

  it('push matches the URL arguments too', () => {
    const c = seeded();
    c.setResponse(Tasks.getList.push, { userId: 2 }, { title: 'new' }, task(11, 2, 'new'));
    expect(ids(c.getResponse(Tasks.getList, { userId: 2 }).data)).toEqual([3, 11]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([1, 2]);
  });

  it('unshift adds to the start; an entity already in a list is not added twice', () => {
    const c = seeded();
    c.setResponse(Tasks.getList.unshift, {}, { userId: 1, title: 'first' }, task(12, 1, 'first'));
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([12, 1, 2]);
    c.setResponse(Tasks.getList.push, {}, { userId: 1, title: 'again' }, task(12, 1, 'again'));
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([12, 1, 2]);
    expect(c.getResponse(Tasks.getList, { userId: 1 }).data![0]!.title).toBe('again');
  });

  it('arguments starting with "order" are ignored by default when matching', () => {
    const c = seeded();
    c.setResponse(Tasks.getList, { userId: 1, orderBy: 'title' }, [task(2), task(1)]);
    c.setResponse(Tasks.getList.push, {}, { userId: 1, title: 'z' }, task(13, 1, 'z'));
    expect(ids(c.getResponse(Tasks.getList, { userId: 1, orderBy: 'title' }).data)).toEqual([2, 1, 13]);
  });

  it('a list whose other filter argument the body lacks is not reached', () => {
    const c = seeded();
    c.setResponse(Tasks.getList, { userId: 1, sort: 'asc' }, [task(1)]);
    c.setResponse(Tasks.getList.push, {}, { userId: 1, title: 'z' }, task(14, 1, 'z'));
    expect(ids(c.getResponse(Tasks.getList, { userId: 1, sort: 'asc' }).data)).toEqual([1]);
  });

  it('nonFilterArgumentKeys (a Collection subclass or the option) makes such an argument ignored', () => {
    class SortFree extends schema.Collection {
      override nonFilterArgumentKeys(key: string) {
        return key === 'sort' || key.startsWith('order');
      }
    }
    const R = createResource({
      urlPrefix: API,
      path: '/tasks/:id',
      schema: Task,
      searchParams: {} as { userId?: number; sort?: string } | undefined,
      Collection: SortFree,
    });
    const c = make();
    c.setResponse(R.getList, { userId: 1, sort: 'asc' }, [task(1)]);
    c.setResponse(R.getList.push, {}, { userId: 1, title: 'z' }, task(15, 1, 'z'));
    expect(ids(c.getResponse(R.getList, { userId: 1, sort: 'asc' }).data)).toEqual([1, 15]);

    const byOption = new schema.Collection([Task], { nonFilterArgumentKeys: ['sort'] });
    const list = new RestEndpoint({
      urlPrefix: API,
      path: '/opt-tasks',
      searchParams: {} as { userId?: number; sort?: string },
      schema: byOption,
    });
    c.setResponse(list, { userId: 1, sort: 'desc' }, [task(1)]);
    c.setResponse(list.push, {}, { userId: 1 }, task(16, 1));
    expect(ids(c.getResponse(list, { userId: 1, sort: 'desc' }).data)).toEqual([1, 16]);
  });

  it('controller.fetch-shaped push resolves the created entity (setResponse of push returns the list state)', () => {
    const c = seeded();
    c.setResponse(Tasks.getList.push, {}, { userId: 1 }, task(17));
    expect(c.getResponse(Tasks.getList.push, {}, { userId: 1 }).data).toBeInstanceOf(Task);
  });
});

describe('argument values that are falsy', () => {
  class Flag extends Entity {
    id = 0;
    done = false;
    rank = 0;
    pk() {
      return `${this.id}`;
    }
    static override key = 'R11Flag';
  }
  const Flags = createResource({
    urlPrefix: API,
    path: '/flags/:id',
    schema: Flag,
    searchParams: {} as { done?: boolean; rank?: number } | undefined,
  });

  it('false and 0 match as values: push and move reach exactly the lists they name', () => {
    const c = make();
    c.setResponse(Flags.getList, { done: false }, [{ id: 1, done: false }]);
    c.setResponse(Flags.getList, { done: true }, [{ id: 2, done: true }]);
    c.setResponse(Flags.getList, { rank: 0 }, [{ id: 1, rank: 0 }]);
    c.setResponse(Flags.getList.push, {}, { done: false, rank: 0 }, { id: 3, done: false, rank: 0 });
    expect(ids(c.getResponse(Flags.getList, { done: false }).data as never)).toEqual([1, 3]);
    expect(ids(c.getResponse(Flags.getList, { done: true }).data as never)).toEqual([2]);
    expect(ids(c.getResponse(Flags.getList, { rank: 0 }).data as never)).toEqual([1, 3]);
    c.setResponse(Flags.getList.move, { id: 3 }, { done: true }, { id: 3, done: true, rank: 0 });
    expect(ids(c.getResponse(Flags.getList, { done: false }).data as never)).toEqual([1]);
    expect(ids(c.getResponse(Flags.getList, { done: true }).data as never)).toEqual([2, 3]);
    expect(ids(c.getResponse(Flags.getList, { rank: 0 }).data as never)).toEqual([1, 3]);
  });
});

describe('getPage', () => {
  it('appends a page to the list of the same arguments, without duplicates', () => {
    const c = seeded();
    c.setResponse(Tasks.getList.getPage, { userId: 1, page: 2 }, [task(2), task(20), task(21)]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([1, 2, 20, 21]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 2 }).data)).toEqual([3]);
  });
});

describe('remove and move', () => {
  it('remove updates the entity and takes it out of every matching list', () => {
    const c = seeded();
    c.setResponse(Tasks.getList.remove, { userId: 1 }, { id: 2 }, task(2, 1, 'gone'));
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([1]);
    expect(c.get(Task, { id: 2 })?.title).toBe('gone');
  });

  it('move takes the entity out of the lists its old values matched and adds it to those its new ones match', () => {
    const c = seeded();
    c.setResponse(Tasks.getList.move, { id: 2 }, { userId: 2 }, task(2, 2));
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([1]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 2 }).data)).toEqual([3, 2]);
    expect(ids(c.getResponse(Tasks.getList, {}).data)).toEqual([1, 2, 3]);
  });
});

describe('a Collection of Values', () => {
  const byId = new schema.Collection(new schema.Values(Task));
  const map = new RestEndpoint({
    urlPrefix: API,
    path: '/task-map',
    searchParams: {} as { userId?: number },
    schema: byId,
  });

  it('assign merges entries into every matching object; remove takes them out; push does not exist', () => {
    const c = make();
    c.setResponse(map, { userId: 1 }, { a: task(1), b: task(2) });
    c.setResponse(map, { userId: 2 }, { c: task(3, 2) });
    const assign = new RestEndpoint({
      urlPrefix: API,
      path: '/task-map',
      method: 'POST',
      searchParams: {} as { userId?: number },
      body: {} as Record<string, unknown>,
      schema: byId.assign,
    });
    c.setResponse(assign, { userId: 1 }, {}, { d: task(4) });
    expect(Object.keys(c.getResponse(map, { userId: 1 }).data!).sort()).toEqual(['a', 'b', 'd']);
    expect(Object.keys(c.getResponse(map, { userId: 2 }).data!)).toEqual(['c']);
    expect(c.getResponse(map, { userId: 1 }).data!.d).toBeInstanceOf(Task);
    expect(() => (byId as unknown as { push: { key: string } }).push.key).toThrow();
  });
});

describe('a collection nested in an entity', () => {
  class Owner extends Entity {
    id = 0;
    name = '';
    tasks: Task[] = [];
    pk() {
      return `${this.id}`;
    }
    static override key = 'R11Owner';
    static override schema = {
      tasks: new schema.Collection([Task], {
        nestKey: (parent: Readonly<Record<string, unknown>>) => ({ userId: parent.id }),
      }),
    };
  }
  const getOwner = new RestEndpoint({ urlPrefix: API, path: '/owners/:id', schema: Owner });

  it('is the same list as the top-level collection of the same arguments, so push reaches both', () => {
    const c = make();
    c.setResponse(getOwner, { id: 1 }, { id: 1, name: 'ann', tasks: [task(1), task(2)] });
    expect(ids(c.getResponse(getOwner, { id: 1 }).data?.tasks)).toEqual([1, 2]);
    expect(ids(c.get(Tasks.getList.schema, { userId: 1 }))).toEqual([1, 2]);
    c.setResponse(Tasks.getList.push, {}, { userId: 1 }, task(30));
    expect(ids(c.getResponse(getOwner, { id: 1 }).data?.tasks)).toEqual([1, 2, 30]);
  });

  it('a list endpoint of those arguments reads the nested list before its own request answers (data-client)', () => {
    const c = make();
    c.setResponse(getOwner, { id: 1 }, { id: 1, name: 'ann', tasks: [task(1), task(2)] });
    const read = c.getResponse(Tasks.getList, { userId: 1 });
    expect(ids(read.data)).toEqual([1, 2]);
    expect(read.stale).toBe(true);
    expect(c.getResponse(Tasks.getList, { userId: 2 }).data).toBeUndefined();
    const s = record(c.observe(Tasks.getList, { userId: 1 }));
    expect(ids(s.last().data)).toEqual([1, 2]);
    expect(s.last().loading).toBe(false);
    expect(s.last().fetching).toBe(true);
    s.unsubscribe();
    // the list's own response, once there, is what it reads
    c.setResponse(Tasks.getList, { userId: 1 }, [task(2)]);
    expect(ids(c.getResponse(Tasks.getList, { userId: 1 }).data)).toEqual([2]);
    expect(ids(c.getResponse(getOwner, { id: 1 }).data?.tasks)).toEqual([2]);
  });

  it('two owners keep their own nested lists', () => {
    const c = make();
    c.setResponse(getOwner, { id: 1 }, { id: 1, name: 'ann', tasks: [task(1)] });
    c.setResponse(getOwner, { id: 2 }, { id: 2, name: 'bob', tasks: [task(3, 2)] });
    expect(ids(c.getResponse(getOwner, { id: 1 }).data?.tasks)).toEqual([1]);
    expect(ids(c.getResponse(getOwner, { id: 2 }).data?.tasks)).toEqual([3]);
  });
});
