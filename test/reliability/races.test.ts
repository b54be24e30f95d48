/**
 * Races: a write made while a request is in flight (`setError`, `setResponse`, `set`, `connect`,
 * `invalidate`, `restoreSnapshot`), the network gone before the first emission, a failing manager
 * teardown, and a list refetched while items are pushed into it and deleted from it. Each request is
 * held at the server until the test lets it answer (`gate`), so the order is the test's, not timing's.
 */
import { HttpResponse } from 'msw';
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { Controller, restoreSnapshot, takeSnapshot } from '../../core/index.js';
import { TodoResource, answerNext, record, settled, useTodoServer, type TodoJson } from './faultHarness.js';

const fake = useTodoServer();

/** A door the test opens: requests answered through `held` wait behind it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** An answer that reads the server's data when the request arrives and sends it once `door` opens. */
const held =
  (door: ReturnType<typeof gate>, read: () => unknown, init?: ResponseInit) => async (): Promise<Response> => {
    const body = structuredClone(read()) as never;
    await door.opened;
    return HttpResponse.json(body, init);
  };

const gets = (path: string) => fake.requests.filter((request) => request === `GET ${path}`).length;
const todo = (id: number): TodoJson => ({ ...fake.todos.get(id)! });

describe('a write while a request is in flight', () => {
  it('setError during a first load: the observer shows the error at once, not a spinner', async () => {
    const controller = new Controller({ retry: 0 });
    const door = gate();
    answerNext(
      fake,
      'get',
      '/todos/1',
      held(door, () => todo(1)),
    );
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(gets('/todos/1')).toBe(1));
    const error = new Error('the push said: gone');
    controller.setError(TodoResource.get, { id: 1 }, error);
    expect(stream.last()).toMatchObject({ error, loading: false, fetching: true });
    door.open();
    // the request started before the error was set: its answer does not hide it
    await settled(() => expect(stream.last().fetching).toBe(false));
    expect(stream.last()).toMatchObject({ error, data: undefined, loading: false });
    stream.unsubscribe();
  });

  it('a 404 set during a refresh over cached data shows the error, not a spinner', async () => {
    const controller = new Controller({ retry: 0 });
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(stream.last().data?.title).toBe('todo 1'));
    const door = gate();
    answerNext(
      fake,
      'get',
      '/todos/1',
      held(door, () => todo(1)),
    );
    const refresh = controller.fetch(TodoResource.get, { id: 1 });
    await settled(() => expect(gets('/todos/1')).toBe(2));
    const error = Object.assign(new Error('not found'), { status: 404 });
    controller.setError(TodoResource.get, { id: 1 }, error);
    expect(stream.last()).toMatchObject({ error, data: undefined, loading: false, fetching: true });
    door.open();
    await refresh;
    await settled(() => expect(stream.last().fetching).toBe(false));
    expect(stream.last().error).toBe(error);
    stream.unsubscribe();
  });

  it('setResponse during a first load, then an older answer that changes nothing: fetching ends', async () => {
    const controller = new Controller({ retry: 0 });
    const door = gate();
    answerNext(
      fake,
      'get',
      '/todos/1',
      held(door, () => todo(1)),
    );
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(gets('/todos/1')).toBe(1));
    controller.setResponse(TodoResource.get, { id: 1 }, todo(1));
    expect(stream.last()).toMatchObject({ loading: false, fetching: true });
    door.open();
    await settled(() => expect(stream.last()).toMatchObject({ fetching: false, loading: false }));
    expect(stream.last().data?.title).toBe('todo 1');
    stream.unsubscribe();
  });

  it.each(['invalidate', 'expireAll'] as const)(
    '%s during a refresh: the answer of the request started before it does not clear it; the data is refetched',
    async (mark) => {
      const controller = new Controller({ retry: 0 });
      const stream = record(controller.observe(TodoResource.get, { id: 1 }));
      await settled(() => expect(stream.last().data?.title).toBe('todo 1'));
      const door = gate();
      answerNext(
        fake,
        'get',
        '/todos/1',
        held(door, () => todo(1)),
      );
      const refresh = controller.fetch(TodoResource.get, { id: 1 });
      await settled(() => expect(gets('/todos/1')).toBe(2));
      fake.todos.get(1)!.title = 'changed after the refresh was answered';
      if (mark === 'invalidate') controller.invalidate(TodoResource.get, { id: 1 });
      else controller.expireAll(TodoResource.get);
      door.open();
      expect((await refresh).title).toBe('todo 1'); // its caller gets its own answer
      await settled(() => expect(stream.last().data?.title).toBe('changed after the refresh was answered'));
      expect(gets('/todos/1')).toBe(3);
      expect(stream.last()).toMatchObject({ fetching: false, stale: false });
      stream.unsubscribe();
    },
  );

  it.each(['set', 'connect', 'restoreSnapshot'] as const)(
    'a push by %s during a mutation: the mutation resolves its own answer, the store keeps the newer push',
    async (push) => {
      const controller = new Controller({ retry: 0 });
      await controller.fetch(TodoResource.get, { id: 1 });
      const door = gate();
      answerNext(
        fake,
        'patch',
        '/todos/1',
        held(door, () => Object.assign(fake.todos.get(1)!, { title: 'the server answered' })),
      );
      const mutation = controller.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'the server answered' });
      await settled(() => expect(fake.requests).toContain('PATCH /todos/1'));
      const pushed = { ...todo(1), title: 'pushed later' };
      if (push === 'set') controller.set(TodoResource.get.schema, pushed);
      else if (push === 'connect') {
        const source = new Subject<TodoJson>();
        controller.connect(source, (value, c) => c.set(TodoResource.get.schema, value));
        source.next(pushed);
      } else {
        const other = new Controller();
        other.set(TodoResource.get.schema, pushed);
        restoreSnapshot(controller, takeSnapshot(other));
      }
      door.open();
      expect((await mutation).title).toBe('the server answered');
      expect(controller.get(TodoResource.get.schema, { id: 1 })?.title).toBe('pushed later');
    },
  );
});

describe('offline before the first emission', () => {
  it('observing while offline: the first (synchronous) emission already says paused', () => {
    const online$ = new BehaviorSubject(false);
    const controller = new Controller({ retry: 0, environment: { online$ } });
    const stream = record(controller.observe(TodoResource.get, { id: 1 }));
    expect(stream.values[0]).toMatchObject({ loading: true, fetching: true, paused: true });
    expect(stream.values.every((state) => state.paused)).toBe(true);
    stream.unsubscribe();
    controller.dispose();
  });
});

describe('dispose', () => {
  it('a manager teardown that throws: the later teardowns still run and connections end; dispose reports the error', () => {
    const later = vi.fn();
    const failing = new Error('teardown failed');
    const controller = new Controller({
      managers: [
        () => () => {
          throw failing;
        },
        () => later,
      ],
    });
    const source = new Subject<number>();
    controller.connect(source, () => {});
    expect(source.observed).toBe(true);
    expect(() => controller.dispose()).toThrow(failing);
    expect(later).toHaveBeenCalledOnce();
    expect(source.observed).toBe(false);
    expect(() => controller.dispose()).not.toThrow(); // once
  });

  it('several teardowns that throw: every one runs, and dispose throws an AggregateError of their errors', () => {
    const first = new Error('first failed');
    const second = new Error('second failed');
    const later = vi.fn();
    const controller = new Controller({
      managers: [
        () => () => {
          throw first;
        },
        () => () => {
          throw second;
        },
        () => later,
      ],
    });
    let thrown: unknown;
    try {
      controller.dispose();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors).toEqual([first, second]);
    expect(later).toHaveBeenCalledOnce();
  });
});

describe('a list refetched while items are pushed into it and deleted from it', () => {
  it('keeps the answer, what was pushed after the request started, and leaves out what was deleted since', async () => {
    const controller = new Controller({ retry: 0 });
    const stream = record(controller.observe(TodoResource.getList));
    await settled(() => expect(stream.last().data?.map((t) => t.id)).toEqual([1, 2, 3, 4]));
    // changes the client missed (its live stream was down): 2 deleted, 5 created on the server
    fake.todos.delete(2);
    fake.todos.set(5, { ...todo(1), id: 5, title: 'todo 5' });
    const door = gate();
    answerNext(
      fake,
      'get',
      '/todos',
      held(door, () => [...fake.todos.values()]),
    );
    controller.expireAll(TodoResource.getList); // the stream reopened: catch up
    await settled(() => expect(gets('/todos')).toBe(2));
    // while the catch-up is in flight, the live stream pushes a create and a delete
    fake.todos.set(6, { ...todo(1), id: 6, title: 'todo 6' });
    controller.set(TodoResource.getList.push.schema, {}, todo(6));
    fake.todos.delete(3);
    controller.set(TodoResource.delete.schema, { id: 3 });
    door.open();
    await settled(() => expect(stream.last().fetching).toBe(false));
    expect(stream.last().data?.map((t) => t.id)).toEqual([1, 4, 5, 6]);
    expect(stream.last().stale).toBe(false);
    stream.unsubscribe();
  });

  it('a whole list written after the request started stays, and the older answer does not mark the key fresh', async () => {
    const controller = new Controller({ retry: 0 });
    await controller.fetch(TodoResource.getList);
    const door = gate();
    answerNext(
      fake,
      'get',
      '/todos',
      held(door, () => [...fake.todos.values()]),
    );
    const refetch = controller.fetch(TodoResource.getList);
    await settled(() => expect(gets('/todos')).toBe(2));
    // a newer write of the whole list (as a push of the full list would make)
    controller.set(TodoResource.getList.schema, {}, [todo(4), todo(3)]);
    door.open();
    expect((await refetch).map((t) => t.id)).toEqual([1, 2, 3, 4]); // its caller gets its own answer
    expect(controller.getResponse(TodoResource.getList).data?.map((t) => t.id)).toEqual([4, 3]);
    expect(controller.getResponse(TodoResource.getList).stale).toBe(true); // an observer refetches it
  });
});
