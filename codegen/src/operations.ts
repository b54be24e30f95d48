/** The operations of a spec: paths × methods, with parameters, request body and success response resolved. */
import type { JsonSchema } from './schemas.js';
import { deref } from './schemas.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** A parameter after `$ref`s are followed. */
export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly schema: JsonSchema | undefined;
  /** OpenAPI's `style` (default: `form` in the query) and `explode` (default: true for `form`). */
  readonly style: string | undefined;
  readonly explode: boolean | undefined;
}

/** One operation of the spec. */
export interface Operation {
  /** `GET /pets/{petId}` */
  readonly label: string;
  readonly operationId: string | undefined;
  readonly method: Uppercase<(typeof METHODS)[number]>;
  readonly path: string;
  readonly parameters: readonly Parameter[];
  /** The JSON request body schema; `false` when the body is not JSON. */
  readonly body: JsonSchema | undefined | false;
  readonly bodyRequired: boolean;
  /** The JSON schema of the first 2xx response with a JSON body (undefined: none has one). */
  readonly response: JsonSchema | undefined;
  /** How a response that is not JSON is read: `'text'` (text, XML, CSV), `'blob'` (other types); else undefined. */
  readonly content: 'text' | 'blob' | undefined;
  readonly security: readonly string[];
  /** The operation's own `servers[0]`, else its path item's (an empty list inherits); undefined: the document's. */
  readonly server:
    { readonly url: unknown; readonly variables?: JsonSchema; readonly of: 'operation' | 'path item' } | undefined;
  readonly summary: string | undefined;
  readonly raw: JsonSchema;
}

/** Media types read as text (as rx-rest reads them when no `content` is set). */
const TEXT_MEDIA = /^text\/|\bxml\b|\bcsv\b|\bhtml\b|\bjavascript\b|\bcss\b|\burlencoded\b/i;

function jsonContent(doc: JsonSchema, content: JsonSchema | undefined): JsonSchema | undefined | false {
  if (!content || typeof content !== 'object') return undefined;
  const types = Object.keys(content);
  if (types.length === 0) return undefined;
  const json =
    types.find((type) => /^application\/json/i.test(type)) ??
    types.find((type) => /json/i.test(type)) ??
    types.find((type) => type === '*/*');
  if (json === undefined) return false;
  return deref(doc, content[json])?.schema ?? {};
}

/** Every operation of the spec, in path order. */
export function listOperations(doc: JsonSchema): Operation[] {
  const operations: Operation[] = [];
  const globalSecurity: JsonSchema[] = Array.isArray(doc.security) ? doc.security : [];
  for (const [path, rawItem] of Object.entries<JsonSchema>(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    if (!item) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op || typeof op !== 'object') continue;
      const params = new Map<string, Parameter>();
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const param = deref(doc, raw);
        if (!param || typeof param.name !== 'string') continue;
        params.set(`${param.in}:${param.name}`, {
          name: param.name,
          in: param.in,
          required: param.in === 'path' || param.required === true,
          schema: param.schema ?? (param.content ? (Object.values(param.content)[0] as JsonSchema)?.schema : undefined),
          style: typeof param.style === 'string' ? param.style : undefined,
          explode: typeof param.explode === 'boolean' ? param.explode : undefined,
        });
      }
      const requestBody = deref(doc, op.requestBody);
      const body = requestBody ? jsonContent(doc, requestBody.content) : undefined;
      let response: JsonSchema | undefined;
      const all = Object.keys(op.responses ?? {}).sort();
      const success = all.filter((code) => /^2(\d\d|XX)$/i.test(code));
      // without a 2xx, `default` describes every answer, the successful one too
      const codes = success.length ? success : all.filter((code) => code === 'default');
      // the first 2xx with a JSON body (a 200 without one may come with a 202 that has one)
      for (const code of codes) {
        if (code === '204') continue;
        const found = jsonContent(doc, deref(doc, op.responses[code])?.content);
        if (found === false || found === undefined) continue;
        response = found;
        break;
      }
      // without a JSON body: the first 2xx's body, all text or all binary (a mix is left to the Content-Type)
      let content: Operation['content'];
      const first = codes.find((code) => code !== '204');
      const media = response || first === undefined ? [] : Object.keys(deref(doc, op.responses[first])?.content ?? {});
      if (media.length && !media.some((type) => /json/i.test(type) || type === '*/*')) {
        const text = media.filter((type) => TEXT_MEDIA.test(type)).length;
        content = text === media.length ? 'text' : text === 0 ? 'blob' : undefined;
      }
      const security = ((op.security ?? globalSecurity) as JsonSchema[]).flatMap((req) => Object.keys(req ?? {}));
      operations.push({
        label: `${method.toUpperCase()} ${path}`,
        operationId: typeof op.operationId === 'string' ? op.operationId : undefined,
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: [...params.values()],
        body,
        bodyRequired: requestBody?.required === true,
        response,
        content,
        security,
        server:
          Array.isArray(op.servers) && op.servers.length
            ? { ...op.servers[0], of: 'operation' }
            : Array.isArray(item.servers) && item.servers.length
              ? { ...item.servers[0], of: 'path item' }
              : undefined,
        summary:
          typeof op.summary === 'string'
            ? op.summary
            : typeof op.description === 'string'
              ? op.description.split('\n')[0]
              : undefined,
        raw: op,
      });
    }
  }
  return operations;
}
