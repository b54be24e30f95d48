/**
 * Answers held by the test: each request to a gated route waits until the test releases it, so that a test
 * can run `invalidate`, `resetEntireStore`, `dispose`, a restore... between a request's start and its answer.
 */
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { createTodoServer } from '../fixtures/todoServer.js';
import { API } from '../fixtures/todoServer.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Held {
  readonly request: Request;
  readonly aborted: boolean;
  /** Answers with this JSON body (status 200 unless given). */
  json(body: JsonBodyType, status?: number): void;
  /** Answers with a network failure (status 0 for the client). */
  refuse(): void;
}

/** Holds every request to `method path` until the test answers it; `held` lists them in arrival order. */
export function gate(fake: ReturnType<typeof createTodoServer>, method: Method, path: string) {
  const held: Held[] = [];
  fake.server.use(
    http[method](`${API}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      fake.requests.push(`${request.method} ${url.pathname}${url.search}`);
      return new Promise<Response>((resolve) => {
        const entry = {
          request,
          aborted: false,
          json: (body: JsonBodyType, status = 200) => resolve(HttpResponse.json(body, { status })),
          refuse: () => resolve(HttpResponse.error()),
        };
        request.signal.addEventListener('abort', () => {
          entry.aborted = true;
          resolve(HttpResponse.error());
        });
        held.push(entry);
      });
    }),
  );
  return held;
}
