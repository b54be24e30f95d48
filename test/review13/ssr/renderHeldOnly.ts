// Renders PartPage's held query alone (HeldPage) with renderToString from a controller that fetched it first, and
// prints the HTML, for syncHydration.dom.test.tsx (which hydrates it without handing the controller's state).
import { renderToString } from 'solid-js/web';
import { Controller } from '../../../core/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { HeldPage, list2, todo1 } from './partPage.js';

const controller = new Controller({
  retry: 0,
  fetch: (input) => Promise.resolve(Response.json(String(input).includes('userId') ? list2 : todo1)),
});
await controller.fetch(TodoResource.get, { id: 1 });
await controller.fetch(TodoResource.getList, { userId: 2 });
process.stdout.write(renderToString(HeldPage(controller)));
