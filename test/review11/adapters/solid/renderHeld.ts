// Renders HeldPage with renderToString (Solid's server build: run with tsx, not in jsdom) from a controller that
// fetched the page's data first, and prints the HTML and that controller's state as JSON, for heldHydration.dom.test.tsx.
import { renderToString } from 'solid-js/web';
import { Controller } from '../../../../core/index.js';
import { TodoResource } from '../../../fixtures/todoResource.js';
import { HeldPage, heldTodos } from './heldPage.js';

const controller = new Controller({ retry: 0, fetch: () => Promise.resolve(Response.json(heldTodos)) });
await controller.fetch(TodoResource.getList, { userId: 1 });
const html = renderToString(HeldPage(controller));
process.stdout.write(JSON.stringify({ html, state: controller.getState() }));
