/**
 * `schemaTables` counts the tables a schema writes (Requests#readBefore: a GET sent while a mutation that can write
 * its tables is in flight answers as of before that mutation). A schema class's other members are no schemas: a
 * Collection subclass (API.md: subclassing Collection is how `nonFilterArgumentKeys` is overridden) that keeps an
 * entity class for its own logic does not write that class's table. Counted, a GET of the collection sent during a
 * mutation of that other table answered as of before it, and a `controller.set` made before the GET was sent won
 * over the server's newer answer.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Controller, Entity, RestEndpoint, schema } from '../../../core/index.js';
import { schemaTables } from '../../../core/schema/index.js';

class Owner extends Entity {
  id = 0;
  name = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'TablesOwner';
}
class Note extends Entity {
  id = 0;
  text = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'TablesNote';
}
/** A collection that keeps the Owner class for its own use (its filter), writing Notes only. */
class OwnedNotes extends schema.Collection<[typeof Note]> {
  readonly ownerClass = Owner;
  override nonFilterArgumentKeys(key: string) {
    return key === 'page';
  }
}

const API = 'http://tables-members.test';
const held: ((body: { id: number; name: string }) => void)[] = [];
const server = setupServer(
  http.get(`${API}/notes`, () => HttpResponse.json([{ id: 1, text: 'server, after the set' }])),
  http.patch(
    `${API}/owners/:id`,
    () => new Promise((resolve) => held.push((body) => resolve(HttpResponse.json(body)))),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const notes = new RestEndpoint({ urlPrefix: API, path: '/notes', schema: new OwnedNotes([Note]) });
const renameOwner = new RestEndpoint({ urlPrefix: API, path: '/owners/:id', method: 'PATCH', schema: Owner });

describe("a schema class's members that are no schemas", () => {
  it('are not counted as tables it writes', () => {
    expect([...schemaTables(notes.schema)]).toEqual(['TablesNote']);
    expect([...schemaTables(notes.schema.push)]).toEqual(['TablesNote']);
  });

  it("a GET of the collection sent during another table's mutation: its answer wins over a set made before it was sent", async () => {
    const c = new Controller({ retry: 0, environment: {} });
    const rename = c.fetch(renameOwner, { id: 1 }, { name: 'renamed' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    c.set(Note, { id: 1, text: 'set before the GET' });
    await new Promise((resolve) => setTimeout(resolve, 2));
    const list = await c.fetch(notes);
    expect((list as Note[]).map((note) => note.text)).toEqual(['server, after the set']);
    expect(c.get(Note, { id: 1 })?.text).toBe('server, after the set');
    held.shift()!({ id: 1, name: 'renamed' });
    await rename;
    c.dispose();
  });
});
