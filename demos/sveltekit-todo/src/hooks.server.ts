/**
 * The REST server behind `/api`, as the other demos' vite proxy does, but in the app itself: on the
 * server, SvelteKit's `event.fetch('/api/...')` comes here without leaving the process, and the
 * browser's requests come here too, in `vite dev` and in the production build (`node build`), where
 * there is no vite proxy. `RX_REST_DEMO_API` says where the REST server listens.
 */
import type { Handle } from '@sveltejs/kit';

const api = () => process.env.RX_REST_DEMO_API ?? 'http://127.0.0.1:3210';

/** Response headers that describe the upstream body's encoding: `fetch` decoded it already. */
const ENCODING = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection']);

async function proxy(request: Request, path: string): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete('host');
  headers.delete('connection');
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  let upstream: Response;
  try {
    upstream = await fetch(`${api()}${path}`, { method: request.method, headers, body, signal: request.signal });
  } catch {
    return Response.json({ message: 'The REST server is unreachable.' }, { status: 502 });
  }
  const out = new Headers();
  for (const [name, value] of upstream.headers) if (!ENCODING.has(name)) out.set(name, value);
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: out });
}

export const handle: Handle = async ({ event, resolve }) => {
  const { pathname, search } = event.url;
  if (pathname === '/api' || pathname.startsWith('/api/')) return proxy(event.request, pathname.slice(4) + search);
  return resolve(event);
};
