/**
 * The benchmark's model with a `static validator` on each entity, written with zod and with valibot (case A
 * with validation on, beside the same model without). Nested entities are declared as `unknown` in their
 * parent's validator: their own validator checks them.
 */
import * as v from 'valibot';
import { z } from 'zod';
import type { StandardSchemaV1 } from '../../core/index.js';
import { BenchArticle, BenchComment, BenchUser } from './rxRestSchemas.js';

/** The three validators of the model. */
interface ModelValidators {
  readonly user: StandardSchemaV1;
  readonly comment: StandardSchemaV1;
  readonly article: StandardSchemaV1;
}

const zodUser = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  bio: z.string(),
  avatarUrl: z.string(),
  location: z.string(),
  followers: z.number(),
  verified: z.boolean(),
  joinedAt: z.string(),
});

/** zod 4. */
export const ZOD: ModelValidators = {
  user: zodUser,
  comment: z.object({
    id: z.string(),
    articleId: z.number(),
    body: z.string(),
    likes: z.number(),
    flagged: z.boolean(),
    edited: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    author: z.unknown(),
  }),
  article: z.object({
    id: z.number(),
    title: z.string(),
    slug: z.string(),
    summary: z.string(),
    body: z.string(),
    status: z.string(),
    views: z.number(),
    likes: z.number(),
    published: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    author: z.unknown(),
    comments: z.array(z.unknown()),
  }),
};

/** valibot 1. */
export const VALIBOT: ModelValidators = {
  user: v.object({
    id: v.string(),
    username: v.string(),
    name: v.string(),
    email: v.string(),
    bio: v.string(),
    avatarUrl: v.string(),
    location: v.string(),
    followers: v.number(),
    verified: v.boolean(),
    joinedAt: v.string(),
  }),
  comment: v.object({
    id: v.string(),
    articleId: v.number(),
    body: v.string(),
    likes: v.number(),
    flagged: v.boolean(),
    edited: v.boolean(),
    createdAt: v.string(),
    updatedAt: v.string(),
    author: v.unknown(),
  }),
  article: v.object({
    id: v.number(),
    title: v.string(),
    slug: v.string(),
    summary: v.string(),
    body: v.string(),
    status: v.string(),
    views: v.number(),
    likes: v.number(),
    published: v.boolean(),
    createdAt: v.string(),
    updatedAt: v.string(),
    author: v.unknown(),
    comments: v.array(v.unknown()),
  }),
};

/** The model's entities with these validators (same keys and fields as the unvalidated ones). */
export function validatedModel(validators: ModelValidators) {
  class User extends BenchUser {
    static override validator = validators.user;
  }
  class Comment extends BenchComment {
    static override validator = validators.comment;
    static override schema = { author: User };
  }
  class Article extends BenchArticle {
    static override validator = validators.article;
    static override schema = { author: User, comments: [Comment] };
  }
  return { User, ArticleList: [Article] as const };
}
