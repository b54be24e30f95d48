// The server load's snapshot goes into the page's controller (the request's on the server, the tab's
// in the browser) before the page renders: its query shows the todo at once, without a request.
import { restoreSnapshot } from 'rx-rest';
import type { PageLoad } from './$types';

export const load: PageLoad = async ({ data, parent }) => {
  const { controller } = await parent();
  restoreSnapshot(controller, data.snapshot);
  return { id: data.id };
};
