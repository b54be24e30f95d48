/**
 * Entity table names across builds: a snapshot says which of its tables are named after a class
 * without `static key`; a build that restores it and names such a class otherwise (a minifier) reports
 * it with console.error, naming the class, the table and the fix. The last test builds a tiny app with
 * Vite's minifier and runs it on a server-made snapshot.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Controller, Entity, RestEndpoint, restoreSnapshot, takeSnapshot } from '../../core/index.js';

const offline = { fetchResponse: () => Promise.reject(new Error('no request may leave these tests')) };

afterEach(() => vi.restoreAllMocks());

describe('tables named after classes', () => {
  class Note extends Entity {
    id = 0;
    text = '';
    pk() {
      return `${this.id}`;
    }
  }
  const getNote = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/notes/:id', schema: Note, ...offline });

  it('are listed with their fields in a whole snapshot', () => {
    const server = new Controller({ environment: {} });
    server.setResponse(getNote, { id: 1 }, { id: 1, text: 'a' });
    const snapshot = JSON.parse(JSON.stringify(takeSnapshot(server))) as { unkeyed?: unknown };
    expect(snapshot.unkeyed).toEqual({ Note: 'id,text' });
  });

  it('are not listed for a class with static key', () => {
    class Keyed extends Entity {
      id = 0;
      label = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Keyed';
    }
    const getKeyed = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/keyed/:id', schema: Keyed, ...offline });
    const server = new Controller({ environment: {} });
    server.setResponse(getKeyed, { id: 1 }, { id: 1, label: 'a' });
    expect(takeSnapshot(server).unkeyed).toBeUndefined();
  });

  it('report a class with the same fields and another name in the restoring build, once, naming the fix', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    class Memo extends Entity {
      id = 0;
      body = '';
      pk() {
        return `${this.id}`;
      }
    }
    const server = new Controller({ environment: {} });
    server.setResponse(
      new RestEndpoint({ urlPrefix: 'http://api.test', path: '/memos/:id', schema: Memo }),
      { id: 1 },
      {
        id: 1,
        body: 'from the server',
      },
    );
    const snapshot = JSON.parse(JSON.stringify(takeSnapshot(server))) as unknown;
    // the browser build: the same class, its name shortened by a minifier
    const n = class n extends Entity {
      id = 0;
      body = '';
      pk() {
        return `${this.id}`;
      }
    };
    const getMemo = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/memos/:id', schema: n, ...offline });
    const browser = new Controller({ environment: {}, initialState: snapshot });
    expect(browser.getResponse(getMemo, { id: 1 }).data).toBeUndefined(); // the server's records are not found
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(
      /Entity class "n" \(no static key\) has the fields \(body,id\) of table "Memo" of the restored state: a minifier renamed it, so that state is ignored and fetched again. Add `static key = 'Memo'`/,
    );
    restoreSnapshot(new Controller({ environment: {} }), snapshot);
    browser.getResponse(getMemo, { id: 1 });
    expect(errors).toHaveBeenCalledTimes(1);
  });

  it('stay quiet when both builds give the class one name', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = new Controller({ environment: {} });
    server.setResponse(getNote, { id: 2 }, { id: 2, text: 'b' });
    const browser = new Controller({ environment: {}, initialState: JSON.parse(JSON.stringify(takeSnapshot(server))) });
    expect(browser.getResponse(getNote, { id: 2 }).data?.text).toBe('b');
    expect(errors).not.toHaveBeenCalled();
  });
});

describe('a real minified build', () => {
  it('names an unkeyed class otherwise than the server, and reports it on restore; a keyed class restores', async () => {
    const { build } = await import('vite');
    const root = fileURLToPath(new URL('../../node_modules/.cache/rx-rest-minified/', import.meta.url));
    mkdirSync(root, { recursive: true });
    const core = fileURLToPath(new URL('../../core/index.ts', import.meta.url));
    // the same two entities the "server" below defines, as a browser bundle would hold them
    writeFileSync(
      `${root}entry.ts`,
      `import { Controller, Entity, RestEndpoint } from ${JSON.stringify(core)};
class Todo extends Entity { id = 0; title = ''; done = false; pk() { return \`\${this.id}\`; } }
class Task extends Entity { id = 0; title = ''; due = ''; pk() { return \`\${this.id}\`; } static key = 'Task'; }
const offline = { fetchResponse: () => Promise.reject(new Error('offline')) };
const getTodo = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/todos/:id', schema: Todo, ...offline });
const getTask = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/tasks/:id', schema: Task, ...offline });
export function hydrate(snapshot) {
  const errors = [];
  const original = console.error;
  console.error = (message) => errors.push(String(message));
  try {
    const controller = new Controller({ environment: {}, initialState: snapshot });
    return {
      todoTable: Todo.key,
      todo: controller.getResponse(getTodo, { id: 1 }).data?.title,
      task: controller.getResponse(getTask, { id: 1 }).data?.title,
      errors,
    };
  } finally {
    console.error = original;
  }
}
`,
    );
    await build({
      configFile: false,
      logLevel: 'silent',
      root,
      build: {
        outDir: `${root}dist`,
        emptyOutDir: true,
        minify: true,
        lib: { entry: `${root}entry.ts`, formats: ['es'], fileName: 'entry' },
      },
    });
    const bundle = (await import(pathToFileURL(`${root}dist/entry.js`).href)) as {
      hydrate(snapshot: unknown): { todoTable: string; todo?: string; task?: string; errors: string[] };
    };

    class Todo extends Entity {
      id = 0;
      title = '';
      done = false;
      pk() {
        return `${this.id}`;
      }
    }
    class Task extends Entity {
      id = 0;
      title = '';
      due = '';
      pk() {
        return `${this.id}`;
      }
      static override key = 'Task';
    }
    const server = new Controller({ environment: {} });
    const getTodo = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/todos/:id', schema: Todo, ...offline });
    const getTask = new RestEndpoint({ urlPrefix: 'http://api.test', path: '/tasks/:id', schema: Task, ...offline });
    server.setResponse(getTodo, { id: 1 }, { id: 1, title: 'rendered on the server', done: false });
    server.setResponse(getTask, { id: 1 }, { id: 1, title: 'a keyed task', due: '' });
    const result = bundle.hydrate(JSON.parse(JSON.stringify(takeSnapshot(server))));

    expect(result.todoTable).not.toBe('Todo'); // the minifier renamed the class
    expect(result.todo).toBeUndefined(); // so the server's todo is not found (it would be fetched again)...
    expect(result.errors).toHaveLength(1); // ...and that is reported, not silent
    expect(result.errors[0]).toContain(`Entity class "${result.todoTable}" (no static key)`);
    expect(result.errors[0]).toContain(`of table "Todo" of the restored state`);
    expect(result.errors[0]).toContain("static key = 'Todo'");
    expect(result.task).toBe('a keyed task'); // a class with static key restores in any build
  }, 60_000);
});
