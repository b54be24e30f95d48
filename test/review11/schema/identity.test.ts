/**
 * Outside review of the identity guarantees (API.md "QueryState": the same object while nothing it contains
 * changed; siblings keep identity; an entity invalidated in a list is dropped without a refetch), recursive and
 * cyclic entities, and one entity reached by two paths.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Entity, NormalizeError, RestEndpoint, schema } from '../../../core/index.js';
import { useControllers } from '../../fixtures/controllers.js';
import { record, settled } from '../../fixtures/streams.js';

const API = 'http://r11i.test';
const { make } = useControllers({ retry: 0, environment: {} });

const requests: string[] = [];
const server = setupServer(
  http.get(`${API}/people`, ({ request }) => {
    requests.push(`GET ${new URL(request.url).pathname}`);
    return HttpResponse.json([person(1), person(2), person(3)]);
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

class Person extends Entity {
  id = 0;
  name = '';
  boss: Person | undefined = undefined;
  friends: Person[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'R11Person';
  static override schema: Record<string, unknown> = {};
}
Person.schema = { boss: Person, friends: [Person] };

class Team extends Entity {
  id = 0;
  lead = Person.fromJS();
  members: Person[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'R11Team';
  static override schema = { lead: Person, members: [Person] };
}

const person = (id: number, extra: Record<string, unknown> = {}) => ({ id, name: `p${id}`, ...extra });
const people = new RestEndpoint({ urlPrefix: API, path: '/people', schema: [Person] });
const getTeam = new RestEndpoint({ urlPrefix: API, path: '/teams/:id', schema: Team });
const delPerson = new RestEndpoint({
  urlPrefix: API,
  path: '/people/:id',
  method: 'DELETE',
  schema: new schema.Invalidate(Person),
});

describe('identity of read results', () => {
  it('the same list object while nothing in it changed, also across unrelated writes', () => {
    const c = make();
    c.setResponse(people, {}, [person(1), person(2)]);
    const first = c.getResponse(people, {}).data;
    expect(c.getResponse(people, {}).data).toBe(first);
    c.set(Team, { id: 9, lead: person(5) });
    expect(c.getResponse(people, {}).data).toBe(first);
    // a response equal to what is stored changes nothing
    c.setResponse(people, {}, [person(1), person(2)]);
    expect(c.getResponse(people, {}).data).toBe(first);
  });

  it('siblings keep their objects when one entity of a list changes; the changed one is new', () => {
    const c = make();
    c.setResponse(people, {}, [person(1), person(2), person(3)]);
    const s = record(c.observe(people, {}));
    const before = s.last().data!;
    c.set(Person, { id: 2, name: 'renamed' });
    const after = s.last().data!;
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
    expect(after[1]!.name).toBe('renamed');
    s.unsubscribe();
  });

  it('an entity nested two levels deep changing renews its holders only', () => {
    const c = make();
    c.setResponse(
      getTeam,
      { id: 1 },
      { id: 1, lead: person(1, { boss: person(10) }), members: [person(2), person(3)] },
    );
    const before = c.getResponse(getTeam, { id: 1 }).data!;
    c.set(Person, { id: 10, name: 'big boss' });
    const after = c.getResponse(getTeam, { id: 1 }).data!;
    expect(after).not.toBe(before);
    expect(after.lead).not.toBe(before.lead);
    expect(after.lead.boss?.name).toBe('big boss');
    expect(after.members).toBe(before.members);
  });

  it('one entity reached by two paths is one instance, and one update reaches both', () => {
    const c = make();
    c.setResponse(getTeam, { id: 1 }, { id: 1, lead: person(1), members: [person(1), person(2)] });
    const team = c.getResponse(getTeam, { id: 1 }).data!;
    expect(team.lead).toBe(team.members[0]);
    c.setResponse(people, {}, [person(1, { name: 'lead renamed' })]);
    const again = c.getResponse(getTeam, { id: 1 }).data!;
    expect(again.lead.name).toBe('lead renamed');
    expect(again.members[0]!.name).toBe('lead renamed');
    expect(again.lead).toBe(again.members[0]);
    expect(c.getResponse(people, {}).data![0]).toBe(again.lead);
  });
});

describe('Invalidate inside a list', () => {
  it('drops the entity from the list without a refetch; the other items keep their objects', async () => {
    const c = make();
    await c.fetch(people, {});
    expect(requests).toEqual(['GET /people']);
    const s = record(c.observe(people, {}));
    const before = s.last().data!;
    c.setResponse(delPerson, { id: 2 }, { id: 2 });
    const after = s.last().data!;
    expect(after.map((p) => p.id)).toEqual([1, 3]);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[2]);
    expect(s.last().loading).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(requests).toEqual(['GET /people']);
    s.unsubscribe();
  });

  it('a bare pk (string or number) invalidates too; a required member invalidated makes the result unusable', async () => {
    const c = make();
    c.setResponse(getTeam, { id: 1 }, { id: 1, lead: person(1), members: [person(2)] });
    c.setResponse(delPerson, { id: 2 }, '2' as never);
    expect(c.getResponse(getTeam, { id: 1 }).data?.members).toEqual([]);
    c.setResponse(delPerson, { id: 1 }, 1 as never);
    expect(c.getResponse(getTeam, { id: 1 }).data).toBeUndefined();
    expect(c.getResponse(getTeam, { id: 1 }).invalid).toBe(true);
  });

  it('a list of Invalidate invalidates each, from the ids of the body, even with an empty answer', async () => {
    server.use(http.delete(`${API}/people/batch`, () => new HttpResponse(null, { status: 204 })));
    const c = make();
    c.setResponse(people, {}, [person(1), person(2), person(3)]);
    const batch = new RestEndpoint({
      urlPrefix: API,
      path: '/people/batch',
      method: 'DELETE',
      body: [] as number[],
      schema: [new schema.Invalidate(Person)],
      process: (_value: unknown, _args: unknown, ids: number[]) => ids.map((id) => ({ id })),
    });
    await c.fetch(batch, {}, [1, 3]);
    expect(c.getResponse(people, {}).data!.map((p) => p.id)).toEqual([2]);
  });
});

describe('recursive and cyclic data', () => {
  it('a self-referencing graph in the store (a friend of a friend back to oneself) reads without looping', () => {
    const c = make();
    c.setResponse(people, {}, [person(1, { friends: [2] }), person(2, { friends: [1] })]);
    const [one, two] = c.getResponse(people, {}).data!;
    expect(one!.friends[0]).toBe(two);
    expect(two!.friends[0]).toBe(one);
    expect(one!.friends[0]!.friends[0]).toBe(one);
  });

  it('a self-referencing record (its own boss) reads as itself', () => {
    const c = make();
    c.setResponse(people, {}, [person(1, { boss: 1 })]);
    const [one] = c.getResponse(people, {}).data!;
    expect(one!.boss).toBe(one);
  });

  it('cyclic input (an object containing itself) is a NormalizeError, and the store is unchanged', () => {
    const c = make();
    c.setResponse(people, {}, [person(1)]);
    const before = c.getState();
    const a: Record<string, unknown> = person(2);
    a.boss = a;
    expect(() => c.setResponse(people, {}, [a] as never)).toThrow(NormalizeError);
    const b: Record<string, unknown> = person(3);
    const d: Record<string, unknown> = person(4, { friends: [b] });
    b.friends = [d];
    expect(() => c.setResponse(people, {}, [b] as never)).toThrow(NormalizeError);
    expect(c.getState().entities).toBe(before.entities);
  });

  it('the same object reached twice in one response (not a cycle) is fine', () => {
    const c = make();
    const shared = person(7);
    c.setResponse(getTeam, { id: 2 }, { id: 2, lead: shared, members: [shared, person(8, { boss: shared })] });
    const team = c.getResponse(getTeam, { id: 2 }).data!;
    expect(team.lead).toBe(team.members[0]);
    expect(team.members[1]!.boss).toBe(team.lead);
  });

  it('a long chain reads to the depth limit and the rest as pks, without throwing', () => {
    const c = make();
    // the first item's boss is the second, and so on: reading the first walks the whole chain
    const chain = Array.from({ length: 200 }, (_, i) => person(i + 1, i < 199 ? { boss: i + 2 } : {}));
    c.setResponse(people, {}, chain);
    const list = c.getResponse(people, {}).data!;
    let p: unknown = list[0];
    let depth = 0;
    while (p instanceof Person && p.boss !== undefined) {
      p = p.boss;
      depth++;
    }
    expect(depth).toBeGreaterThanOrEqual(63);
    expect(depth).toBeLessThan(199);
  });
});

describe('observers', () => {
  it('an unrelated entity change does not emit', async () => {
    const c = make();
    c.setResponse(people, {}, [person(1)]);
    const s = record(c.observe(people, {}));
    const n = s.values.length;
    c.set(Team, { id: 3, lead: person(50), members: [] });
    await settled(() => expect(s.values.length).toBe(n));
    s.unsubscribe();
  });
});
