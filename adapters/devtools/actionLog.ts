/** The panel's log of `controller.actions$`: the latest actions, newest first, as the Actions tab shows them. */
import type { ControllerAction } from '../../core/index.js';

/** One logged action. */
export interface LoggedAction {
  /** Increasing: the row's identity. */
  readonly id: number;
  readonly action: ControllerAction;
  /** When it was logged (ms since the epoch). */
  readonly at: number;
  /** The request key it concerns, or a summary of its keys. */
  readonly key: string;
}

/** What an action concerns, in one line: its key, else its keys. */
function keyOf(action: ControllerAction): string {
  if (action.key !== undefined) return action.key;
  const keys = action.keys ?? [];
  if (keys.length === 1) return keys[0]!;
  if (keys.length > 1) return `${keys[0]} (+${keys.length - 1})`;
  return action.endpoint?.name ?? '';
}

/** A bounded log: the oldest entries go once it holds `capacity`. */
export class ActionLog {
  readonly #capacity: number;
  #entries: LoggedAction[] = [];
  #next = 1;

  constructor(capacity = 500) {
    this.#capacity = capacity;
  }

  /** Adds an action (cheap: the panel calls it for every action while it is open). */
  push(action: ControllerAction, at: number): void {
    this.#entries.push({ id: this.#next++, action, at, key: keyOf(action) });
    if (this.#entries.length > this.#capacity * 2) this.#entries = this.#entries.slice(-this.#capacity);
  }

  /** The kept actions, newest first. */
  newestFirst(): LoggedAction[] {
    return this.#entries.slice(-this.#capacity).reverse();
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries = [];
  }
}
