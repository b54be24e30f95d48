/**
 * `/api/*`: the REST server (json-server and its `/events` stream) behind the app's own origin, as vite's
 * proxy does for the other demos; in dev and in the built server alike. Bodies stream through (the live
 * stream included); the upstream request ends when the browser's does.
 */
import type { APIEvent } from '@solidjs/start/server';
import { restServerUrl } from '../../restServer';

/** Headers that describe the upstream body as it was sent, not as fetch hands it over (decoded). */
const DROPPED = ['content-encoding', 'content-length', 'transfer-encoding', 'connection'];

async function proxy({ request, params }: APIEvent): Promise<Response> {
  const url = new URL(request.url);
  const target = `${restServerUrl()}/${params.path ?? ''}${url.search}`;
  const headers = new Headers(request.headers);
  headers.delete('host');
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  try {
    const upstream = await fetch(target, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      signal: request.signal,
    });
    const answer = new Headers(upstream.headers);
    for (const name of DROPPED) answer.delete(name);
    return new Response(upstream.body, { status: upstream.status, headers: answer });
  } catch {
    return new Response(JSON.stringify({ message: 'The REST server is unreachable.' }), {
      status: 502,
      headers: { 'content-type': 'application/json' },
    });
  }
}

export const GET = proxy;
export const POST = proxy;
export const PUT = proxy;
export const PATCH = proxy;
export const DELETE = proxy;
