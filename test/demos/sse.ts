/**
 * A Server-Sent Events client for Node tests, over `fetch` (Node 20 has no `EventSource`): it reads
 * the stream as the spec says (`data:` lines joined by newlines, a blank line ends a message, lines
 * starting with `:` are comments).
 */
import { Observable } from 'rxjs';
import type { ServerEvent } from '../../demos/live.js';

/** One open stream: what it received so far. */
export interface Stream {
  readonly response: Response;
  /** The data of each message, in order. */
  readonly messages: string[];
  /** The text of each comment line (without the `:`), in order. */
  readonly comments: string[];
  /** Settles when the server ended the stream (or `close()` did). */
  readonly ended: Promise<void>;
  /** Closes the stream from this side. */
  close(): void;
}

/** Reads `body` line by line, calling `onLine` for each (without its line break). */
async function readLines(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop()!;
    lines.forEach(onLine);
  }
}

/** Parses SSE lines: calls `onMessage` with each message's data and `onComment` with each comment. */
function sseParser(onMessage: (data: string) => void, onComment: (text: string) => void): (line: string) => void {
  let data: string[] = [];
  return (line) => {
    if (line === '') {
      if (data.length) onMessage(data.join('\n'));
      data = [];
    } else if (line.startsWith(':')) onComment(line.slice(1).trim());
    else if (line.startsWith('data')) data.push(line.slice(5).replace(/^ /, ''));
  };
}

/** Opens `url` as an event stream (resolves once the response headers arrived). */
export async function openStream(url: string): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
  const messages: string[] = [];
  const comments: string[] = [];
  const ended = readLines(
    response.body!,
    sseParser(
      (data) => messages.push(data),
      (text) => comments.push(text),
    ),
  ).catch(() => undefined); // closed by us
  return { response, messages, comments, ended, close: () => abort.abort() };
}

/**
 * The stream at `url` as `serverEvents` (demos/live.ts) gives it in a browser: `open` once the response
 * arrived, then each message; it errors when the stream fails or ends, and unsubscribing closes it.
 */
export function fetchEvents(url: string): Observable<ServerEvent> {
  return new Observable<ServerEvent>((subscriber) => {
    const abort = new AbortController();
    fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } })
      .then(async (response) => {
        if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
        subscriber.next({ type: 'open' });
        await readLines(
          response.body,
          sseParser(
            (data) => subscriber.next({ type: 'message', data }),
            () => {},
          ),
        );
        throw new Error(`${url} ended`);
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) subscriber.error(error);
      });
    return () => abort.abort();
  });
}
