/** rx-rest at the schema layer: `normalize` into plain tables, `MemoCache.denormalize` to read. */
import { MemoCache, normalize, type EntityTables, type NormalizedTables } from '../../../core/index.js';
import type { ArticleJson, UserJson } from '../data.js';
import { main, type ArticleView, type Peer } from '../harness.js';
import { ArticleList, BenchUser } from '../rxRestSchemas.js';

interface Tables {
  readonly result: unknown;
  readonly entities: EntityTables;
  readonly entitiesMeta: NormalizedTables['entitiesMeta'];
  readonly memo: MemoCache;
}

const rxRest: Peer<Tables> = {
  name: 'rx-rest (normalize + MemoCache)',
  keepsIdentity: true,
  write(input) {
    const { result, entities, entitiesMeta } = normalize(ArticleList, input as ArticleJson[]);
    return { result, entities, entitiesMeta, memo: new MemoCache() };
  },
  firstRead: (tables) => read(tables),
  read: (tables) => read(tables),
  writeUser(tables, user: UserJson) {
    const { entities, entitiesMeta } = normalize(BenchUser, user, [], tables);
    return { ...tables, entities, entitiesMeta };
  },
};

function read(tables: Tables): readonly ArticleView[] {
  return tables.memo.denormalize(ArticleList, tables.result, tables.entities).data as readonly ArticleView[];
}

await main(rxRest as Peer);
