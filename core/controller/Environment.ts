/**
 * The app's environment as the controller sees it: whether the network is up, whether the page is
 * visible, and when the window regains focus. Browsers give it through `window`/`document` events;
 * tests give Subjects; on a server there is none (always online and visible).
 */
import { Observable, type Subscription } from 'rxjs';

/** Where the controller learns about the network, the page's visibility and focus. */
export interface ControllerEnvironment {
  /** `true` when the network is up, `false` when it is down. */
  readonly online$?: Observable<boolean> | undefined;
  /** `true` when the page is visible, `false` when it is hidden (a background tab). */
  readonly visible$?: Observable<boolean> | undefined;
  /** Emits when the window regains focus. */
  readonly focus$?: Observable<unknown> | undefined;
}

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

/** What the environment tells its listener. */
export interface EnvironmentListener {
  /** The network came back (`online$` emitted `true` after `false`). */
  onReconnect(): void;
  /** Polling may run now, or must pause (the page was hidden or the network went down, or back). */
  onPollingChange(): void;
  /** The window regained focus. */
  onFocus(): void;
}

/** The environment's current values, and waiting for the network. */
export class Environment {
  #online = true;
  #visible = true;
  readonly #waiting = new Set<() => void>();
  readonly #subscriptions: Subscription[] = [];

  constructor(environment: ControllerEnvironment, listener: EnvironmentListener) {
    const { online$, visible$, focus$ } = environment;
    if (online$) {
      this.#subscriptions.push(
        online$.subscribe((online) => {
          if (online === this.#online) return;
          this.#online = online;
          if (online) {
            const waiting = [...this.#waiting];
            this.#waiting.clear();
            for (const resume of waiting) resume();
            listener.onReconnect();
          }
          listener.onPollingChange();
        }),
      );
    }
    if (visible$) {
      this.#subscriptions.push(
        visible$.subscribe((visible) => {
          if (visible === this.#visible) return;
          this.#visible = visible;
          listener.onPollingChange();
        }),
      );
    }
    if (focus$) this.#subscriptions.push(focus$.subscribe(() => listener.onFocus()));
  }

  /** Whether the network is up (`online$` last emitted `true`, or never emitted). */
  get online(): boolean {
    return this.#online;
  }

  /** Whether the page is visible (`visible$` last emitted `true`, or never emitted). */
  get visible(): boolean {
    return this.#visible;
  }

  /** Resolves when the network is up again, or at once when it is; resolves early when `signal` aborts. */
  whenOnline(signal: AbortSignal): Promise<void> {
    if (this.#online || signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#waiting.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.#waiting.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Stops listening; whoever waits for the network stops waiting. */
  dispose(): void {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const resume of waiting) resume();
  }
}
