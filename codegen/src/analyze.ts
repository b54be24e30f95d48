/**
 * The analysis: a bundled OpenAPI document (and the config) → the model the templates print. Pure: no
 * I/O, the same input gives the same model. Every choice it makes is recorded in `decisions`; the ones no
 * rule of the spec or the config fixed are marked `guessed` (what `--strict` refuses).
 */
import type {
  Config,
  Decision,
  EndpointModel,
  EntityModel,
  FieldModel,
  Model,
  ResourceMember,
  ResourceModel,
  Skipped,
  TypeModel,
  UnionModel,
} from './model.js';
import { nestedDates, type DateKind } from './dates.js';
import { ConfigError, SpecError } from './errors.js';
import { NameRegistry, camelCase, convertPath, dataOnlyFields, pascalCase, propertyKey, styledPath } from './naming.js';
import { listOperations, type Operation, type Parameter } from './operations.js';
import {
  deref,
  inlineUnion,
  isNullable,
  newRefs,
  objectShape,
  refName,
  schemaExpr,
  tsType,
  type JsonSchema,
  type NameTable,
  type Refs,
} from './schemas.js';

/** Query parameter names that page through a list, in order of preference. */
const PAGE_PARAMS = [
  'page',
  'cursor',
  'starting_after',
  'after',
  'page_token',
  'pageToken',
  'offset',
  'next',
  'marker',
  'continuation_token',
  'continuationToken',
  'page_number',
  'pageNumber',
  'skip',
];
/** Properties that may hold a pk when there is no `id`: guesses. */
const PK_GUESSES = ['uuid', '_id', 'ID', 'Id', 'gid', 'key', 'slug'];

/** Builds the model of a bundled OpenAPI 3 document. */
export function analyze(doc: JsonSchema, config: Config = {}): Model {
  const decisions: Decision[] = [];
  const skipped: Skipped[] = [];
  const decide = (subject: string, decision: string, reason: string, guessed = false) =>
    decisions.push({ subject, decision, reason, guessed });
  const schemas: Record<string, JsonSchema> = doc.components?.schemas ?? {};
  const configFile = config.source ?? 'the config';
  const configError = (message: string) => new ConfigError(`${configFile}: ${message}`);
  for (const name of Object.keys(config.schemas ?? {}))
    if (!(name in schemas))
      throw configError(
        `schemas names "${name}", which the spec does not have (its schemas: ${listed(Object.keys(schemas))}).`,
      );
  for (const [name, raw] of Object.entries(schemas)) checkMapping(name, deref(doc, raw), schemas);
  const override = (name: string) => {
    const fromConfig = config.schemas?.[name] ?? {};
    const spec = deref(doc, schemas[name]) ?? {};
    checkExtensions(name, spec);
    return {
      entity: fromConfig.entity ?? (spec['x-rx-rest-entity'] as boolean | undefined),
      pk: fromConfig.pk ?? (spec['x-rx-rest-pk'] as string | undefined) ?? inheritedPk(doc, spec),
      key: fromConfig.key ?? (spec['x-rx-rest-key'] as string | undefined),
      source: config.schemas?.[name] ? 'the config' : 'the spec',
      pkFromConfig: fromConfig.pk !== undefined,
      entityFromConfig: fromConfig.entity !== undefined,
    };
  };
  const skipOps = new Set(config.skip ?? []);
  const allOperations = listOperations(doc);
  for (const skip of skipOps)
    if (!allOperations.some((op) => op.label === skip || op.operationId === skip))
      throw configError(`skip names "${skip}", which is no operationId or "METHOD /path" of the spec.`);
  const operations = allOperations
    .map((op) => (op.method === 'GET' || op.method === 'DELETE' ? { ...op, body: undefined } : op))
    .filter((op) => {
      if (skipOps.has(op.label) || (op.operationId && skipOps.has(op.operationId))) {
        skipped.push({ subject: op.label, reason: "listed in the config's skip" });
        return false;
      }
      return true;
    });

  // 1. which item paths return which schema: `GET /pets/{petId}` → Pet, parameter petId
  const itemParams = new Map<string, Set<string>>();
  for (const op of operations) {
    const name = op.method === 'GET' ? refName(singleRef(doc, op.response)) : undefined;
    const last = /\{([^}]+)\}$/.exec(op.path)?.[1];
    if (name && last) (itemParams.get(name) ?? itemParams.set(name, new Set()).get(name)!).add(last);
  }

  // 2. entities: named object schemas with a pk
  const classNames = new NameRegistry();
  const entityOf = new Map<string, string>();
  const pkOf = new Map<string, string>();
  const keyOf = new Map<string, string>();
  const bases = inheritanceBases(doc, schemas, (name) => override(name).entity === true);
  /** The pk of schema `name` (with properties `props`) by its names: `id`, its item path's parameter, a guess. */
  const pkByName = (name: string, props: string[]): { pk: string; reason: string; guessed: boolean } | undefined => {
    if (props.includes('id')) return { pk: 'id', reason: 'it has an id property', guessed: false };
    const param = [...(itemParams.get(name) ?? [])].find((p) => props.includes(p));
    if (param)
      return { pk: param, reason: `the item path's parameter {${param}} is one of its properties`, guessed: false };
    const guess = [
      `${camelCase(name)}Id`,
      `${name.replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase())}_id`,
      ...PK_GUESSES,
    ].find((p) => props.includes(p));
    return guess ? { pk: guess, reason: `guessed from the property name ${guess}`, guessed: true } : undefined;
  };
  const considerEntity = (name: string) => {
    const over = override(name);
    const shape = objectShape(doc, schemas[name]);
    const schema = deref(doc, schemas[name]);
    if (over.entity === false) {
      decide(name, 'not an entity', `x-rx-rest-entity: false in ${over.source}`);
      return;
    }
    if (!shape || Array.isArray(schema?.oneOf) || Array.isArray(schema?.anyOf)) return;
    const props = Object.keys(shape.properties);
    let pk: string | undefined;
    if (over.pk !== undefined) {
      if (!props.includes(over.pk))
        throw over.pkFromConfig
          ? configError(`the pk of ${name} is "${over.pk}", which is not one of its properties (${props.join(', ')}).`)
          : new SpecError(
              `x-rx-rest-pk of ${name} names "${over.pk}", which is not one of its properties (${props.join(', ')}).`,
            );
      pk = over.pk;
      decide(name, `entity, pk ${pk}`, `x-rx-rest-pk in ${over.source}`);
    } else {
      let found = pkByName(name, props);
      // a subtype takes its base's pk however the base found it (`Dog: allOf: [Animal]`, Animal's {animalId})
      if (!found || found.guessed) {
        for (const [baseName, base] of bases) {
          if (![...base.members.values()].includes(name)) continue;
          const baseShape = objectShape(doc, schemas[baseName]);
          const inherited = baseShape && pkByName(baseName, Object.keys(baseShape.properties));
          if (inherited && props.includes(inherited.pk)) {
            found = { ...inherited, reason: `the pk of its base ${baseName}: ${inherited.reason}` };
            break;
          }
        }
      }
      if (found) {
        pk = found.pk;
        decide(name, `entity, pk ${pk}`, found.reason, found.guessed);
      }
    }
    if (pk === undefined) {
      if (over.entity === true)
        throw over.entityFromConfig
          ? configError(`schemas.${name} is marked entity: true but has no pk: give it a pk.`)
          : new SpecError(`${name} is marked x-rx-rest-entity but has no pk: give it x-rx-rest-pk.`);
      return;
    }
    const cls = classNames.takeFile(pascalCase(name));
    if (cls !== pascalCase(name))
      decide(name, `class ${cls}`, `${pascalCase(name)} is taken: by another schema or a name the generated code uses`);
    entityOf.set(name, cls);
    pkOf.set(name, pk);
    keyOf.set(name, over.key ?? name);
  };
  // a base schema with a discriminator and subtypes (allOf) waits for them: it is their union if they are entities
  for (const name of Object.keys(schemas)) if (!bases.has(name)) considerEntity(name);
  for (const [name, base] of bases) {
    if ([...base.members.values()].every((member) => entityOf.has(member))) continue;
    bases.delete(name);
    considerEntity(name);
  }

  // 3. unions: schemas that are a discriminated oneOf of entities (or a base with a discriminator mapping)
  const unionOf = new Map<
    string,
    { name: string; attribute: string; members: Record<string, string>; inherited?: boolean }
  >();
  for (const name of Object.keys(schemas)) {
    if (entityOf.has(name)) continue;
    const base = bases.get(name);
    if (base) {
      const members = Object.fromEntries([...base.members].map(([value, member]) => [value, entityOf.get(member)!]));
      unionOf.set(name, {
        name: classNames.take(pascalCase(name)),
        attribute: base.attribute,
        members,
        inherited: true,
      });
      decide(
        name,
        `schema.Union on ${base.attribute}`,
        `a base schema with a discriminator, and ${listed([...new Set(Object.values(members))])} extend it (allOf)` +
          (base.byName.length ? `; ${listed(base.byName)} by their schema names (no mapping)` : ''),
      );
      continue;
    }
    const schema = deref(doc, schemas[name]) ?? {};
    const found = inlineUnion(schema, { entities: entityOf });
    if (found) {
      const union = { name: classNames.take(pascalCase(name)), ...found };
      unionOf.set(name, union);
      decide(
        name,
        `schema.Union on ${found.attribute}`,
        `a discriminated oneOf of ${Object.values(found.members).join(', ')}`,
      );
      continue;
    }
    const branches: unknown = schema.oneOf ?? schema.anyOf;
    const members = Array.isArray(branches) ? branches.map((b: JsonSchema) => refName(b)) : [];
    if (members.length > 1 && members.every((m) => m !== undefined && entityOf.has(m)))
      decide(
        name,
        'plain JSON, not normalized',
        `a oneOf of the entities ${listed(members as string[])} with no discriminator: rx-rest cannot tell which table a value belongs to (give it a discriminator to read it as a schema.Union)`,
      );
  }

  // 4. plain types and input types
  const typeOf = new Map<string, string>();
  for (const name of Object.keys(schemas))
    if (!entityOf.has(name) && !unionOf.has(name)) typeOf.set(name, classNames.take(pascalCase(name)));
  const inputs = new Map<string, string>();
  /** component schema name of a type → its body type (undefined: the type itself) */
  const typeInputs = new Map<string, string | undefined>();
  const entityByClass = new Map([...entityOf].map(([schemaName, cls]) => [cls, schemaName]));
  const names: NameTable = {
    entities: entityOf,
    unions: unionOf,
    types: typeOf,
    inputOf(entity) {
      let input = inputs.get(entity);
      if (input === undefined) inputs.set(entity, (input = classNames.take(`${entity}Input`)));
      return input;
    },
    typeInputOf(schemaName) {
      let input = typeInputs.get(schemaName);
      if (!typeInputs.has(schemaName)) {
        // undefined while its written form is compared (a type met again inside itself is read as its own name)
        typeInputs.set(schemaName, undefined);
        const schema = deref(doc, schemas[schemaName]);
        const written = tsType(doc, schema, names, newRefs(), { write: true, date: undefined });
        if (written !== tsType(doc, schema, names, newRefs())) {
          input = classNames.take(`${typeOf.get(schemaName)}Input`);
          typeInputs.set(schemaName, input);
        }
      }
      return input;
    },
  };
  const dateType = config.temporal ? 'Temporal.Instant' : 'Date';
  const dateKind: DateKind = {
    type: dateType,
    from: (iso) => (config.temporal ? `Temporal.Instant.from(${iso})` : `new Date(${iso})`),
  };

  // 5. entity classes
  const entities: EntityModel[] = [];
  // a subtype's discriminator field holds the values that name it (`petType: 'cat'`): the union narrows on it
  const tagOf = new Map<string, { attribute: string; values: string[] }>();
  for (const base of bases.values())
    for (const [value, member] of base.members) {
      const tag = tagOf.get(member) ?? tagOf.set(member, { attribute: base.attribute, values: [] }).get(member)!;
      if (tag.attribute === base.attribute) tag.values.push(value);
    }
  for (const [schemaName, cls] of entityOf) {
    const shape = objectShape(doc, schemas[schemaName])!;
    const tag = tagOf.get(schemaName);
    const refs = newRefs();
    const schemaRefs = newRefs();
    const fields: FieldModel[] = [];
    for (const [prop, raw] of Object.entries(shape.properties)) {
      const property = deref(doc, raw) ?? {};
      if (property.writeOnly === true || raw?.writeOnly === true) continue;
      const required = shape.required.has(prop) || prop === pkOf.get(schemaName);
      const nullable = isNullable(property) || isNullable(raw);
      const isDate =
        (property.type === 'string' && property.format === 'date-time') ||
        (Array.isArray(property.type) && property.type.includes('string') && property.format === 'date-time');
      // a date-time schema of its own name (`Timestamp`) is read as a date like any other: typed so, not by its name
      let type = tsType(doc, isDate ? property : raw, names, refs, { write: false, date: dateType });
      let schema = schemaExpr(doc, raw, names, schemaRefs);
      if (schema === undefined && isDate)
        schema = config.temporal ? 'Temporal.Instant.from' : '(iso: string) => new Date(iso)';
      // date-times inside the field (a list of them, a nested object's): read by a deserializer of the whole value
      const dated = schema === undefined && !isDate ? nestedDates(doc, raw, names, refs, dateKind) : undefined;
      if (dated) {
        type = dated.type;
        schema = dated.deserializer;
      }
      const nestedName = refName(raw) ?? refName(property.allOf?.length === 1 ? property.allOf[0] : undefined);
      const nested = nestedName ? entityOf.get(nestedName) : undefined;
      let init: string | undefined;
      if (tag && prop === tag.attribute && !nullable) {
        type = tag.values.map(quote).join(' | ');
        init = required ? quote(tag.values[0]!) : 'undefined';
        if (!required) type += ' | undefined';
      } else if (!nested && !dated && prop !== pkOf.get(schemaName) && specDefault(property) !== undefined) {
        // the spec's default: what the server means when it leaves the field out
        init = specDefault(property);
      } else if (!required || nullable) {
        init = nullable ? 'null' : 'undefined';
        if (!type.split(' | ').includes(init)) type = `${type} | ${init}`;
      } else if (nested) {
        // a required nested entity defaults to an instance (rx-rest then requires it); in a cycle it cannot
        if (nested === cls || requiresEntity(doc, schemas, entityOf, nestedName!)) {
          init = 'undefined';
          type = `${type} | undefined`;
          decide(
            `${schemaName}.${prop}`,
            'optional nested entity',
            `a required ${nested} default would build ${nested} recursively`,
          );
        } else init = `${nested}.fromJS()`;
      } else
        init = defaultValue(
          doc,
          prop === pkOf.get(schemaName) ? { ...property, default: undefined } : raw,
          type,
          isDate,
          config.temporal === true,
        );
      fields.push({ name: prop, type, init, schema, description: firstLine(property.description) });
    }
    const entityRefs = new Set([...refs.entities, ...schemaRefs.entities]);
    entityRefs.delete(cls);
    for (const [from, to] of dataOnlyFields({ fields }))
      decide(
        `${schemaName}.${from}`,
        `field ${to}`,
        `an instance cannot have a field ${from}: the store keeps it as sent, process copies it to ${to}`,
      );
    entities.push({
      name: cls,
      key: keyOf.get(schemaName)!,
      pk: pkOf.get(schemaName)!,
      fields,
      lazySchema: schemaRefs.entities.size > 0,
      entityRefs: [...entityRefs].sort(),
      typeRefs: [...refs.types].sort(),
      description: firstLine(deref(doc, schemas[schemaName])?.description),
    });
  }

  // 6. resources: a collection path and its item path, both GET, of one entity
  const byPath = new Map<string, Operation[]>();
  for (const op of operations) (byPath.get(op.path) ?? byPath.set(op.path, []).get(op.path)!).push(op);
  const used = new Set<Operation>();
  const resources: ResourceModel[] = [];
  for (const [itemPath, ops] of byPath) {
    const match = /^(.*)\/\{([^}]+)\}$/.exec(itemPath);
    if (!match) continue;
    const [, listPath, param] = match as unknown as [string, string, string];
    const get = ops.find((op) => op.method === 'GET');
    const schemaName = get ? refName(singleRef(doc, get.response)) : undefined;
    const entity = schemaName ? entityOf.get(schemaName) : undefined;
    const listOps = byPath.get(listPath) ?? [];
    const list = listOps.find((op) => op.method === 'GET');
    if (!get || !entity || !schemaName || !list) continue;
    const listShape = listResponse(doc, list.response, schemaName);
    if (!listShape) continue;
    const pk = pkOf.get(schemaName)!;
    if (!(param === pk || (pk === 'id' && /id$/i.test(param)))) {
      decide(itemPath, 'endpoints, no resource', `the parameter {${param}} is not ${entity}'s pk ${pk}`);
      continue;
    }
    // `__proto__` in an object literal sets its prototype: the argument is the instance's field for it (pk() reads it)
    const argName =
      pk === '__proto__'
        ? dataOnlyFields(entities.find((e) => e.name === entity)!).get(pk)
        : /^[A-Za-z0-9_]+$/.test(pk)
          ? pk
          : undefined;
    const itemStyle = get.parameters.find((p) => p.in === 'path' && p.name === param)?.style;
    const compositeParam = [...ops, list]
      .flatMap((op) => op.parameters)
      .find((p) => p.in === 'path' && compositeKind(doc, p));
    if (compositeParam) {
      decide(
        itemPath,
        'endpoints, no resource',
        `the path parameter {${compositeParam.name}} is an ${compositeKind(doc, compositeParam)}: withPathStyles writes it, on endpoints`,
      );
      continue;
    }
    if (itemStyle === 'label' || itemStyle === 'matrix') {
      decide(
        itemPath,
        'endpoints, no resource',
        `the parameter {${param}} has style ${itemStyle}: a resource's list path is its item path without the parameter`,
      );
      continue;
    }
    const listPathArgs = new Set(list.parameters.filter((p) => p.in === 'path').map((p) => p.name));
    const clash = list.parameters.find((p) => p.in === 'query' && listPathArgs.has(p.name));
    if (clash) {
      decide(
        itemPath,
        'endpoints, no resource',
        `${list.label} has a query parameter ?${clash.name} named like its path parameter: its endpoint sends it as another argument`,
      );
      continue;
    }
    // one urlPrefix for all the members: an operation served elsewhere stays an endpoint
    const serverOf = (op: Operation) =>
      op.server && config.urlPrefix === undefined ? serverUrl(op.server) : undefined;
    const same = (op: Operation) => serverOf(op) === serverOf(get);
    if (!same(list)) {
      decide(itemPath, 'endpoints, no resource', `${get.label} and ${list.label} have different servers`);
      continue;
    }
    const converted = convertPath(itemPath, (p) => (p === param ? argName : undefined));
    if (typeof converted === 'string') continue;
    const refs = newRefs(true);
    const members: Record<string, ResourceMember> = {
      get: { operation: get.label },
      getList: { operation: list.label },
    };
    used.add(get).add(list);
    const take = (member: string, op: Operation, method?: string) => {
      members[member] = method ? { operation: op.label, method } : { operation: op.label };
      used.add(op);
    };
    const push = listOps.find((op) => op.method === 'POST' && op.body !== false && same(op));
    if (push) take('push', push);
    const put = ops.find((op) => op.method === 'PUT' && op.body !== false && same(op));
    const postItem = ops.find((op) => op.method === 'POST' && op.body !== false && same(op));
    if (put) take('update', put);
    else if (postItem) {
      take('update', postItem, 'POST');
      decide(postItem.label, `${entity}Resource.update with method POST`, 'the item path updates with POST');
    }
    const patch = ops.find((op) => op.method === 'PATCH' && op.body !== false && same(op));
    if (patch) take('partialUpdate', patch);
    const del = ops.find((op) => op.method === 'DELETE' && same(op));
    if (del) take('delete', del);
    const bodyOp = push ?? put ?? postItem ?? patch;
    const body =
      bodyOp && bodyOp.body ? tsType(doc, bodyOp.body, names, refs, { write: true, date: undefined }) : undefined;
    const query = queryType(doc, list, names, refs);
    const page = paginationField(list);
    const listSchema = listShape.envelope
      ? envelopeExpr(doc, list.response!, listShape.field, entity, names, refs)
      : undefined;
    const name = classNames.take(`${entity}Resource`);
    resources.push({
      name,
      entity,
      urlPrefix: ownUrlPrefix(get, config, decide),
      path: converted.path,
      searchParams: query,
      body,
      bodyOptional: ![push, put ?? postItem, patch].some((op) => op?.body && op.bodyRequired),
      paginationField: page,
      listSchema,
      queryStyles: queryStyles(doc, list, decide),
      members,
      entityRefs: [...new Set([entity, ...refs.entities])].sort(),
      typeRefs: [...refs.types].sort(),
      unionRefs: [...(refs.unions ?? [])].sort(),
    });
    decide(
      name,
      `createResource at ${converted.path}`,
      `${list.label} lists ${entity}${listShape.envelope ? ` in .${listShape.field}` : ''}, ${get.label} reads one`,
    );
    if (param !== (argName ?? param))
      decide(
        `${name} {${param}}`,
        `argument ${argName}`,
        pk === '__proto__'
          ? `an object literal's __proto__ sets its prototype; named after the pk's field, so a delete invalidates by its URL arguments`
          : `named after the pk, so a delete invalidates by its URL arguments`,
      );
    if (page) decide(`${name}.getList`, `paginationField ${page}`, 'a query parameter that pages');
  }

  // 7. endpoints: every other operation
  const endpoints: EndpointModel[] = [];
  const endpointNames = classNames;
  const headers = new Set<string>();
  /** Security schemes that are an API key in the query → its parameter's name (not sent: see docs/openapi.md, Limits). */
  const queryKeys = new Map<string, string>();
  for (const op of operations) {
    for (const p of op.parameters) if (p.in === 'header' || p.in === 'cookie') headers.add(`${p.in} ${p.name}`);
    for (const s of op.security) {
      const scheme = deref(doc, doc.components?.securitySchemes?.[s]);
      if (scheme?.type === 'apiKey' && scheme.in === 'query') queryKeys.set(s, String(scheme.name));
      else headers.add(`security ${s}`);
    }
    if (used.has(op)) continue;
    if (op.body === false) {
      skipped.push({ subject: op.label, reason: 'its request body is not JSON (rx-rest sends JSON)' });
      continue;
    }
    const itemEntity = entityAtItemPath(doc, byPath, op.path, entityOf, pkOf, unionOf);
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    // array and object path parameters: written by withPathStyles, prefix and all (the path holds `:name` alone)
    const composite = new Set(pathParams.filter((p) => compositeKind(doc, p)).map((p) => p.name));
    const converted = convertPath(
      styledPath(
        op.path,
        pathParams.map((p) => (composite.has(p.name) ? { name: p.name, style: undefined } : p)),
      ),
    );
    if (typeof converted === 'string') {
      skipped.push({ subject: op.label, reason: converted });
      continue;
    }
    for (const [from, to] of converted.renamed)
      decide(
        `${op.label} {${from}}`,
        `argument ${to}`,
        from === '__proto__'
          ? "an object literal's __proto__ sets its prototype, not an argument"
          : "rx-rest's path parameters are word characters only",
      );
    for (const p of pathParams)
      if ((p.style === 'label' || p.style === 'matrix') && !composite.has(p.name))
        decide(
          `${op.label} {${p.name}}`,
          `path style ${p.style}`,
          `written into the path: ${p.style === 'label' ? `.{${p.name}}` : `;${p.name}={${p.name}}`}`,
        );
    const refs = newRefs(true);
    const styledParams = pathParams.filter((p) => composite.has(p.name));
    const pathStyles = styledParams.length
      ? `{ ${styledParams
          .map((p) => {
            const argument = converted.renamed.get(p.name) ?? p.name;
            const style = p.style === 'label' || p.style === 'matrix' ? p.style : 'simple';
            const explode = p.explode ?? false;
            const kind = compositeKind(doc, p)!;
            decide(
              `${op.label} {${p.name}}`,
              `path style ${style}${explode ? ', exploded' : ''} (an ${kind})`,
              `withPathStyles writes it: ${pathExample(p.name, style, explode, kind)}`,
            );
            return `${propertyKey(argument)}: [${quote(style)}, ${explode}${style === 'matrix' ? `, ${quote(p.name)}` : ''}]`;
          })
          .join(', ')} }`
      : undefined;
    // a query parameter named like a path argument would share its argument (the path takes it): another argument
    // (`nameQuery`), which withQueryNames sends under the spec's name
    const pathArgs = new Set(pathParams.map((p) => converted.renamed.get(p.name) ?? p.name));
    const taken = new Set(op.parameters.map((p) => p.name));
    const queryRenames: [string, string][] = [];
    const queryOp: Operation = {
      ...op,
      parameters: op.parameters.map((p) => {
        if (p.in !== 'query' || !pathArgs.has(p.name)) return p;
        let argument = `${camelCase(p.name)}Query`;
        for (let n = 2; taken.has(argument) || pathArgs.has(argument); n++) argument = `${camelCase(p.name)}Query${n}`;
        taken.add(argument);
        queryRenames.push([argument, p.name]);
        decide(
          `${op.label} ?${p.name}`,
          `argument ${argument}`,
          `the path parameter {${p.name}} has its name; withQueryNames sends it as ?${p.name}`,
        );
        return { ...p, name: argument };
      }),
    };
    const pathTypes = styledParams.map(
      (p) =>
        `${propertyKey(converted.renamed.get(p.name) ?? p.name)}: ${tsType(doc, p.schema, names, refs, { write: true, date: undefined })}`,
    );
    let schema: string | undefined;
    let processBody: string | undefined;
    if (op.method === 'DELETE' && itemEntity) {
      const argument = converted.renamed.get(itemEntity.param) ?? itemEntity.param;
      const params = `params: { ${propertyKey(argument)}: string | number }`;
      const pk = `${propertyKey(itemEntity.pk)}: String(params.${argument})`;
      const union = itemEntity.union;
      if (union) {
        // the pk alone cannot say which member's table holds it (and the response may have no body): each
        // member's, told by its attribute (one value per member)
        const values = [...new Map(Object.entries(union.members).map(([value, cls]) => [cls, value])).values()];
        schema = `[new schema.Invalidate(${itemEntity.entity})]`;
        refs.unions!.add(itemEntity.entity);
        processBody = `(value: unknown, ${params}) => [${values
          .map((value) => `{ ${pk}, ${propertyKey(union.attribute)}: ${quote(value)} }`)
          .join(', ')}]`;
      } else {
        schema = `new schema.Invalidate(${itemEntity.entity})`;
        refs.entities.add(itemEntity.entity);
        processBody = `(value: unknown, ${params}) => ({ ${pk} })`;
      }
      decide(
        op.label,
        `Invalidate ${itemEntity.entity}`,
        union
          ? `a DELETE of an item path whose GET reads a schema.Union: the pk in each member's table (${listed([...new Set(Object.values(union.members))])})`
          : 'a DELETE of an item path',
      );
    } else if (op.response) {
      const list = op.method === 'GET' ? listResponseAny(doc, op.response, entityOf) : undefined;
      if (list && !list.shape.envelope) schema = `new schema.Collection([${list.entity}])`;
      else if (list) schema = envelopeExpr(doc, op.response, list.shape.field, list.entity, names, refs);
      else schema = schemaExpr(doc, op.response, names, refs);
      if (list) refs.entities.add(list.entity);
      else if (op.method === 'GET' && schema !== undefined) schema = listsAsCollections(schema);
    }
    const content = schema === undefined && !op.response ? op.content : undefined;
    const resultType =
      schema === undefined && op.response
        ? tsType(doc, op.response, names, refs)
        : content === undefined
          ? undefined
          : { text: 'string', blob: 'Blob' }[content];
    const wanted = op.operationId
      ? camelCase(op.operationId)
      : camelCase(`${op.method.toLowerCase()} ${op.path.replace(/\{([^}]+)\}/g, 'by $1')}`);
    const name = endpointNames.take(wanted);
    if (op.operationId && name !== wanted)
      decide(
        op.label,
        `endpoint ${name}`,
        `${wanted} is taken: by a schema, another operation or a name the generated code uses`,
      );
    if (!op.operationId) decide(op.label, `endpoint ${name}`, 'no operationId: named after the method and path', true);
    const page = op.method === 'GET' ? paginationField(queryOp) : undefined;
    endpoints.push({
      name,
      operation: op.label,
      method: op.method,
      urlPrefix: ownUrlPrefix(op, config, decide),
      path: converted.path,
      schema,
      searchParams: queryType(doc, queryOp, names, refs, pathTypes),
      queryStyles: queryStyles(doc, op, decide),
      queryNames: queryRenames.length
        ? `{ ${queryRenames.map(([argument, name]) => `${propertyKey(argument)}: ${quote(name)}`).join(', ')} }`
        : undefined,
      pathStyles,
      body: op.body ? tsType(doc, op.body, names, refs, { write: true, date: undefined }) : undefined,
      bodyOptional: !op.bodyRequired,
      paginationField: schema?.includes('schema.Collection') ? page : undefined,
      resultType: resultType === 'unknown' ? undefined : resultType,
      content,
      process: processBody,
      entityRefs: [...refs.entities].sort(),
      typeRefs: [...refs.types].sort(),
      unionRefs: [...(refs.unions ?? [])].sort(),
      description: op.summary,
    });
  }

  // 8. named types and the input types that were asked for
  const types: TypeModel[] = [];
  for (const [schemaName, name] of typeOf) {
    const refs = newRefs();
    types.push({
      name,
      type: tsType(doc, deref(doc, schemas[schemaName]), names, refs),
      entityRefs: [...refs.entities].sort(),
      description: firstLine(deref(doc, schemas[schemaName])?.description),
    });
  }
  // the input types of entities and of other types, each of which may ask for more
  const typeInputsDone = new Set<string>();
  for (let done = 0; done < inputs.size || [...typeInputs.values()].some((n) => n && !typeInputsDone.has(n));) {
    if (done === inputs.size) {
      const [schemaName, name] = [...typeInputs].find(([, n]) => n && !typeInputsDone.has(n)) as [string, string];
      typeInputsDone.add(name);
      types.push({
        name,
        type: tsType(doc, deref(doc, schemas[schemaName]), names, newRefs(), { write: true, date: undefined }),
        entityRefs: [],
        description: `The request body form of ${typeOf.get(schemaName)} (readOnly fields left out).`,
      });
      continue;
    }
    const [entity, name] = [...inputs][done++]!;
    const refs = newRefs();
    const schemaName = entityByClass.get(entity)!;
    // a subtype's body names its own discriminator values, as its entity does (`petType: 'cat'`)
    const tag = tagOf.get(schemaName);
    const shape = tag ? objectShape(doc, schemas[schemaName]) : undefined;
    const bodySchema =
      tag && shape?.properties[tag.attribute]
        ? {
            type: 'object',
            properties: { ...shape.properties, [tag.attribute]: { type: 'string', enum: tag.values } },
            required: [...shape.required],
            ...(shape.additional === undefined ? {} : { additionalProperties: shape.additional }),
          }
        : { ...deref(doc, schemas[schemaName]) };
    types.push({
      name,
      type: tsType(doc, bodySchema, names, refs, { write: true, date: undefined }),
      entityRefs: [],
      description: `The request body form of ${entity} (readOnly fields left out).`,
    });
  }

  const unions: UnionModel[] = [...unionOf.values()].map((u) => ({
    name: u.name,
    attribute: u.attribute,
    members: u.members,
  }));
  const server = (doc.servers ?? [])[0];
  const urlPrefix = (config.urlPrefix ?? (server ? serverUrl(server) : '')).replace(/\/$/, '');
  decide(
    'urlPrefix',
    JSON.stringify(urlPrefix),
    config.urlPrefix !== undefined ? 'the config' : server ? 'servers[0]' : 'the spec has no servers',
  );
  for (const header of headers)
    decide(header, 'requestHeaders', 'a header, cookie or security parameter: set it in requestHeaders (client.ts)');
  for (const [scheme, name] of queryKeys)
    decide(
      `security ${scheme}`,
      'not sent',
      `an API key in the query (?${name}): the generated endpoints send no query parameter the operations do not declare`,
    );
  return {
    title: String(doc.info?.title ?? 'API'),
    urlPrefix,
    temporal: config.temporal === true,
    entities,
    types,
    unions,
    resources,
    endpoints,
    headers: [...headers],
    decisions,
    skipped,
  };
}

/**
 * A GET's list of a union (`[Animal]`, or `{ animals: [Animal], next }`) as a Collection, like lists of
 * one entity: `new schema.Collection([Animal])`.
 */
function listsAsCollections(schema: string): string {
  const bare = /^\[([A-Za-z_$][\w$]*)\]$/.exec(schema);
  if (bare) return `new schema.Collection([${bare[1]}])`;
  const members = /^\{ (.*) \}$/.exec(schema)?.[1]?.split(', ');
  if (!members) return schema;
  const lists = members.filter((member) => /^[^:]+: \[[A-Za-z_$][\w$]*\]$/.test(member));
  if (lists.length !== 1) return schema;
  return schema.replace(lists[0]!, lists[0]!.replace(/: \[([A-Za-z_$][\w$]*)\]$/, ': new schema.Collection([$1])'));
}

function firstLine(text: unknown): string | undefined {
  return typeof text === 'string' && text.trim() ? text.trim().split('\n')[0]!.replace(/\*\//g, '*\\/') : undefined;
}

/** The `$ref` a response is, also through a one-part `allOf`. */
function singleRef(doc: JsonSchema, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  if (refName(schema)) return schema;
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return singleRef(doc, schema.allOf[0]);
  return undefined;
}

/** Whether the entity `name` has a required field holding an entity (a default instance would recurse). */
function requiresEntity(
  doc: JsonSchema,
  schemas: Record<string, JsonSchema>,
  entityOf: ReadonlyMap<string, string>,
  name: string,
): boolean {
  const shape = objectShape(doc, schemas[name]);
  if (!shape) return false;
  return [...shape.required].some((prop) => {
    const raw = shape.properties[prop];
    const ref = refName(raw) ?? refName(deref(doc, raw)?.allOf?.[0]);
    return ref !== undefined && entityOf.has(ref) && !isNullable(deref(doc, raw));
  });
}

/** How a response lists `entity`: a bare array, or an envelope with the array in `field`. */
function listResponse(
  doc: JsonSchema,
  response: JsonSchema | undefined,
  entity: string,
): { envelope: boolean; field: string } | undefined {
  if (!response) return undefined;
  const node = deref(doc, response);
  if (node?.type === 'array' && refName(singleRef(doc, node.items)) === entity) return { envelope: false, field: '' };
  const shape = objectShape(doc, response);
  if (!shape || refName(singleRef(doc, response)) === entity) return undefined;
  for (const [field, raw] of Object.entries(shape.properties)) {
    const prop = deref(doc, raw);
    if (prop?.type === 'array' && refName(singleRef(doc, prop.items)) === entity) return { envelope: true, field };
  }
  return undefined;
}

function listResponseAny(doc: JsonSchema, response: JsonSchema, entityOf: ReadonlyMap<string, string>) {
  const self = refName(singleRef(doc, response));
  if (self !== undefined && entityOf.has(self)) return undefined;
  const node = deref(doc, response);
  const candidates = new Set<string>();
  const item = refName(singleRef(doc, node?.items));
  if (item) candidates.add(item);
  const shape = objectShape(doc, response);
  for (const raw of Object.values(shape?.properties ?? {})) {
    const name = refName(singleRef(doc, deref(doc, raw)?.items));
    if (name) candidates.add(name);
  }
  for (const name of candidates) {
    const entity = entityOf.get(name);
    const shapeFound = entity ? listResponse(doc, response, name) : undefined;
    if (entity && shapeFound) return { entity, shape: shapeFound };
  }
  return undefined;
}

/** `{ data: new schema.Collection([Pet]), has_more: false }`: the envelope's other members stay plain JSON. */
function envelopeExpr(
  doc: JsonSchema,
  response: JsonSchema,
  field: string,
  entity: string,
  names: NameTable,
  refs: Refs,
): string {
  const shape = objectShape(doc, response)!;
  const members = [`${propertyKey(field)}: new schema.Collection([${entity}])`];
  for (const [key, raw] of Object.entries(shape.properties)) {
    if (key === field) continue;
    const expr = schemaExpr(doc, raw, names, refs);
    if (expr !== undefined) members.push(`${propertyKey(key)}: ${expr}`);
  }
  refs.entities.add(entity);
  return `{ ${members.join(', ')} }`;
}

/**
 * The type of an operation's search params: its query parameters, and the array and object path parameters
 * (`pathTypes`, required members: `pathValues` types the path's arguments by them).
 */
function queryType(
  doc: JsonSchema,
  op: Operation,
  names: NameTable,
  refs: Refs,
  pathTypes: readonly string[] = [],
): string | undefined {
  const query = op.parameters.filter((p: Parameter) => p.in === 'query');
  if (query.length === 0 && pathTypes.length === 0) return undefined;
  const members = query.map(
    (p) =>
      `${propertyKey(p.name)}${p.required ? '' : '?'}: ${tsType(doc, p.schema, names, refs, { write: true, date: undefined })}`,
  );
  const type = `{ ${[...pathTypes, ...members].join('; ')} }`;
  return pathTypes.length || query.some((p) => p.required) ? type : `${type} | undefined`;
}

/** `array` or `object` when a path parameter's schema is one (withPathStyles writes it), else undefined. */
function compositeKind(doc: JsonSchema, p: Parameter): 'array' | 'object' | undefined {
  const schema = deref(doc, p.schema) ?? {};
  if (schema.type === 'array') return 'array';
  if (schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object')) return 'object';
  return undefined;
}

/** How withPathStyles writes an array (`[1, 2]`) or object (`{ a: 1, b: 2 }`) path parameter, for decisions. */
function pathExample(name: string, style: string, explode: boolean, kind: 'array' | 'object'): string {
  const items = kind === 'array' ? ['1', '2'] : explode ? ['a=1', 'b=2'] : ['a', '1', 'b', '2'];
  if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
  if (style === 'matrix') {
    if (!explode) return `;${name}=${items.join(',')}`;
    return kind === 'array'
      ? items.map((item) => `;${name}=${item}`).join('')
      : items.map((item) => `;${item}`).join('');
  }
  return items.join(',');
}

/**
 * The query parameters of `op` whose `style`/`explode` rx-rest does not write by itself (it writes an array as
 * a repeated key and a scalar as is: OpenAPI's default `form`, exploded): `deepObject`, unexploded ones (`form`,
 * `spaceDelimited`, `pipeDelimited`), and exploded objects (their properties as parameters). As an object
 * literal for `withQueryStyles`.
 */
function queryStyles(
  doc: JsonSchema,
  op: Operation,
  decide: (subject: string, decision: string, reason: string) => void,
): string | undefined {
  const styled: string[] = [];
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const style = p.style ?? 'form';
    const explode = p.explode ?? style === 'form';
    const schema = deref(doc, p.schema) ?? {};
    const object = schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object');
    if (style === 'form' && explode && !object) continue;
    if (!['form', 'deepObject', 'spaceDelimited', 'pipeDelimited'].includes(style)) continue;
    styled.push(`${propertyKey(p.name)}: [${quote(style)}, ${explode}]`);
    decide(
      `${op.label} ?${p.name}`,
      `query style ${style}${explode ? '' : ', not exploded'}`,
      `its style and explode (withQueryStyles writes it: ${
        style === 'deepObject'
          ? `${p.name}[key]=value`
          : explode
            ? 'its properties as parameters'
            : style === 'form'
              ? `${p.name}=a,b`
              : style === 'pipeDelimited'
                ? `${p.name}=a|b`
                : `${p.name}=a%20b`
      })`,
    );
  }
  return styled.length ? `{ ${styled.join(', ')} }` : undefined;
}

function paginationField(op: Operation): string | undefined {
  const names = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  return PAGE_PARAMS.find((name) => names.has(name));
}

/** The entity a path's last parameter addresses (`/pets/{petId}` whose GET returns Pet), if its pk. */
function entityAtItemPath(
  doc: JsonSchema,
  byPath: ReadonlyMap<string, Operation[]>,
  path: string,
  entityOf: ReadonlyMap<string, string>,
  pkOf: ReadonlyMap<string, string>,
  unionOf: ReadonlyMap<string, { name: string; attribute: string; members: Record<string, string> }>,
) {
  const param = /\{([^}]+)\}$/.exec(path)?.[1];
  if (!param) return undefined;
  const get = byPath.get(path)?.find((op) => op.method === 'GET');
  const name = get ? refName(singleRef(doc, get.response)) : undefined;
  const union = name && !entityOf.has(name) ? unionOf.get(name) : undefined;
  let entity = name ? entityOf.get(name) : undefined;
  let pk = name ? pkOf.get(name) : undefined;
  if (union) {
    // a union's pk: its members' one pk (they share the item path)
    const pkByClass = new Map([...entityOf].map(([schemaName, cls]) => [cls, pkOf.get(schemaName)]));
    const pks = new Set(Object.values(union.members).map((cls) => pkByClass.get(cls)));
    entity = union.name;
    pk = pks.size === 1 ? [...pks][0] : undefined;
  }
  if (!entity || !pk || !(param === pk || (pk === 'id' && /id$/i.test(param)))) return undefined;
  return { entity, pk, param, union };
}

function defaultValue(
  doc: JsonSchema,
  raw: JsonSchema,
  type: string,
  isDate: boolean,
  temporal: boolean,
): string | undefined {
  const schema = deref(doc, raw) ?? {};
  if (isDate) return temporal ? "Temporal.Instant.from('1970-01-01T00:00:00Z')" : 'new Date(0)';
  const given = specDefault(schema);
  if (given !== undefined) return given;
  // a `const` (OpenAPI 3.1's one-value enum, often a discriminator) is its own default
  const values: unknown[] | undefined =
    schema.const !== undefined && schema.const !== null ? [schema.const] : schema.enum;
  if (Array.isArray(values) && values.length > 0) {
    const first = values.find((value: unknown) => value !== null);
    return typeof first === 'string' ? `'${first.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(first);
  }
  if (type === 'string') return "''";
  if (type === 'number') return '0';
  if (type === 'boolean') return 'false';
  if (type.endsWith('[]')) return '[]';
  return undefined;
}

/** Names for a message: the first ten, and how many more. */
function listed(names: readonly string[]): string {
  return names.length > 10
    ? `${names.slice(0, 10).join(', ')}, ... ${names.length - 10} more`
    : names.join(', ') || 'none';
}

/** A base schema with a discriminator that subtypes extend through `allOf`. */
interface InheritanceBase {
  readonly attribute: string;
  /** discriminator value → subtype schema name (the mapping's, then the other subtypes' by their names) */
  readonly members: Map<string, string>;
  /** the subtypes the mapping does not name: their value is their schema name */
  readonly byName: string[];
}

/**
 * The base schemas of allOf inheritance: an object schema (no oneOf/anyOf) with a `discriminator`, and
 * the schemas its mapping names or that extend it with `allOf` (directly or through another subtype).
 * A base marked as an entity (`x-rx-rest-entity: true`) stays one.
 */
function inheritanceBases(
  doc: JsonSchema,
  schemas: Record<string, JsonSchema>,
  markedEntity: (name: string) => boolean,
): Map<string, InheritanceBase> {
  const bases = new Map<string, InheritanceBase>();
  const parents = (name: string): string[] => {
    const allOf = deref(doc, schemas[name])?.allOf;
    return Array.isArray(allOf) ? allOf.map((part: JsonSchema) => refName(part)).filter((p) => p !== undefined) : [];
  };
  const extendsBase = (name: string, base: string, seen = new Set<string>()): boolean => {
    if (seen.has(name)) return false;
    seen.add(name);
    return parents(name).some((parent) => parent === base || extendsBase(parent, base, seen));
  };
  for (const name of Object.keys(schemas)) {
    const schema = deref(doc, schemas[name]);
    const attribute = schema?.discriminator?.propertyName;
    if (typeof attribute !== 'string' || Array.isArray(schema?.oneOf) || Array.isArray(schema?.anyOf)) continue;
    if (markedEntity(name)) continue;
    const members = new Map<string, string>();
    const mapping: Record<string, unknown> = schema?.discriminator?.mapping ?? {};
    for (const [value, ref] of Object.entries(mapping)) {
      if (typeof ref !== 'string') continue;
      const target = refName({ $ref: ref.startsWith('#') ? ref : `#/components/schemas/${ref}` });
      if (target !== undefined && target !== name && target in schemas) members.set(value, target);
    }
    const mapped = new Set(members.values());
    const byName: string[] = [];
    for (const other of Object.keys(schemas)) {
      if (other === name || mapped.has(other) || members.has(other) || !extendsBase(other, name)) continue;
      members.set(other, other);
      byName.push(other);
    }
    if (members.size > 0) bases.set(name, { attribute, members, byName });
  }
  return bases;
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The `x-rx-rest-pk` a schema inherits from the schemas it extends (`allOf: [{ $ref: Vehicle }, ...]`). */
function inheritedPk(doc: JsonSchema, schema: JsonSchema, seen = new Set<unknown>()): string | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const parent = deref(doc, part);
    if (!parent || typeof parent !== 'object') continue;
    const pk = (parent['x-rx-rest-pk'] as string | undefined) ?? inheritedPk(doc, parent, seen);
    if (pk !== undefined) return pk;
  }
  return undefined;
}

/** What a JSON value's kind is called in a schema's `type` (`integer` is a number too). */
function jsonKind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Whether each item of a list default is of its `items`' primitive type (when it names one). */
function itemsFit(schema: JsonSchema, value: unknown[]): boolean {
  const type: unknown = schema.items?.type;
  if (typeof type !== 'string' || !['string', 'number', 'integer', 'boolean'].includes(type)) return true;
  return value.every((item) => jsonKind(item) === (type === 'integer' ? 'number' : type));
}

/**
 * A property's `default` as a literal, when it is a string, number or boolean its type allows, or a list
 * (of items of its items' type) or an object for a property of that type (not of dates: they are deserialized).
 */
function specDefault(schema: JsonSchema): string | undefined {
  const value: unknown = schema.default;
  const json = jsonKind(value);
  if (json === 'array' || json === 'object') {
    const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.includes(json) || schema.items?.format === 'date-time' || schema.items?.$ref) return undefined;
    if (json === 'array' && !itemsFit(schema, value as unknown[])) return undefined;
    return JSON.stringify(value);
  }
  if (!['string', 'number', 'boolean'].includes(typeof value)) return undefined;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return undefined;
  if (schema.const !== undefined && schema.const !== value) return undefined;
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const kind = typeof value === 'number' ? ['number', 'integer'] : [typeof value];
  if (types.length > 0 && !types.some((t) => kind.includes(t as string))) return undefined;
  if (schema.format === 'date-time') return undefined;
  return typeof value === 'string' ? quote(value) : String(value);
}

/** `x-rx-rest-entity` is a boolean, `x-rx-rest-pk` and `x-rx-rest-key` non-empty strings: else a SpecError. */
function checkExtensions(name: string, schema: JsonSchema): void {
  const shown = (value: unknown) => JSON.stringify(value) ?? String(value);
  const entity: unknown = schema['x-rx-rest-entity'];
  if (entity !== undefined && typeof entity !== 'boolean')
    throw new SpecError(`x-rx-rest-entity of ${name} must be true or false, not ${shown(entity)}.`);
  const pk: unknown = schema['x-rx-rest-pk'];
  if (pk !== undefined && (typeof pk !== 'string' || pk === ''))
    throw new SpecError(`x-rx-rest-pk of ${name} must be a property name (a string), not ${shown(pk)}.`);
  const key: unknown = schema['x-rx-rest-key'];
  if (key !== undefined && (typeof key !== 'string' || key === ''))
    throw new SpecError(`x-rx-rest-key of ${name} must be a string, not ${shown(key)}.`);
}

/**
 * A discriminator `mapping` value that points into this document (`#/components/schemas/Cat`, or a bare
 * name `Cat`) must name one of its schemas: else a SpecError (the server's values would name nothing). Refs
 * to other files are left to the parser.
 */
function checkMapping(name: string, schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>): void {
  const mapping: unknown = schema?.discriminator?.mapping;
  if (mapping === undefined || mapping === null) return;
  if (typeof mapping !== 'object' || Array.isArray(mapping))
    throw new SpecError(`The discriminator mapping of ${name} must be an object of value → schema ref.`);
  const prefix = '#/components/schemas/';
  for (const [value, ref] of Object.entries(mapping)) {
    if (typeof ref !== 'string')
      throw new SpecError(
        `The discriminator mapping of ${name} maps "${value}" to ${JSON.stringify(ref) ?? String(ref)}: a schema ref (a string) is needed.`,
      );
    const local = ref.startsWith(prefix)
      ? decodeURIComponent(ref.slice(prefix.length)).replace(/~1/g, '/').replace(/~0/g, '~')
      : /^[^#/]+$/.test(ref) && !/\.(ya?ml|json)$/i.test(ref)
        ? ref
        : undefined;
    if (local !== undefined && !(local in schemas))
      throw new SpecError(
        `The discriminator mapping of ${name} maps "${value}" to ${ref}, which is no schema of the spec (its schemas: ${listed(Object.keys(schemas))}).`,
      );
  }
}

/** A server's URL with its variables' defaults, without a trailing `/`. */
function serverUrl(server: { readonly url?: unknown; readonly variables?: JsonSchema }): string {
  const url = typeof server.url === 'string' ? server.url : '';
  return url
    .replace(/\{([^}]+)\}/g, (all: string, v: string) => String(server.variables?.[v]?.default ?? all))
    .replace(/\/$/, '');
}

/** The urlPrefix of an operation with its own servers (none when the config sets one for all), and the decision. */
function ownUrlPrefix(
  op: Operation,
  config: Config,
  decide: (subject: string, decision: string, reason: string) => void,
): string | undefined {
  if (op.server === undefined || config.urlPrefix !== undefined) return undefined;
  const url = serverUrl(op.server);
  decide(op.label, `urlPrefix ${JSON.stringify(url)}`, `the ${op.server.of}'s servers[0]`);
  return url;
}
