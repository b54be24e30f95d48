/**
 * Long lists (at least `LONG_READ` rows of one table) and the lists around them, written record by record in
 * seeded random sequences: after every write each live stream shows what a fresh controller reads from the same
 * state, emits exactly when its data changed, and keeps the instances of the rows that did not change.
 */
import { describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint, keepRows, schema, type QueryState } from '../../core/index.js';
import { LONG_READ } from '../../core/schema/memo/MemoCache.js';
import { seeded as random } from '../fixtures/random.js';

class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'LUser';
}

class Row extends Entity {
  id = 0;
  title = '';
  done = false;
  pk() {
    return `${this.id}`;
  }
  static override key = 'LRow';
}

class Dated extends Entity {
  id = 0;
  title = '';
  at = new Date(0);
  pk() {
    return `${this.id}`;
  }
  static override key = 'LDated';
  static override schema = { at: Date };
}

class Post extends Entity {
  id = 0;
  title = '';
  author = User.fromJS();
  pk() {
    return `${this.id}`;
  }
  static override key = 'LPost';
  static override schema = { author: User };
}

const API = 'http://long.test';
const rows = new RestEndpoint({ urlPrefix: API, path: '/rows', schema: new schema.Collection([Row]) });
const plainRows = new RestEndpoint({ urlPrefix: API, path: '/plain', schema: [Row] });
const dated = new RestEndpoint({ urlPrefix: API, path: '/dated', schema: [Dated] });
const posts = new RestEndpoint({ urlPrefix: API, path: '/posts', schema: [Post] });
const bothLong = new RestEndpoint({ urlPrefix: API, path: '/both-long', schema: { rows: [Row], posts: [Post] } });
const both = new RestEndpoint({
  urlPrefix: API,
  path: '/both',
  schema: { rows: [Row], posts: [Post] },
});

const json = (value: unknown) => JSON.stringify(value);
const pkOf = (value: unknown) => (value instanceof Entity ? `${value.constructor.name}:${value.pk()}` : undefined);

interface Watched {
  readonly name: string;
  readonly endpoint: unknown;
  readonly args: readonly unknown[];
  readonly states: QueryState<unknown>[];
}

/** Every row (entity) in `data`, by class and pk, with its JSON. */
function entitiesIn(data: unknown, out = new Map<string, { value: unknown; json: string }[]>()) {
  if (Array.isArray(data)) for (const item of data) entitiesIn(item, out);
  else if (data instanceof Entity) {
    const key = pkOf(data)!;
    const list = out.get(key) ?? [];
    list.push({ value: data, json: json(data) });
    out.set(key, list);
  } else if (typeof data === 'object' && data !== null) for (const value of Object.values(data)) entitiesIn(value, out);
  return out;
}

function harness(seed: number) {
  const rnd = random(seed);
  const controller = new Controller({ retry: 0, environment: {}, now: () => 1_000 });
  const watched: Watched[] = [];
  const subscriptions: { unsubscribe(): void }[] = [];
  /** keepRows consumers: one of every emission, one that skips most, one of a sorted copy. */
  const consumers: { rows: (data: unknown) => unknown; out: unknown; data: unknown; name: string }[] = [];
  const consumer = (name: string) => {
    const c = {
      rows: keepRows<{ entity: Entity }>({
        create: (entity) => ({ entity }),
        update: (row, entity) => {
          expect(pkOf(row.entity), `${name}: a row is updated with its own entity`).toBe(pkOf(entity));
          row.entity = entity;
        },
      }) as (data: unknown) => unknown,
      out: undefined as unknown,
      data: undefined as unknown,
      name,
    };
    consumers.push(c);
    return c;
  };
  const watch = (name: string, endpoint: unknown, ...args: unknown[]) => {
    const states: QueryState<unknown>[] = [];
    const every = consumer(`${name} (every emission)`);
    const some = consumer(`${name} (some emissions)`);
    const sorted = consumer(`${name} (a sorted copy)`);
    subscriptions.push(
      controller.observe(endpoint as never, ...(args as [])).subscribe((state) => {
        states.push(state);
        const data = state.data;
        every.out = every.rows((every.data = data));
        if (rnd.next() < 0.3) some.out = some.rows((some.data = data));
        if (Array.isArray(data)) {
          const copy = [...(data as Entity[])].sort((a, b) => String(b.pk()).localeCompare(String(a.pk())));
          sorted.out = sorted.rows((sorted.data = copy));
        }
      }),
    );
    watched.push({ name, endpoint, args, states });
  };
  /** Where the rows a consumer holds do not show the data it was given (each row the entity at its place), if anywhere. */
  const rowsDiffer = (out: unknown, data: unknown, at = ''): string | undefined => {
    if (Array.isArray(data)) {
      if (!Array.isArray(out) || out.length !== data.length) return `${at} (length)`;
      for (let i = 0; i < data.length; i++) {
        const differs = rowsDiffer(out[i], data[i], `${at}[${i}]`);
        if (differs !== undefined) return differs;
      }
      return undefined;
    }
    if (data instanceof Entity) return (out as { entity: unknown }).entity === data ? undefined : at;
    if (typeof data === 'object' && data !== null) {
      for (const [key, value] of Object.entries(data)) {
        const differs = rowsDiffer((out as Record<string, unknown>)[key], value, `${at}.${key}`);
        if (differs !== undefined) return differs;
      }
      return undefined;
    }
    return out === data ? undefined : at;
  };
  /** Checks every stream against a fresh controller, its emissions and identities since `before`. */
  const check = (step: string, before: Map<Watched, { count: number; data: unknown }>, responded: boolean) => {
    const fresh = new Controller({ retry: 0, environment: {}, now: () => 1_000, initialState: controller.getState() });
    for (const w of watched) {
      const expected = (fresh.getResponse as (endpoint: unknown, ...args: unknown[]) => { data: unknown })(
        w.endpoint,
        ...w.args,
      ).data;
      const last = w.states.at(-1)!;
      expect(json(last.data), `${step}: ${w.name} shows what a fresh controller reads`).toBe(json(expected));
      const was = before.get(w)!;
      const emitted = w.states.length - was.count;
      const changed = json(last.data) !== json(was.data);
      // (a response that lists the same rows again may give a new array of them: not a change of this engine's)
      if (!(responded && emitted === 1 && !changed)) {
        expect(emitted, `${step}: ${w.name} emits once exactly when its data changed`).toBe(changed ? 1 : 0);
        if (!changed) expect(last.data, `${step}: ${w.name} keeps its data`).toBe(was.data);
      }
      // rows whose JSON did not change are the same instances; changed ones are new
      const old = entitiesIn(was.data);
      for (const [key, now] of entitiesIn(last.data)) {
        const then = old.get(key);
        if (then === undefined || then.length !== 1 || now.length !== 1) continue;
        if (then[0]!.json === now[0]!.json)
          expect(now[0]!.value, `${step}: ${w.name} keeps ${key}`).toBe(then[0]!.value);
        else expect(now[0]!.value, `${step}: ${w.name} makes ${key} anew`).not.toBe(then[0]!.value);
      }
    }
    for (const c of consumers) expect(rowsDiffer(c.out, c.data), `${step}: ${c.name}'s rows`).toBeUndefined();
    fresh.dispose();
  };
  const run = (step: string, write: () => void, responded = false) => {
    const before = new Map(watched.map((w) => [w, { count: w.states.length, data: w.states.at(-1)?.data }]));
    write();
    check(step, before, responded);
  };
  const dispose = () => {
    for (const s of subscriptions) s.unsubscribe();
    controller.dispose();
  };
  return { rnd, controller, watch, watched, run, dispose };
}

const row = (id: number, title = `row ${id}`, done = false) => ({ id, title, done });
const post = (id: number, author: string, title = `post ${id}`) => ({
  id,
  title,
  author: { id: author, name: `user ${author}` },
});

describe('long lists written record by record', () => {
  for (const length of [LONG_READ - 1, LONG_READ, LONG_READ + 1]) {
    for (const seed of [1, 2]) {
      it(`a list of ${length} rows and its neighbours, seed ${seed}`, { timeout: 60_000 }, () => {
        const h = harness(seed * 1000 + length);
        const { rnd, controller } = h;
        let ids = Array.from({ length }, (_, i) => i + 1);
        const users = ['a', 'b', 'c', 'd'];
        let postIds = Array.from({ length }, (_, i) => i + 1);
        controller.setResponse(
          rows,
          {},
          ids.map((id) => row(id)),
        );
        controller.setResponse(
          plainRows,
          {},
          ids.slice(0, 40).map((id) => row(id)),
        );
        controller.setResponse(
          dated,
          {},
          ids.map((id) => ({ id, title: `d${id}`, at: '2026-01-01T00:00:00Z' })),
        );
        controller.setResponse(
          posts,
          {},
          postIds.map((id) => post(id, users[id % 4]!)),
        );
        controller.setResponse(
          both,
          {},
          { rows: ids.slice(0, 10).map((id) => row(id)), posts: postIds.slice(0, 5).map((id) => post(id, 'a')) },
        );
        // both tables long in one result, each post by one of two users
        controller.setResponse(
          bothLong,
          {},
          {
            rows: ids.map((id) => row(id)),
            posts: postIds.map((id) => post(id + 500, users[id % 2]!)),
          },
        );
        h.watch('rows', rows);
        h.watch('plainRows', plainRows);
        h.watch('dated', dated);
        h.watch('posts', posts);
        h.watch('both', both);
        h.watch('bothLong', bothLong);
        let nextId = 1000;
        for (let step = 0; step < 80; step++) {
          const op = rnd.int(11);
          const id = rnd.int(length + 10) + 1;
          const name = `step ${step} op ${op} id ${id}`;
          h.run(
            name,
            () => {
              switch (op) {
                case 0:
                case 1:
                  controller.set(Row, { id }, { id, title: `t${step}` });
                  break;
                case 2: {
                  // the same values again
                  const stored = controller.getState().entities['LRow']?.[String(id)];
                  controller.set(Row, { id }, typeof stored === 'object' && stored !== null ? { ...stored } : row(id));
                  break;
                }
                case 3:
                  controller.set(User, { id: rnd.pick(users) }, { id: rnd.pick(users), name: `n${step}` });
                  break;
                case 4:
                  controller.set(Post, { id }, { id, author: { id: rnd.pick(users), name: 'x' } });
                  break;
                case 5: {
                  // the list grows or shrinks around LONG_READ
                  if (rnd.next() < 0.5 && ids.length > 1) ids = ids.filter((_, i) => i !== rnd.int(ids.length));
                  else ids = [...ids, nextId++];
                  controller.setResponse(
                    rows,
                    {},
                    ids.map((pk) => row(pk, `row ${pk}`)),
                  );
                  break;
                }
                case 6: {
                  if (rnd.next() < 0.5 && postIds.length > 1) postIds = postIds.slice(1);
                  else postIds = [nextId++, ...postIds];
                  controller.setResponse(
                    posts,
                    {},
                    postIds.map((pk) => post(pk, users[pk % 4]!)),
                  );
                  break;
                }
                case 7:
                  controller.set(Dated, { id }, { id, at: `2026-02-0${(step % 9) + 1}T00:00:00Z` });
                  break;
                case 8:
                  controller.set([Row], [row(id, `batch ${step}`), row(id + 1, `batch ${step}`)]);
                  break;
                case 9:
                  controller.set(new schema.Invalidate(Row), { id }, { id });
                  break;
                default:
                  controller.set(Row, { id: nextId }, row(nextId++));
              }
            },
            op === 5 || op === 6,
          );
        }
        h.dispose();
      });
    }
  }
});
