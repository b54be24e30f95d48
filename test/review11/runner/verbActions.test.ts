/**
 * Outside review (API.md "controller.actions$"): each verb of the table announces its change once the store
 * committed it, with its type and the key, endpoint and args it concerns.
 */
import { describe, expect, it } from 'vitest';
import type { Controller } from '../../../core/index.js';
import { Todo } from '../../fixtures/entities.js';
import { TodoResource, answerNext, status, useTodoServer } from '../../reliability/faultHarness.js';
import { row, useControllers } from '../../review10/fixtures.js';

const fake = useTodoServer();
const { make } = useControllers();

/** The actions `c` announces: type and key, and whether the store held the change when it was announced. */
function actionsOf(c: Controller) {
  const seen: { type: string; key?: string | undefined; committed: boolean }[] = [];
  const expired: string[] = [];
  c.actions$.subscribe((action) => {
    if (action.type === 'expire') expired.push(...((action as { keys?: string[] }).keys ?? []));
    const key = (action as { key?: string }).key;
    const meta = key === undefined ? undefined : c.getState().meta[key];
    seen.push({
      type: action.type,
      key,
      committed:
        action.type === 'reset' || action.type === 'optimistic' || action.type === 'rollback' || meta !== undefined,
    });
  });
  return { seen, expired };
}

describe('actions$ for the verbs', () => {
  it('fetch, setResponse, setError, invalidate, expireAll, a failed optimistic mutation, set, resetEntireStore', async () => {
    const c = make();
    const { seen, expired } = actionsOf(c);
    const key = TodoResource.get.key({ id: 1 });
    await c.fetch(TodoResource.get, { id: 1 });
    c.setResponse(TodoResource.get, { id: 1 }, row(1, 'set'));
    c.setError(TodoResource.get, { id: 1 }, new Error('boom'));
    c.invalidate(TodoResource.get, { id: 1 });
    c.expireAll(TodoResource.get);
    answerNext(fake, 'patch', '/todos/:id', status(500));
    await expect(c.fetch(TodoResource.partialUpdate, { id: 1 }, { title: 'x' })).rejects.toMatchObject({ status: 500 });
    c.set(Todo, { id: 2, title: 'local' });
    c.resetEntireStore();
    expect(seen.map((a) => a.type)).toEqual([
      'fetch',
      'set',
      'setError',
      'invalidate',
      'expire',
      'optimistic',
      'rollback',
      'set',
      'reset',
    ]);
    expect(seen.slice(0, 4).every((a) => a.key === key && a.committed)).toBe(true);
    // expireAll concerns every key of the endpoint: it lists them
    expect(expired).toEqual([key]);
  });
});
