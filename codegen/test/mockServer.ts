/**
 * A spec-driven mock server for the generated code: openapi-backend routes each request to its
 * operation, and in-memory CRUD handlers (driven by the generator's model: which operation lists, reads,
 * creates, updates or deletes which resource) keep the records. Records are seeded from the spec's
 * examples/schemas (openapi-backend's mocks); other operations answer their mocked response.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAPIBackend } from 'openapi-backend';
import type { Model } from '../src/model.js';

/** What an operation does to its table. */
export type Role = 'getList' | 'get' | 'push' | 'update' | 'partialUpdate' | 'delete';

/** A running mock server. */
export interface MockServer {
  readonly url: string;
  /** Records by resource name → pk → record. */
  readonly records: Map<string, Map<string, Record<string, unknown>>>;
  /** Every request received: method, path and search (as sent). */
  readonly requests: string[];
  /** The query of each request routed to an operation, as openapi-backend parsed it (by the parameters' styles). */
  readonly queries: Record<string, unknown>[];
  /**
   * The path parameters of each request routed to an operation, read from the path as sent by their `style` and
   * `explode` (OpenAPI 3, "Style Values"): an array as its items, an object as its properties, each decoded.
   */
  readonly pathParams: Record<string, unknown>[];
  close(): Promise<void>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Operations outside the resources that act on one table (Petstore's `POST /pet`, `PUT /pet`, ...). */
export interface ExtraTable {
  readonly name: string;
  readonly pk: string;
  readonly getLabel: string;
  readonly ops: Readonly<Record<string, Role>>;
}

/** The JSON media type of a response's content, found as the generator finds it (`application/json`, `+json`, the wildcard). */
function jsonMedia(content: Record<string, unknown> | undefined): string | undefined {
  const types = Object.keys(content ?? {});
  return (
    types.find((type) => /^application\/json/i.test(type)) ??
    types.find((type) => /json/i.test(type)) ??
    types.find((type) => type === '*/*')
  );
}

/** Starts the mock server for a bundled spec and its model, on 127.0.0.1 and a free port. */
export async function startMockServer(
  doc: Record<string, any>,
  model: Model,
  basePath: string,
  extra: readonly ExtraTable[] = [],
): Promise<MockServer> {
  const definition = structuredClone(doc);
  // every operation needs an id for openapi-backend's mocks
  for (const [path, item] of Object.entries<any>(definition.paths ?? {})) {
    for (const method of METHODS)
      if (item?.[method] && !item[method].operationId) item[method].operationId = `${method} ${path}`;
  }
  const roles = new Map<
    string,
    { resource: string; role: Role; pk: string; field: string | undefined; getLabel: string }
  >();
  for (const table of extra)
    for (const [label, role] of Object.entries(table.ops))
      roles.set(label, { resource: table.name, role, pk: table.pk, field: undefined, getLabel: table.getLabel });
  for (const resource of model.resources) {
    const entity = model.entities.find((e) => e.name === resource.entity)!;
    const field = resource.listSchema
      ? /^\{\s*'?([^:']+)'?: new schema\.Collection/.exec(resource.listSchema)?.[1]
      : undefined;
    for (const [role, member] of Object.entries(resource.members)) {
      roles.set(member!.operation, {
        resource: resource.name,
        role: role as Role,
        pk: entity.pk,
        field,
        getLabel: resource.members.get!.operation,
      });
    }
  }
  discriminatorExamples(definition);
  cutCycles(definition);
  fromOpenApi31(definition);
  const records = new Map<string, Map<string, Record<string, unknown>>>();
  const api = new OpenAPIBackend({ definition: definition as any, quick: true, validate: false, apiRoot: basePath });
  let nextId = 1000;
  const mockOf = (operationId: string, code?: number) =>
    api.mockResponseForOperation(operationId, code === undefined ? {} : { code }).mock;
  api.register('notFound', () => ({ status: 404, body: { message: 'no such operation' } }));
  const queries: Record<string, unknown>[] = [];
  const pathParams: Record<string, unknown>[] = [];
  api.register('notImplemented', (c: any) => {
    queries.push(c.request.query);
    const read = readPathParams(
      definition,
      c.operation,
      String(c.request.headers['x-raw-path']).slice(basePath.length),
    );
    pathParams.push(read);
    const label = `${String(c.operation.method).toUpperCase()} ${c.operation.path}`;
    const found = roles.get(label);
    if (!found) {
      // the first 2xx with a JSON body, as the generated code reads it (else the first 2xx, without a body)
      const responses: Record<string, any> = c.operation.responses ?? {};
      const codes = Object.keys(responses)
        .filter((code) => /^2\d\d$/.test(code))
        .sort();
      const withBody = codes.find((code) => jsonMedia(responses[code]?.content) !== undefined);
      if (withBody === undefined && codes.length) {
        // a body of another type (text/plain, image/png): its example, else a stand-in of that type
        const [type, media] = Object.entries<any>(responses[codes[0]!]?.content ?? {})[0] ?? [];
        if (type === undefined) return { status: Number(codes[0]), body: undefined };
        const text = /^text\/|xml|csv/.test(type);
        const example = media?.example ?? (text ? 'text' : Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        return { status: Number(codes[0]), body: example, contentType: type };
      }
      const mock =
        withBody === undefined
          ? mockOf(c.operation.operationId)
          : api.mockResponseForOperation(c.operation.operationId, {
              code: Number(withBody),
              mediaType: jsonMedia(responses[withBody].content),
            }).mock;
      return { status: withBody === undefined ? 200 : Number(withBody), body: mock ?? {} };
    }
    const table = records.get(found.resource) ?? records.set(found.resource, new Map()).get(found.resource)!;
    const getLabel = found.getLabel;
    const sample = () => {
      const [method, path] = getLabel.split(' ') as [string, string];
      const op = definition.paths[path][method.toLowerCase()];
      const mock = mockOf(op.operationId);
      return (mock && typeof mock === 'object' && !Array.isArray(mock) ? mock : {}) as Record<string, unknown>;
    };
    const withPk = (record: Record<string, unknown>, id: number) => {
      const current = sample()[found.pk];
      return { ...record, [found.pk]: typeof current === 'number' ? id : String(id) };
    };
    if (table.size === 0) for (const id of [1, 2]) table.set(String(id), withPk(sample(), id));
    // read from the path as sent (openapi-backend's params lose one named __proto__)
    const params = Object.values(read) as string[];
    const body = (c.request.requestBody ?? {}) as Record<string, unknown>;
    const id = params.length
      ? params[params.length - 1]
      : body[found.pk] === undefined
        ? undefined
        : String(body[found.pk]);
    switch (found.role) {
      case 'getList': {
        const items = [...table.values()];
        if (!found.field) return { status: 200, body: items };
        const envelope = mockOf(c.operation.operationId);
        return {
          status: 200,
          body: { ...(envelope && typeof envelope === 'object' ? envelope : {}), [found.field]: items },
        };
      }
      case 'get':
        return table.has(id!) ? { status: 200, body: table.get(id!) } : { status: 404, body: { message: 'not found' } };
      case 'push': {
        const record = withPk({ ...sample(), ...body }, nextId++);
        table.set(String(record[found.pk]), record);
        return { status: 201, body: record };
      }
      case 'update':
      case 'partialUpdate': {
        if (!table.has(id!)) return { status: 404, body: { message: 'not found' } };
        const record = { ...table.get(id!)!, ...body, [found.pk]: table.get(id!)![found.pk] };
        table.set(id!, record);
        return { status: 200, body: record };
      }
      case 'delete':
        table.delete(id!);
        return { status: 204, body: undefined };
    }
  });
  await api.init();

  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        const result = (await api.handleRequest({
          method: req.method ?? 'GET',
          path: url.pathname,
          // the query string as sent: openapi-backend parses it (qs: `a[b]=1`, repeated keys) and splits by style
          query: url.search,
          // the path as sent (percent-escapes kept), for readPathParams
          headers: { ...(req.headers as Record<string, string>), 'x-raw-path': url.pathname },
          body: text ? JSON.parse(text) : undefined,
        })) as { status: number; body: unknown; contentType?: string };
        if (result.body === undefined) {
          res.writeHead(result.status === 200 ? 204 : result.status).end();
          return;
        }
        if (result.contentType !== undefined) {
          res.writeHead(result.status, { 'content-type': result.contentType }).end(result.body);
          return;
        }
        res.writeHead(result.status, { 'content-type': 'application/json' }).end(JSON.stringify(result.body));
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    requests,
    queries,
    pathParams,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The path parameters of `operation` in `rawPath` (escapes kept), each read by its style and explode. */
function readPathParams(doc: Record<string, any>, operation: any, rawPath: string): Record<string, unknown> {
  const names: string[] = [];
  const source = String(operation.path)
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{([^}]+)\\?\}/g, (_, name: string) => {
      names.push(name.replace(/\\(.)/g, '$1'));
      return '([^/]+)';
    });
  const match = new RegExp(`^${source}$`).exec(rawPath);
  const found: Record<string, unknown> = {};
  // a parameter named __proto__ is a property too
  const params = new Proxy(found, {
    set: (target, key, value) =>
      Reflect.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true }),
  });
  if (!match) return found;
  const declared: any[] = [...(doc.paths?.[operation.path]?.parameters ?? []), ...(operation.parameters ?? [])];
  names.forEach((name, index) => {
    const p = declared.find((d) => d.in === 'path' && d.name === name) ?? {};
    let schema = p.schema ?? {};
    if (schema.$ref)
      schema =
        schema.$ref
          .split('/')
          .slice(1)
          .reduce((at: any, key: string) => at?.[key], doc) ?? {};
    const style: string = p.style ?? 'simple';
    const explode: boolean = p.explode ?? false;
    const kind =
      schema.type === 'array' ? 'array' : schema.type === 'object' || schema.properties ? 'object' : 'scalar';
    let raw = match[index + 1]!;
    const fail = (why: string) => {
      throw new Error(`path parameter ${name} (${style}${explode ? ', exploded' : ''}): ${why} in "${raw}"`);
    };
    // the prefix and the separator between items, by style and explode
    let separator = ',';
    if (style === 'label') {
      if (!raw.startsWith('.')) fail('no leading "."');
      raw = raw.slice(1);
      if (explode) separator = '.';
    } else if (style === 'matrix') {
      if (explode && kind === 'object') {
        if (!raw.startsWith(';')) fail('no leading ";"');
        raw = raw.slice(1);
        separator = ';';
      } else {
        if (!raw.startsWith(`;${name}=`)) fail(`no leading ";${name}="`);
        raw = raw.slice(name.length + 2);
        if (explode && kind === 'array') separator = `;${name}=`;
      }
    }
    if (kind === 'scalar') params[name] = decodeURIComponent(raw);
    else if (kind === 'array') params[name] = raw.split(separator).map(decodeURIComponent);
    else if (explode) {
      params[name] = Object.fromEntries(
        raw.split(separator).map((pair) => {
          const [key, value, more] = pair.split('=');
          if (value === undefined || more !== undefined) fail(`"${pair}" is not key=value`);
          return [decodeURIComponent(key!), decodeURIComponent(value!)];
        }),
      );
    } else {
      const items = raw.split(',').map(decodeURIComponent);
      if (items.length % 2) fail('not key,value pairs');
      params[name] = Object.fromEntries(items.flatMap((item, i) => (i % 2 ? [] : [[item, items[i + 1]]])));
    }
  });
  return found;
}

/** A schema cut where it reached itself (`acyclic`'s answer for a `$ref` already being walked). */
const CUT = Symbol('cut');

/**
 * openapi-backend's mocks (mock-json-schema) follow `$ref`s without end: a response whose schema reaches
 * itself (`Category.children: Category[]`, `Node.parent: Node`) overflows the stack. Each such response's
 * schema is replaced, in the mock server's copy of the spec, by the same schema inlined and cut where it
 * reached itself: an optional property dropped, a required one `null`, an array empty, a map without
 * values, a `oneOf`/`anyOf` without that member. Its mock is then a finite value of the spec's shape.
 */
function cutCycles(definition: Record<string, any>): void {
  for (const item of Object.values<any>(definition.paths ?? {})) {
    for (const method of METHODS) {
      for (const response of Object.values<any>(item?.[method]?.responses ?? {})) {
        for (const media of Object.values<any>(response?.content ?? {})) {
          if (!media?.schema || media.example !== undefined || media.examples !== undefined) continue;
          const cut = { found: false };
          const schema = acyclic(media.schema, definition, [], cut);
          if (cut.found) media.schema = schema === CUT ? {} : schema;
        }
      }
    }
  }
}

/** `schema` with its internal `$ref`s inlined, cut where one names a schema already on `stack`. */
function acyclic(schema: any, doc: Record<string, any>, stack: string[], cut: { found: boolean }): any {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (typeof schema.$ref === 'string') {
    const { $ref: ref, ...siblings } = schema;
    if (stack.includes(ref)) {
      cut.found = true;
      return CUT;
    }
    const target = (ref as string)
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: any, key) => at?.[key], doc);
    const inlined = acyclic(target ?? {}, doc, [...stack, ref], cut);
    return inlined === CUT ? CUT : { ...siblings, ...inlined };
  }
  const out: Record<string, any> = { ...schema };
  if (schema.allOf) {
    const members = schema.allOf.map((member: unknown) => acyclic(member, doc, stack, cut));
    if (members.includes(CUT)) return CUT;
    out.allOf = members;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (!schema[key]) continue;
    const members = schema[key]
      .map((member: unknown) => acyclic(member, doc, stack, cut))
      .filter((m: unknown) => m !== CUT);
    if (!members.length) return CUT;
    out[key] = members;
  }
  if (schema.properties) {
    const required: string[] = schema.required ?? [];
    out.properties = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const value = acyclic(property, doc, stack, cut);
      if (value !== CUT) out.properties[name] = value;
      else if (required.includes(name)) out.properties[name] = { example: null };
    }
  }
  if (schema.items) {
    const items = acyclic(schema.items, doc, stack, cut);
    if (items === CUT) {
      out.items = {};
      out.example = [];
    } else out.items = items;
  }
  if (typeof schema.additionalProperties === 'object') {
    const values = acyclic(schema.additionalProperties, doc, stack, cut);
    if (values === CUT) out.additionalProperties = false;
    else out.additionalProperties = values;
  }
  return out;
}

/**
 * OpenAPI 3.1's JSON Schema in a form openapi-backend's mocks read (they know OpenAPI 3.0's): `const: x`
 * becomes `enum: [x]` (a `const` discriminator would be mocked as `{}`, naming no member), and a list of
 * types (`type: [string, 'null']`) its first type that is not `null`.
 */
function fromOpenApi31(node: unknown, seen = new Set<object>()): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  const schema = node as Record<string, any>;
  if ('const' in schema && !Array.isArray(schema.enum)) schema.enum = [schema.const];
  if (Array.isArray(schema.type)) schema.type = schema.type.find((type: unknown) => type !== 'null') ?? 'null';
  for (const [key, value] of Object.entries(schema)) if (!EXAMPLE_KEYS.has(key)) fromOpenApi31(value, seen);
}

/** Keywords whose values are data, not schemas. */
const EXAMPLE_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/**
 * openapi-backend mocks a base schema's discriminator property (`animalType: { type: string }`) as
 * `"string"`, which names no subtype. Each such property gets the example of its first value, and each
 * subtype (its mapping's, or one that extends the base with `allOf`) an `allOf` part giving its own value.
 */
function discriminatorExamples(definition: Record<string, any>): void {
  const schemas: Record<string, any> = definition.components?.schemas ?? {};
  for (const [base, schema] of Object.entries(schemas)) {
    const attribute: unknown = schema?.discriminator?.propertyName;
    if (typeof attribute !== 'string' || schema.oneOf || schema.anyOf) continue;
    const property = schema.properties?.[attribute];
    if (!property || property.enum || property.const !== undefined || property.example !== undefined) continue;
    const values: [value: string, subtype: string][] = Object.entries<unknown>(schema.discriminator.mapping ?? {}).map(
      ([value, ref]) => [value, String(ref).split('/').pop()!],
    );
    for (const [name, other] of Object.entries(schemas)) {
      const extendsBase = other?.allOf?.some?.((part: any) => part?.$ref === `#/components/schemas/${base}`);
      if (extendsBase && !values.some(([, subtype]) => subtype === name)) values.push([name, name]);
    }
    if (!values.length) continue;
    property.example = values[0]![0];
    for (const [value, subtype] of values)
      if (Array.isArray(schemas[subtype]?.allOf))
        schemas[subtype].allOf.push({ properties: { [attribute]: { example: value } } });
  }
}
