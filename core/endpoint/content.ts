/**
 * How a 2xx response body is read: by the endpoint's `content` option, or from its `Content-Type`.
 */
import { ParseError, type RequestDescription } from '../errors.js';

/** What `content` accepts: how a response body is read. */
export type ResponseContent = 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';

/** What a body read with `content` resolves: `'blob'` a `Blob`, `'text'` a string, ... */
export type ContentResult<C extends ResponseContent> = C extends 'blob'
  ? Blob
  : C extends 'text'
    ? string
    : C extends 'arrayBuffer'
      ? ArrayBuffer
      : C extends 'stream'
        ? ReadableStream<Uint8Array> | null
        : unknown;

/** Content types read as text when no `content` is set (JSON types are recognized before these). */
const TEXT_LIKE = /\btext\b|\bxml\b|\bhtml\b|\bjavascript\b|\bcss\b|\bcsv\b|\burlencoded\b/i;

/**
 * Reads a 2xx response: as `content` says when it is set; otherwise `null` for 204, 205 or an empty
 * body, JSON for a JSON content type (or none or an unreadable one, when it parses), a string for a text type, a `Blob` for
 * any other (binary) type. Rejects with a `ParseError` naming `request()` for a body that is not JSON
 * where JSON is needed (a schema, or a JSON content type), and for a binary body with a schema.
 */
export async function readResponse(
  response: Response,
  content: ResponseContent | undefined,
  hasSchema: boolean,
  request: () => RequestDescription,
): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return null;
  if (content === 'stream') return response.body;
  if (content === 'blob') return response.blob();
  if (content === 'arrayBuffer') return response.arrayBuffer();
  if (content === 'text') return response.text();
  const contentType = readableContentType(response);
  const saysJson = /json/i.test(contentType);
  const detect = content === undefined && !saysJson;
  if (detect && contentType !== '' && !TEXT_LIKE.test(contentType)) {
    if (!hasSchema) return response.blob();
    const cause = new Error(
      process.env.NODE_ENV !== 'production'
        ? `binary content cannot be normalized: set schema: undefined, or content: 'blob'`
        : 'binary',
    );
    throw new ParseError(request(), response.status, contentType, '', cause);
  }
  const text = await response.text();
  if (text.trim() === '') return null;
  if (detect && contentType !== '' && !hasSchema) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    if (detect && !hasSchema) return text;
    throw new ParseError(request(), response.status, contentType, text, cause);
  }
}

/**
 * The response's `Content-Type`, or `''` when it has none or reading it throws: SvelteKit's server-side
 * `fetch` throws for a header that `filterSerializedResponseHeaders` does not list. The body is then
 * sniffed (JSON when it parses), as for a response without the header.
 */
function readableContentType(response: Response): string {
  try {
    return response.headers.get('content-type') ?? '';
  } catch {
    return '';
  }
}
