/**
 * @data-client/normalizr 0.18 (the newest data-client algorithms; its matching @data-client/endpoint is not in
 * the registry, so the Entity schema below is a minimal one written here against 0.18's schema interface:
 * `normalize(input, parent, key, delegate)`, `denormalize(entity, delegate)`, `createIfValid`, merge hooks).
 * `normalize` to write, `MemoCache.denormalize` to read. No controller: cases A to D only.
 */
import { MemoCache, normalize, type INormalizeDelegate, type IDenormalizeDelegate } from '@data-client/normalizr';
import type { ArticleJson, UserJson } from '../data.js';
import { main, type ArticleView, type Peer } from '../harness.js';

type Meta = { date: number; fetchedAt: number; expiresAt: number };

/** A record class plus the static schema members 0.18's algorithms call. */
function entity<T extends object>(key: string, create: () => T, pkField: string, schema: Record<string, unknown> = {}) {
  return {
    key,
    schema,
    pk: (value: Record<string, unknown>) => `${value[pkField]}`,
    createIfValid: (props: object) => Object.assign(create(), props),
    merge: (existing: object, incoming: object) => ({ ...existing, ...incoming }),
    mergeWithStore(existingMeta: Meta, incomingMeta: Meta, existing: object, incoming: object) {
      return incomingMeta.fetchedAt >= existingMeta.fetchedAt
        ? { ...existing, ...incoming }
        : { ...incoming, ...existing };
    },
    mergeMetaWithStore: (existingMeta: Meta, incomingMeta: Meta) =>
      incomingMeta.fetchedAt >= existingMeta.fetchedAt ? incomingMeta : existingMeta,
    normalize(input: Record<string, unknown>, _parent: unknown, _key: unknown, delegate: INormalizeDelegate) {
      const processed: Record<string, unknown> = { ...input };
      for (const field of Object.keys(schema)) {
        if (processed[field] !== undefined)
          processed[field] = delegate.visit(schema[field], processed[field], processed, field);
      }
      const id = `${input[pkField]}`;
      delegate.mergeEntity(this, id, processed);
      return id;
    },
    denormalize(value: Record<string, unknown>, delegate: IDenormalizeDelegate) {
      for (const field of Object.keys(schema)) value[field] = delegate.unvisit(schema[field], value[field]);
      return value;
    },
    queryKey: () => undefined,
  };
}

class UserRecord {
  id = '';
  name = '';
}
class CommentRecord {
  id = '';
  author = new UserRecord();
}
class ArticleRecord {
  id = 0;
  title = '';
  author = new UserRecord();
  comments: CommentRecord[] = [];
}

const User = entity('User', () => new UserRecord(), 'id');
const Comment = entity('Comment', () => new CommentRecord(), 'id', { author: User });
const Article = entity('Article', () => new ArticleRecord(), 'id', { author: User, comments: [Comment] });
const ArticleList = [Article];

interface Tables {
  readonly result: unknown;
  readonly entities: Record<string, Record<string, unknown> | undefined>;
  readonly entitiesMeta: Record<string, Record<string, Meta>>;
  readonly memo: MemoCache;
}

const read = (tables: Tables) =>
  tables.memo.denormalize(ArticleList, tables.result, tables.entities).data as unknown as readonly ArticleView[];
const meta = (): Meta => {
  const now = Date.now();
  return { date: now, fetchedAt: now, expiresAt: now + 60_000 };
};

const dataClientNormalizr: Peer<Tables> = {
  name: '@data-client/normalizr 0.18',
  keepsIdentity: true,
  write(input) {
    const { result, entities, entitiesMeta } = normalize(
      ArticleList,
      input as ArticleJson[],
      [],
      { entities: {}, indexes: {}, entitiesMeta: {} },
      meta(),
    );
    return { result, entities, entitiesMeta: entitiesMeta as Tables['entitiesMeta'], memo: new MemoCache() };
  },
  firstRead: read,
  read,
  writeUser(tables, user: UserJson) {
    const { entities, entitiesMeta } = normalize(
      User,
      user,
      [],
      { entities: tables.entities, indexes: {}, entitiesMeta: tables.entitiesMeta },
      meta(),
    );
    return { ...tables, entities, entitiesMeta: entitiesMeta as Tables['entitiesMeta'] };
  },
};

await main(dataClientNormalizr as Peer);
