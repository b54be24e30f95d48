/**
 * The REST server's live stream: `GET /events`, Server-Sent Events (`text/event-stream`) telling every
 * change of the todos the server holds, whoever made it (either app, `curl`, a nested
 * `POST /users/1/todos`, the todos json-server removes with their user).
 *
 * How it sees changes: after every request that may write (not GET, HEAD or OPTIONS) it compares the
 * todos with the copy it took after the previous one, and sends one message per todo created, changed
 * or deleted since. So it needs no knowledge of json-server's routes, and two requests in flight at
 * once never send a change twice.
 *
 * Each message is the default `message` event whose data is JSON:
 *   data: {"type":"created","todo":{"id":25,"userId":1,"title":"…","completed":false,"createdAt":"…"}}
 *   data: {"type":"updated","todo":{ …the whole todo as stored… }}
 *   data: {"type":"deleted","id":25}
 * A comment line (`: keep-alive`) every `keepAliveMs` keeps proxies from dropping a quiet stream.
 */

/** What the stream sends about one todo. */
function message(change) {
  return `data: ${JSON.stringify(change)}\n\n`;
}

/** `text` as one message: a `data:` line per line of it (a message's data cannot hold a bare newline). */
function rawMessage(text) {
  return `${text
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('')}\n`;
}

/** The todos as `id -> JSON text`, to compare. */
function snapshot(todos) {
  return new Map((Array.isArray(todos) ? todos : []).map((todo) => [todo.id, JSON.stringify(todo)]));
}

/**
 * The change feed over `readTodos()` (the todos as the server holds them now). `stream` is the
 * express handler of `GET /events`; call `publish()` after anything that may have written.
 */
export function todoEvents({ readTodos, keepAliveMs = 15_000 }) {
  /** The open streams: each response and its keep-alive timer. */
  const clients = new Map();
  let last = snapshot(readTodos());
  let connections = 0;

  const sendAll = (text) => {
    for (const res of clients.keys()) res.write(text);
  };
  const forget = (res) => {
    clearInterval(clients.get(res));
    clients.delete(res);
  };

  return {
    /** `GET /events`: holds the response open and sends every change until the client goes. */
    stream(req, res) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        // the connection is the stream's alone: closed with it, never reused for another request
        Connection: 'close',
        'X-Accel-Buffering': 'no', // nginx and others: do not buffer the stream
        'Access-Control-Allow-Origin': '*',
      });
      res.write(': connected\n\n'); // headers and a first byte through any proxy at once
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
      keepAlive.unref();
      clients.set(res, keepAlive);
      connections++;
      req.on('close', () => forget(res));
      res.on('error', () => forget(res));
    },
    /** Sends a message for every todo that changed since the last call. */
    publish() {
      const now = snapshot(readTodos());
      let text = '';
      for (const [id, json] of now) {
        const before = last.get(id);
        if (before === json) continue;
        text += message({ type: before === undefined ? 'created' : 'updated', todo: JSON.parse(json) });
      }
      for (const id of last.keys()) if (!now.has(id)) text += message({ type: 'deleted', id });
      last = now;
      if (text) sendAll(text);
    },
    /** Sends `text` as the data of one message, unchecked (a malformed message, for tests). */
    send(text) {
      sendAll(rawMessage(text));
    },
    /** Ends every open stream (clients reconnect); the server goes on. */
    drop() {
      for (const res of [...clients.keys()]) {
        forget(res);
        res.end();
      }
    },
    /** How many streams are open now. */
    get clients() {
      return clients.size;
    },
    /** How many streams were opened since the server started. */
    get connections() {
      return connections;
    },
  };
}
