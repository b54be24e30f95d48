/**
 * `dataExpiryLength: 0` (or `errorExpiryLength: 0`): an answer is stale as it is written. API.md: a stream
 * fetches on subscribe when the data is stale, and on `invalidate`/`expireAll`; it must not refetch each answer
 * as it arrives (an endless request loop while it is observed). TanStack Query's `staleTime: 0` is the same.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Controller } from '../../../core/index.js';
import { API, TodoResource, flush, record, settled, useTodoServer } from '../../reliability/faultHarness.js';
import { row, useControllers } from '../../review10/fixtures.js';

const fake = useTodoServer();
const { make } = useControllers();

/** Answers GET /todos/:id (`status` 200: a todo), counting; past 20 requests it disposes `c` (a loop ends). */
function counted(c: Controller, status = 200) {
  const seen = { requests: 0 };
  fake.server.use(
    http.get(`${API}/todos/:id`, ({ params }) => {
      if (++seen.requests === 20) c.dispose();
      return status === 200
        ? HttpResponse.json(row(Number(params.id), `answer ${seen.requests}`))
        : HttpResponse.json({ message: 'down' }, { status });
    }),
  );
  return seen;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a lifetime of 0', () => {
  it('dataExpiryLength 0: one request for the subscriber, not one per answer; shown as stale', async () => {
    const c = make();
    const seen = counted(c);
    const s = record(c.observe(TodoResource.get.extend({ dataExpiryLength: 0 }), { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('answer 1'));
    await wait(50);
    await flush();
    expect(seen.requests).toBe(1);
    expect(s.last()).toMatchObject({ fetching: false, stale: true });
    s.unsubscribe();
  });

  it('errorExpiryLength 0 and a failing server: one request, not a loop', async () => {
    const c = make();
    const seen = counted(c, 400);
    const s = record(c.observe(TodoResource.get.extend({ errorExpiryLength: 0 }), { id: 1 }));
    await settled(() => expect(s.last().error).toMatchObject({ status: 400 }));
    await wait(50);
    await flush();
    expect(seen.requests).toBe(1);
    s.unsubscribe();
  });

  it('such data is still refetched by a new subscriber, expireAll and invalidate, once each', async () => {
    const c = make();
    const seen = counted(c);
    const Zero = TodoResource.get.extend({ dataExpiryLength: 0 });
    const s = record(c.observe(Zero, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('answer 1'));
    const other = record(c.observe(Zero, { id: 1 }));
    await settled(() => expect(other.last().data?.title).toBe('answer 2'));
    c.expireAll(Zero);
    await settled(() => expect(s.last().data?.title).toBe('answer 3'));
    c.invalidate(Zero, { id: 1 });
    await settled(() => expect(s.last().data?.title).toBe('answer 4'));
    await wait(50);
    await flush();
    expect(seen.requests).toBe(4);
    s.unsubscribe();
    other.unsubscribe();
  });

  it('such data made unusable by a mutation’s response (an Invalidate schema) is refetched once', async () => {
    const c = make();
    const seen = counted(c);
    const Zero = TodoResource.get.extend({ dataExpiryLength: 0 });
    const s = record(c.observe(Zero, { id: 1 }));
    await settled(() => expect(s.last().data?.title).toBe('answer 1'));
    await c.fetch(TodoResource.delete, { id: 1 });
    await settled(() => expect(s.last().data?.title).toBe('answer 2'));
    await wait(50);
    await flush();
    expect(seen.requests).toBe(2);
    s.unsubscribe();
  });
});
