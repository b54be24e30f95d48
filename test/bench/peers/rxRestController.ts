/** rx-rest through its Controller: `setResponse` to write, `getResponse` to read, `observe` for fan-out. */
import { Controller, RestEndpoint } from '../../../core/index.js';
import type { ArticleJson, UserJson } from '../data.js';
import { STREAMS } from '../batchWrites.js';
import { main, type ArticleView, type Peer } from '../harness.js';
import { ArticleList, BenchArticle, BenchUser } from '../rxRestSchemas.js';

let requests = 0;
/** No request may leave the benchmark: every observed key has a fresh stored result. */
const offline = {
  urlPrefix: 'http://rx-rest-bench.invalid',
  fetchResponse(): Promise<Response> {
    requests++;
    return Promise.reject(new Error('the benchmark must not fetch'));
  },
};
const getArticles = new RestEndpoint({ ...offline, path: '/articles', schema: ArticleList });
const getArticle = new RestEndpoint({ ...offline, path: '/articles/:id', schema: BenchArticle });
const getUser = new RestEndpoint({ ...offline, path: '/users/:id', schema: BenchUser });
const getUsers = new RestEndpoint({ ...offline, path: '/users', schema: [BenchUser] });
const getUserPage = new RestEndpoint({
  ...offline,
  path: '/users',
  searchParams: {} as { page: number },
  schema: [BenchUser],
});

const rxRestController: Peer<Controller> = {
  name: 'rx-rest Controller',
  keepsIdentity: true,
  write(input) {
    const controller = new Controller();
    // the parsed response as is (no `prepare`); `setResponse(endpoint, response)` does not type-check for an endpoint without arguments
    controller.setResponse(getArticles, {}, input as ArticleJson[]);
    return controller;
  },
  firstRead: (controller) => controller.getResponse(getArticles).data as readonly ArticleView[],
  read: (controller) => controller.getResponse(getArticles).data as readonly ArticleView[],
  writeUser(controller, user: UserJson) {
    controller.setResponse(getUser, { id: user.id }, user);
    return controller;
  },
  writeArticle(controller, article: ArticleJson) {
    controller.setResponse(getArticle, { id: article.id }, article);
    return controller;
  },
  singleWrites(users) {
    const controller = new Controller();
    controller.setResponse(getUsers, {}, users);
    return (user) => controller.setResponse(getUser, { id: user.id }, user);
  },
  batchWrites: {
    modes: { batch: 'rx-rest controller.set([User], rows)', loop: 'rx-rest controller.set(User, row) per row' },
    store(users) {
      const controller = new Controller();
      const pages = users.length / STREAMS;
      for (let page = 0; page < STREAMS; page++)
        controller.setResponse(getUserPage, { page }, users.slice(page * pages, page * pages + pages));
      return {
        subscribe(page, _size, emit) {
          let initial = true;
          const subscription = controller.observe(getUserPage, { page }).subscribe(({ data }) => {
            if (initial) initial = false;
            else emit(data!.map((user) => user.name));
          });
          return () => subscription.unsubscribe();
        },
        write(mode, rows) {
          if (mode === 'batch') controller.set([BenchUser], rows);
          else for (const row of rows) controller.set(BenchUser, row);
        },
        verify() {
          if (requests > 0) throw new Error(`rx-rest Controller: ${requests} requests went out`);
        },
      };
    },
  },
  fanOut(articles: ArticleJson[]) {
    const controller = new Controller();
    controller.setResponse(getArticles, {}, articles);
    for (const article of articles) controller.setResponse(getArticle, { id: article.id }, article);
    return {
      subscribe(id, emit) {
        let initial = true;
        const subscription = controller.observe(getArticle, { id }).subscribe(() => {
          if (initial) initial = false;
          else emit();
        });
        return () => subscription.unsubscribe();
      },
      writeUser(user) {
        controller.setResponse(getUser, { id: user.id }, user);
      },
      verify() {
        if (requests > 0) throw new Error(`rx-rest Controller: ${requests} requests went out`);
      },
    };
  },
};

await main(rxRestController as Peer);
