/** The rx-rest peer at the schema layer (`normalize` into plain tables, `MemoCache.denormalize` to read), for a model. */
import { MemoCache, normalize, type EntityTables, type NormalizedTables } from '../../core/index.js';
import type { ArticleJson, UserJson } from './data.js';
import { main, type ArticleView, type Peer } from './harness.js';

interface Tables {
  readonly result: unknown;
  readonly entities: EntityTables;
  readonly entitiesMeta: NormalizedTables['entitiesMeta'];
  readonly memo: MemoCache;
}

/** Runs the benchmark job of this process with the list schema `ArticleList` and the user entity `User`. */
export async function rxRestPeer(name: string, ArticleList: readonly unknown[], User: unknown): Promise<void> {
  const Article = ArticleList[0];
  const read = (tables: Tables): readonly ArticleView[] =>
    tables.memo.denormalize(ArticleList, tables.result, tables.entities).data as readonly ArticleView[];
  const peer: Peer<Tables> = {
    name,
    keepsIdentity: true,
    write(input) {
      const { result, entities, entitiesMeta } = normalize(ArticleList, input as ArticleJson[]);
      return { result, entities, entitiesMeta, memo: new MemoCache() };
    },
    firstRead: (tables) => read(tables),
    read: (tables) => read(tables),
    writeUser(tables, user: UserJson) {
      const { entities, entitiesMeta } = normalize(User, user, [], tables);
      return { ...tables, entities, entitiesMeta };
    },
    writeArticle(tables, article: ArticleJson) {
      const { entities, entitiesMeta } = normalize(Article, article, [], tables);
      return { ...tables, entities, entitiesMeta };
    },
  };
  await main(peer as Peer);
}
