/** rx-rest at the schema layer with each entity validated by valibot 1 (see validatedSchemas.ts). */
import { rxRestPeer } from '../rxRestPeer.js';
import { VALIBOT, validatedModel } from '../validatedSchemas.js';

const { ArticleList, User } = validatedModel(VALIBOT);
await rxRestPeer('rx-rest + valibot validators', ArticleList, User);
