/** rx-rest at the schema layer with each entity validated by zod 4 (see validatedSchemas.ts). */
import { rxRestPeer } from '../rxRestPeer.js';
import { ZOD, validatedModel } from '../validatedSchemas.js';

const { ArticleList, User } = validatedModel(ZOD);
await rxRestPeer('rx-rest + zod validators', ArticleList, User);
