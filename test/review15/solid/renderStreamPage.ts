// Renders a page of streamPage.ts with renderToStringAsync (Solid's server build: run with tsx, not in jsdom) and
// prints its HTML and scripts, for streamArgs.dom.test.tsx. Argument: the page's name.
import { renderToStringAsync } from 'solid-js/web';
import { Controller } from '../../../core/index.js';
import { answering } from '../../review13/ssr/asyncPages.js';
import { streamPages } from './streamPage.js';

const page = streamPages[process.argv[2]!]!;
process.stdout.write(await renderToStringAsync(page(new Controller({ fetch: answering() }))));
