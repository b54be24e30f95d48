// The layout of the review's Solid pages (docs/ssr-solidstart.md's): written without JSX so that Solid's server build
// (renderToString and friends, in Node) and its browser build (hydrate, in jsdom) run the same components.
import { createComponent, ErrorBoundary, Suspense, type JSX } from 'solid-js';
import { escape, isServer, ssr } from 'solid-js/web';
import type { Controller } from '../../../core/index.js';
import { ControllerProvider } from '../../../adapters/solid/index.js';

/** `<p>{text()}</p>` as compiled JSX gives it: a template on the server, a text node that follows `text` in the browser. */
export function paragraph(text: () => string): JSX.Element {
  if (isServer) return ssr(['<p>', '</p>'], escape(text as unknown as string)) as unknown as JSX.Element;
  return text as unknown as JSX.Element;
}

/**
 * `<ControllerProvider><Suspense fallback="Loading…"><ErrorBoundary>` around `body`, the guide's layout; without
 * `failed` (what the boundary shows for an error), no `<ErrorBoundary>`.
 */
export function layout(
  controller: Controller,
  body: () => unknown,
  failed?: (error: Error & { status?: number }) => string,
): () => JSX.Element {
  const component = () => createComponent(body as () => JSX.Element, {});
  return () =>
    createComponent(ControllerProvider, {
      controller,
      get children() {
        return createComponent(Suspense, {
          fallback: 'Loading…',
          get children() {
            if (!failed) return component();
            return createComponent(ErrorBoundary, {
              fallback: failed,
              get children() {
                return component();
              },
            });
          },
        });
      },
    });
}
