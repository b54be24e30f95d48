/**
 * The app's environment as the controller sees it: whether the network is up, whether the page is
 * visible, and when the window regains focus. Browsers give it through `window`/`document` events;
 * tests give Subjects; on a server there is none (always online and visible).
 */
import { Subscription } from 'rxjs';
import type { ControllerEnvironment } from './options.js';

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
  readonly #subscriptions = new Subscription();

  constructor({ online$, visible$, focus$ }: ControllerEnvironment, listener: EnvironmentListener) {
    const subscriptions = this.#subscriptions;
    if (online$) {
      subscriptions.add(
        online$.subscribe((online) => {
          if (online === this.#online) return;
          this.#online = online;
          if (online) {
            this.#resume();
            listener.onReconnect();
          }
          listener.onPollingChange();
        }),
      );
    }
    if (visible$) {
      subscriptions.add(
        visible$.subscribe((visible) => {
          if (visible === this.#visible) return;
          this.#visible = visible;
          listener.onPollingChange();
        }),
      );
    }
    if (focus$) subscriptions.add(focus$.subscribe(() => listener.onFocus()));
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

  /** Whoever waits for the network stops waiting (each leaves the set; a Set's iteration skips none). */
  #resume(): void {
    for (const resume of this.#waiting) resume();
  }

  /** Stops listening; whoever waits for the network stops waiting. */
  dispose(): void {
    this.#subscriptions.unsubscribe();
    this.#resume();
  }
}
