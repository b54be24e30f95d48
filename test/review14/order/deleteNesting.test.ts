/**
 * `schemaTables` errs wide; where that reaches the user: a delete (`Invalidate`) of an entity writes its own table
 * only, not the tables nested in the entity. A GET of a nested table sent while such a delete is in flight is as new
 * as its request, so a `set` of that table made before it was sent does not win over its answer (the rule of
 * test/review13/order/getDuringMutation.test.ts for mutations of other tables).
 */
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint, createResource, schema } from '../../../core/index.js';
import { API, flush, useLiveServer } from '../../review12/live/harness.js';
import { schemaTables } from '../../../core/schema/index.js';

const live = useLiveServer();

class Owner extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Owner';
}

class Task extends Entity {
  id = 0;
  title = '';
  owner = Owner.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'Task';
  static override schema = { owner: Owner };
}

const tasks = createResource({ urlPrefix: API, path: '/tasks/:id', schema: Task });
const getOwner = new RestEndpoint({ urlPrefix: API, path: '/owners/:id', schema: Owner });

const waiting: { path: string; answer: (body: unknown) => void }[] = [];
const owner = { id: 1, name: 'first' };

beforeEach(() => {
  waiting.length = 0;
  owner.name = 'first';
  live.server.use(
    http.get(`${API}/owners/:id`, () => HttpResponse.json({ ...owner })),
    http.get(`${API}/tasks/:id`, () => HttpResponse.json({ id: 7, title: 't', owner: { ...owner } })),
    http.delete(
      `${API}/tasks/:id`,
      ({ request }) =>
        new Promise<Response>((resolve) => {
          waiting.push({
            path: new URL(request.url).pathname,
            answer: (body) => resolve(HttpResponse.json(body as never)),
          });
        }),
    ),
  );
});

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await flush(1);
  expect(ready()).toBe(true);
}

const nameOf = (c: Controller) => (c.getState().entities['Owner']?.['1'] as { name?: string } | undefined)?.name;

describe('a GET of a table nested in an entity whose delete is in flight', () => {
  it('is as new as its request: a set made before it was sent does not win over its answer', async () => {
    const c = new Controller();
    await c.fetch(tasks.get, { id: 7 });
    const removal = c.fetch(tasks.delete, { id: 7 });
    await until(() => waiting.length === 1);
    c.set(Owner, { id: 1 }, { id: 1, name: 'local' });
    owner.name = 'server';
    await c.fetch(getOwner, { id: 1 });
    expect(nameOf(c)).toBe('server');
    waiting[0]!.answer({ id: 7 });
    await removal;
    expect(nameOf(c)).toBe('server');
    expect(c.get(Task, { id: 7 })).toBeUndefined();
    c.dispose();
  });

  it('a GET of the deleted table itself stays older than the delete', async () => {
    const c = new Controller();
    await c.fetch(tasks.get, { id: 7 });
    const removal = c.fetch(tasks.delete, { id: 7 });
    await until(() => waiting.length === 1);
    await c.fetch(tasks.get, { id: 7 });
    waiting[0]!.answer({ id: 7 });
    await removal;
    expect(c.get(Task, { id: 7 })).toBeUndefined();
    c.dispose();
  });

  it('schemaTables: an Invalidate writes its entity’s table (a Union’s members), not the tables nested in it', () => {
    expect([...schemaTables(new schema.Invalidate(Task))]).toEqual(['Task']);
    expect([...schemaTables([new schema.Invalidate(Task)])]).toEqual(['Task']);
    expect(
      [...schemaTables(new schema.Invalidate(new schema.Union({ task: Task, owner: Owner }, 'type')))].sort(),
    ).toEqual(['Owner', 'Task']);
    expect([...schemaTables(tasks.get.schema)].sort()).toEqual(['Owner', 'Task']);
    // met under an Invalidate first and then as itself: its nested tables still count
    expect([...schemaTables({ gone: new schema.Invalidate(Task), task: Task })].sort()).toEqual(['Owner', 'Task']);
    const shared = new schema.Union({ task: Task }, 'type');
    expect([...schemaTables([new schema.Invalidate(shared), shared])].sort()).toEqual(['Owner', 'Task']);
  });
});
