import { NormalizeError, SchemaDefinitionError, describeKind, preview } from '../errors.js';
import { Entity, entityDefaults, entityKey, isEntityClass, reservedFields } from './Entity.js';
import { copiedDefaults } from './defaultCopies.js';
import { isSchema } from './schemaKind.js';
import type { StandardSchemaV1 } from './standard.js';

/** A nested-schema member of an Entity's `static schema`, resolved once per class. */
export interface SchemaFieldPlan {
  readonly name: string;
  readonly schema: unknown;
  readonly required: boolean;
  /**
   * Found on the first write or read of the field (see `fieldEntity`): the Entity class of the field, or
   * of its items when it is `[Entity]` (`list`); `null` for any other schema.
   */
  writes: { readonly Cls: typeof Entity; readonly plan: EntityPlan; readonly list: boolean } | null | undefined;
}

/**
 * The Entity class (and plan) of a nested-schema field, or of its items when it is `[Entity]`; `null` for
 * any other schema. Found on first use (a field may name a class whose plan is not made yet) and kept in
 * the field's plan, so that writes and reads go straight to the entity without a dispatch per value.
 */
export function fieldEntity(field: SchemaFieldPlan): Exclude<SchemaFieldPlan['writes'], undefined> {
  if (field.writes !== undefined) return field.writes;
  const schema = field.schema;
  const plan = planOf(schema);
  if (plan) return (field.writes = { Cls: schema as typeof Entity, plan, list: false });
  const item = Array.isArray(schema) && schema.length === 1 ? (schema[0] as unknown) : undefined;
  const itemPlan = planOf(item);
  return (field.writes = itemPlan ? { Cls: item as typeof Entity, plan: itemPlan, list: true } : null);
}

/** A deserializer member of an Entity's `static schema`, resolved once per class. */
export interface DeserializerPlan {
  readonly name: string;
  readonly deserialize: (value: unknown) => unknown;
}

/** What normalize and denormalize need to know about an Entity class, computed once. */
export interface EntityPlan {
  readonly key: string;
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly schemaFields: readonly SchemaFieldPlan[];
  readonly deserializers: readonly DeserializerPlan[];
  /**
   * Methods and accessors of the class (`pk`, getters, ...): a response field of such a name is kept in
   * the store but never assigned onto an instance, so data cannot replace the class's behaviour.
   */
  readonly reserved: ReadonlySet<string>;
  /**
   * The names of the class defaults in declaration order, when a read may take each straight from a
   * record (none is reserved, `__proto__` or a name `Object.prototype` answers); otherwise `undefined`.
   */
  readonly fields: readonly string[] | undefined;
  /**
   * The class defaults that are arrays, plain objects, Dates, Maps or Sets: a read gives each instance
   * its own copy of them (see defaultCopies.ts); `undefined` when there are none, as for most classes.
   */
  readonly copied: ReadonlySet<string> | undefined;
  /** The fields `pk()` reads whose default is a string or number (found on first use). */
  pkFields: readonly string[] | undefined;
  /**
   * Makes a bare instance (the class's prototype, no field initializers run). A constructor of its own,
   * so that the engine sizes its instances for the class's fields (Object.create would not).
   */
  readonly make: new () => Record<string, unknown>;
  /**
   * An instance holding only the class defaults, kept so that V8 keeps the object shape of the instances
   * a read builds (see shapeKeeper.ts). It holds no data of the store.
   */
  readonly keeper: object;
  /** How many levels of nested entities a read resolves below this one (`static maxEntityDepth`, default 64). */
  readonly maxEntityDepth: number;
  /** `static automaticValidation`: how an array where the entity is expected is treated. */
  readonly automaticValidation: 'warn' | 'silent' | undefined;
  /** `static validate`, when the class overrides it. */
  readonly validate: ((processed: Readonly<Record<string, unknown>>) => string | undefined) | undefined;
  /**
   * `static validator`, when the class has one (a Standard Schema), as the write whose meta is `validatorFor`
   * read it: each write reads the class's own once (see `Normalizer`), so that one assigned later takes effect.
   */
  validator: StandardSchemaV1 | undefined;
  /** The meta of the write that last read `validator` off the class (a write's meta is its own object). */
  validatorFor: object | undefined;
  /** The class, when it overrides `shouldUpdate` or `shouldReorder` (writes then ask it). */
  readonly writePolicy: typeof Entity | undefined;
  /** The class keeps Entity's static `process` (a shallow copy: normalize reads the input itself and copies once). */
  readonly defaultProcess: boolean;
  /** The class keeps Entity's static `pk` (normalize calls `pkMethod` itself). */
  readonly defaultPk: boolean;
  /** The class keeps Entity's static `merge` (a spread) and its write policy: an unchanged record is kept as is. */
  readonly defaultMerge: boolean;
  /** The class's `pk` method (what the default static `pk` calls). */
  readonly pkMethod: (this: object, parent?: unknown, key?: string, args?: readonly unknown[]) => unknown;
}

/**
 * @internal The plan of each Entity class this build has used (normalized or read). A `Map`, not a `WeakMap`:
 * classes live as long as their module, and a restored snapshot's records are checked with the plans of their
 * tables (store/snapshotRecords.ts), found here without a registry on the way of every app.
 */
export const entityPlans = new Map<Function, EntityPlan>();

/**
 * How deep reads resolve nested entities by default (data-client's limit): a chain deeper than this
 * (1,500 departments and buildings referring to each other) reads its remaining levels as pks instead of
 * running out of stack. `static maxEntityDepth` on an Entity changes it.
 */
export const MAX_ENTITY_DEPTH = 64;

/**
 * The plan of `schema` when it is an Entity class (computed on first use), otherwise `undefined`: the
 * one dispatch test of the hot normalize and denormalize loops (a map lookup for known classes).
 */
export function planOf(schema: unknown): EntityPlan | undefined {
  if (typeof schema !== 'function') return undefined;
  return entityPlans.get(schema) ?? (isEntityClass(schema) ? entityPlan(schema) : undefined);
}

/**
 * `class X {}` constructors and the built-in ones (Set, Map, URL, typed arrays, Date, which returns a string
 * when called) must be used with `new`; the built-ins that give a primitive (Number, String, Boolean) or
 * cannot be built (BigInt, Symbol) are called, as are functions without a prototype (arrows, methods).
 */
function mustConstruct(fn: Function): boolean {
  if ([Number, String, Boolean, BigInt, Symbol].includes(fn as never)) return false;
  const source = Function.prototype.toString.call(fn);
  return /^class[\s{]/.test(source) || (fn.prototype !== undefined && /\[native code\]\s*\}$/.test(source));
}

function deserializerOf(fn: Function): (value: unknown) => unknown {
  if (mustConstruct(fn)) return (value) => new (fn as new (value: unknown) => unknown)(value);
  return (value) => (fn as (value: unknown) => unknown)(value);
}

/**
 * Finds the fields `pk()` reads, by computing it once on a recording proxy. Only fields whose class
 * default is a string or number count: those must hold a string or a finite number in a response
 * (so that `{ id: [1] }` or `{ id: true }` cannot pass for another pk through a template literal).
 */
export function discoverPkFields(
  Cls: typeof Entity,
  plan: EntityPlan,
  value: object,
  args: readonly unknown[],
  parent?: unknown,
  key?: string,
): readonly string[] {
  const read = new Set<string>();
  const recorder = new Proxy(value, {
    get(target, property, receiver) {
      if (typeof property === 'string') read.add(property);
      return Reflect.get(target, property, receiver);
    },
  });
  try {
    Cls.pk(recorder, parent, key, args);
  } catch {
    // pk() failing on this value is reported by the caller
  }
  const fields = [...read].filter((field) => {
    const fallback = plan.defaults[field];
    return typeof fallback === 'string' || typeof fallback === 'number';
  });
  plan.pkFields = fields;
  return fields;
}

/**
 * Throws a NormalizeError when a field `pk()` reads (see `discoverPkFields`) holds neither a string nor
 * a finite number in `value`: `{ id: [1] }` or `{ id: true }` must not pass for the pk `'1'` or `'true'`.
 */
export function assertPkFields(
  Cls: typeof Entity,
  plan: EntityPlan,
  value: object,
  input: unknown,
  args: readonly unknown[],
  parent?: unknown,
  key?: string,
): void {
  for (const field of plan.pkFields ?? discoverPkFields(Cls, plan, value, args, parent, key)) {
    const member = (value as Record<string, unknown>)[field];
    if (!(typeof member === 'string' || (typeof member === 'number' && Number.isFinite(member)))) {
      throw new NormalizeError(
        plan.key,
        process.env.NODE_ENV !== 'production'
          ? `the pk field "${field}" must be a string or a number, but it is ${describeKind(member)} in ${preview(input)}.`
          : field,
        input,
      );
    }
  }
}

function bareConstructor(prototype: object): new () => Record<string, unknown> {
  const make = function (this: Record<string, unknown>) {} as unknown as new () => Record<string, unknown>;
  make.prototype = prototype;
  return make;
}

/** Whether a default is an entity (of an Entity class or an EntityMixin class): its field is then required. */
function isEntityInstance(value: unknown): boolean {
  return value instanceof Entity || (typeof value === 'object' && value !== null && isEntityClass(value.constructor));
}

/** The resolved plan of an Entity class: key, defaults, nested schema fields and deserializers. */
export function entityPlan(Cls: typeof Entity): EntityPlan {
  let plan = entityPlans.get(Cls);
  if (plan) return plan;
  const key = entityKey(Cls);
  if (typeof Cls.prototype.pk !== 'function') {
    throw new SchemaDefinitionError(
      process.env.NODE_ENV !== 'production'
        ? `Entity ${key} needs a pk() method (e.g. \`pk() { return \`\${this.id}\`; }\`).`
        : key,
    );
  }
  const defaults = entityDefaults(Cls as never);
  const schemaFields: SchemaFieldPlan[] = [];
  const deserializers: DeserializerPlan[] = [];
  const definition = (Cls.schema ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(definition)) {
    const member = definition[name];
    if (isSchema(member)) {
      schemaFields.push({ name, schema: member, required: isEntityInstance(defaults[name]), writes: undefined });
    } else if (typeof member === 'function' && !isEntityClass(member)) {
      deserializers.push({ name, deserialize: deserializerOf(member) });
    } else {
      throw new SchemaDefinitionError(
        process.env.NODE_ENV !== 'production'
          ? `${key}.schema.${name} must be a schema (an Entity, [Entity], a Collection, an object of schemas) ` +
              `or a deserializer function/constructor; got ${typeof member}.`
          : `${key}.schema.${name}`,
      );
    }
  }
  const make = bareConstructor(Cls.prototype);
  const reserved = reservedFields(Cls as never);
  const fields = Object.keys(defaults);
  plan = {
    key,
    defaults,
    schemaFields,
    deserializers,
    reserved,
    fields: fields.some((name) => name === '__proto__' || name in Object.prototype || reserved.has(name))
      ? undefined
      : fields,
    copied: copiedDefaults(defaults),
    pkFields: undefined,
    make,
    pkMethod: Cls.prototype.pk,
    maxEntityDepth: Cls.maxEntityDepth ?? MAX_ENTITY_DEPTH,
    automaticValidation: Cls.automaticValidation,
    validate: Cls.validate === Entity.validate ? undefined : (processed) => Cls.validate(processed),
    validator: undefined,
    validatorFor: undefined,
    writePolicy:
      Cls.shouldUpdate === Entity.shouldUpdate && Cls.shouldReorder === Entity.shouldReorder ? undefined : Cls,
    defaultProcess: Cls.process === Entity.process,
    defaultPk: Cls.pk === Entity.pk,
    defaultMerge:
      Cls.merge === Entity.merge &&
      Cls.shouldUpdate === Entity.shouldUpdate &&
      Cls.shouldReorder === Entity.shouldReorder,
    keeper: Object.assign(new make(), defaults),
  };
  entityPlans.set(Cls, plan);
  return plan;
}
