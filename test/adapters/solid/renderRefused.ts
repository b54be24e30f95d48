// Renders RefusedPage as a server would (Solid's server build: run with tsx, not in jsdom) and prints the page:
// the HTML and the scripts that carry what its queries resolved, for ssrHydration.dom.test.tsx to hydrate.
import { renderToStringAsync } from 'solid-js/web';
import { RefusedPage, refusingController } from './refusedPage.js';

const html = await renderToStringAsync(RefusedPage(refusingController(), {}));
process.stdout.write(html);
