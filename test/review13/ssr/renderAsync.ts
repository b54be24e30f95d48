// Renders a page of asyncPages.ts with renderToStringAsync (Solid's server build: run with tsx, not in jsdom) and
// prints its HTML and scripts, for asyncHydration.dom.test.tsx. Argument: the page's name.
import { renderToStringAsync } from 'solid-js/web';
import { Controller } from '../../../core/index.js';
import { answering, pages } from './asyncPages.js';

const page = pages[process.argv[2]!]!;
process.stdout.write(await renderToStringAsync(page(new Controller({ fetch: answering() }))));
