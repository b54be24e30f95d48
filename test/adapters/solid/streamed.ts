// Reading Solid's renderToStream in the server-rendering tests.
import type { JSX } from 'solid-js';
import { renderToStream } from 'solid-js/web';

/** Reads a whole stream of `renderToStream`, and the first chunk it wrote. */
export function streamed(code: () => JSX.Element): Promise<{ html: string; first: string }> {
  return new Promise((resolve) => {
    const chunks: string[] = [];
    const sink = {
      write: (chunk: string) => void chunks.push(chunk),
      end: () => resolve({ html: chunks.join(''), first: chunks[0] ?? '' }),
    };
    renderToStream(code).pipe(sink);
  });
}
