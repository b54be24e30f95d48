// Renders PartPage with renderToString (Solid's server build: run with tsx, not in jsdom) from a controller that
// fetched todo 1 only, and prints the HTML and that controller's state as JSON, for partHydration.dom.test.tsx.
import { renderToString } from 'solid-js/web';
import { Controller } from '../../../core/index.js';
import { TodoResource } from '../../fixtures/todoResource.js';
import { PartPage, todo1 } from './partPage.js';

const controller = new Controller({ retry: 0, fetch: () => Promise.resolve(Response.json(todo1)) });
await controller.fetch(TodoResource.get, { id: 1 });
const html = renderToString(PartPage(controller));
process.stdout.write(JSON.stringify({ html, state: controller.getState() }));
