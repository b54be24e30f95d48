/** The benchmark's data model as rx-rest entities (the peers declare the same model in their own terms). */
import { Entity } from '../../core/index.js';

export class BenchUser extends Entity {
  id = '';
  username = '';
  name = '';
  email = '';
  bio = '';
  avatarUrl = '';
  location = '';
  followers = 0;
  verified = false;
  joinedAt = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

export class BenchComment extends Entity {
  id = '';
  articleId = 0;
  body = '';
  likes = 0;
  flagged = false;
  edited = false;
  createdAt = '';
  updatedAt = '';
  author = BenchUser.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Comment';
  static override schema = { author: BenchUser };
}

export class BenchArticle extends Entity {
  id = 0;
  title = '';
  slug = '';
  summary = '';
  body = '';
  status = '';
  views = 0;
  likes = 0;
  published = false;
  createdAt = '';
  updatedAt = '';
  author = BenchUser.fromJS();
  comments: BenchComment[] = [];
  pk() {
    return `${this.id}`;
  }
  static override key = 'Article';
  static override schema = { author: BenchUser, comments: [BenchComment] };
}

/** The list schema the cases read and write. */
export const ArticleList = [BenchArticle] as const;
