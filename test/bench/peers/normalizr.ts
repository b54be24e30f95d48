/** normalizr 3.6.2 (paularmstrong): `normalize` into tables, `denormalize` on every read (no memo, no identity). */
import { denormalize, normalize, schema } from 'normalizr';
import type { ArticleJson, UserJson } from '../data.js';
import { main, type ArticleView, type Peer } from '../harness.js';

const user = new schema.Entity('users');
const comment = new schema.Entity('comments', { author: user });
const article = new schema.Entity('articles', { author: user, comments: [comment] });
const articleList = [article];

interface Tables {
  readonly result: unknown;
  readonly entities: Record<string, Record<string, unknown> | undefined>;
}

/** What a Redux-style store around normalizr does: normalize the response, merge its tables copy-on-write. */
function mergeInto(tables: Tables, changed: UserJson): Tables {
  const { entities } = normalize(changed, user);
  const merged = { ...tables.entities };
  for (const key of Object.keys(entities)) merged[key] = { ...merged[key], ...entities[key] };
  return { result: tables.result, entities: merged };
}

const read = (tables: Tables) => denormalize(tables.result, articleList, tables.entities) as readonly ArticleView[];

const normalizrPeer: Peer<Tables> = {
  name: 'normalizr 3.6.2',
  keepsIdentity: false,
  write(input) {
    const { result, entities } = normalize(input as ArticleJson[], articleList);
    return { result, entities };
  },
  firstRead: read,
  read,
  writeUser: mergeInto,
  singleWrites(users) {
    let tables: Tables = normalize(users, [user]);
    return (changed) => (tables = mergeInto(tables, changed));
  },
};

await main(normalizrPeer as Peer);
