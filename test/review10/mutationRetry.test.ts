/**
 * Outside review (API.md "mutations reject with a NetworkError status 0 unless their endpoint sets retry";
 * optimistic mutations): a retried optimistic mutation keeps its guess between attempts and while it waits for
 * the network, and loses it only when it finally fails.
 */
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  TodoResource,
  answerNext,
  flush,
  record,
  settled,
  status,
  useTodoServer,
} from '../reliability/faultHarness.js';
import { useControllers } from './fixtures.js';

const fake = useTodoServer();
const controllers = useControllers();
const make = (online = true) => {
  const online$ = new BehaviorSubject(online);
  return { c: controllers.make({ environment: { online$ } }), online$ };
};
const Update = TodoResource.partialUpdate.extend({ retry: 2, retryDelay: 20 });

describe('a retried optimistic mutation', () => {
  it('keeps its guess between attempts: guess, then the answer, no rollback in between', async () => {
    const { c } = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    answerNext(fake, 'patch', '/todos/:id', status(503));
    const done = await c.fetch(Update, { id: 1 }, { title: 'guess' });
    expect(done.title).toBe('guess');
    await flush();
    const titles = s.values.map((v) => v.data?.title);
    expect(titles.slice(titles.indexOf('guess'))).toEqual(['guess']);
    expect(fake.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(2);
    s.unsubscribe();
  });

  it('fails after its retries: rolled back once, the error reported', async () => {
    const { c } = make();
    const s = record(c.observe(TodoResource.get, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('todo 1'));
    answerNext(fake, 'patch', '/todos/:id', status(503), status(503), status(503));
    await expect(c.fetch(Update, { id: 1 }, { title: 'guess' })).rejects.toMatchObject({ status: 503 });
    await flush();
    expect(s.values.map((v) => v.data?.title).filter(Boolean)).toEqual(['todo 1', 'guess', 'todo 1']);
    expect(c.getState().optimistic).toHaveLength(0);
    s.unsubscribe();
  });

  it('offline: waits with its guess shown, sends when the network returns', async () => {
    const { c, online$ } = make();
    await c.fetch(TodoResource.get, { id: 1 });
    online$.next(false);
    const m = c.fetch(Update, { id: 1 }, { title: 'guess' });
    await flush();
    expect(c.getResponse(TodoResource.get, { id: 1 }).data?.title).toBe('guess');
    expect(fake.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(0);
    online$.next(true);
    expect((await m).title).toBe('guess');
    expect(fake.todos.get(1)?.title).toBe('guess');
  });

  it('offline and the store reset: it settles without a request, its guess gone, nothing written', async () => {
    const { c, online$ } = make();
    await c.fetch(TodoResource.get, { id: 1 });
    online$.next(false);
    const m = c.fetch(Update, { id: 1 }, { title: 'guess' });
    m.catch(() => undefined);
    await flush();
    c.resetEntireStore();
    await expect(m).rejects.toBeInstanceOf(Error);
    expect(c.getState().optimistic).toHaveLength(0);
    online$.next(true);
    await flush();
    expect(fake.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(0);
    expect(c.getState().entities.Todo?.['1']).toBeUndefined();
  });
});
