// A server load: it fetches on a controller of its own (one per request, with the request's fetch)
// and hands the page the controller's state as a snapshot (plain data SvelteKit serializes).
import { error } from '@sveltejs/kit';
import { Controller, NetworkError, takeSnapshot } from 'rx-rest';
import { TodoResource } from '$shared/api';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ fetch, params }) => {
  const id = Number(params.id);
  if (!Number.isInteger(id)) error(404, `No todo ${params.id}`);
  const controller = new Controller({ fetch });
  try {
    await controller.fetch(TodoResource.get, { id });
  } catch (cause) {
    if (cause instanceof NetworkError && cause.status === 404) error(404, `No todo ${id}`);
    error(503, `The todo server could not be reached (${cause instanceof Error ? cause.message : String(cause)}).`);
  }
  return { id, snapshot: takeSnapshot(controller) };
};
