// Runs on the server for the first page (its responses travel in the HTML) and in the browser on
// hydration (it reads them from the page: no request) and on client navigations (from the cache
// while the data is fresh).
import { error } from '@sveltejs/kit';
import { TodoResource, UserResource } from '$shared/api';
import { todoListArgs } from './todoArgs';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ parent, url }) => {
  const { controller } = await parent();
  const raw = url.searchParams.get('userId');
  const userId = raw === null || raw === '' ? undefined : Number(raw);
  if (userId !== undefined && !Number.isInteger(userId)) error(400, `userId must be a number, got ${raw}`);
  try {
    await Promise.all([
      controller.fetchIfStale(TodoResource.getList, todoListArgs(userId)),
      controller.fetchIfStale(UserResource.getList),
    ]);
  } catch (cause) {
    error(503, `The todo server could not be reached (${cause instanceof Error ? cause.message : String(cause)}).`);
  }
  return { userId };
};
