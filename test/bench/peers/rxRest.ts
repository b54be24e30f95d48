/** rx-rest at the schema layer: `normalize` into plain tables, `MemoCache.denormalize` to read. */
import { rxRestPeer } from '../rxRestPeer.js';
import { ArticleList, BenchUser } from '../rxRestSchemas.js';

await rxRestPeer('rx-rest (normalize + MemoCache)', ArticleList, BenchUser);
