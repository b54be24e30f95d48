/**
 * The controller's default environment in a browser: the network, the page's visibility and focus as
 * Observables of `window` and `document` events.
 */
import { Observable } from 'rxjs';
import type { ControllerEnvironment } from './options.js';

/**
 * The browser's environment: `online`/`offline` events on `window`, `visibilitychange` on `document`,
 * `focus` on `window`; each starts from the current value. Where there is no `window` (Node, a
 * server render), none.
 */
export function browserEnvironment(): ControllerEnvironment {
  if (typeof window === 'undefined' || typeof document === 'undefined' || typeof window.addEventListener !== 'function')
    return {};
  const visible = () => document.visibilityState !== 'hidden';
  return {
    online$: events(
      window,
      ['online', 'offline'],
      (type) => type === 'online',
      () => navigator.onLine !== false,
    ),
    visible$: events(document, ['visibilitychange'], visible, visible),
    focus$: events(window, ['focus'], () => true),
  };
}

/**
 * The events `types` of `target` as values (`read` of the event's type), starting with `initial()` when
 * given. Written out rather than composed from rxjs's `fromEvent`/`merge`/`map`, which would add about
 * 3 KiB gzip to every app's bundle.
 */
function events<T>(
  target: EventTarget,
  types: readonly string[],
  read: (type: string) => T,
  initial?: () => T,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    if (initial) subscriber.next(initial());
    const listener = (event: Event) => subscriber.next(read(event.type));
    for (const type of types) target.addEventListener(type, listener);
    return () => {
      for (const type of types) target.removeEventListener(type, listener);
    };
  });
}
