import type { Subscription } from 'rxjs';

/** What a controller's `dispose()` ends besides its query cache: the managers' teardowns and the live connections. */
export class Teardowns {
  readonly #list: (() => void)[] = [];

  /** Keeps `teardown` (what a manager returned) for `run`, when it is a function. */
  add(teardown: (() => void) | void): void {
    if (typeof teardown === 'function') this.#list.push(teardown);
  }

  /** Ends `connection` on `run`, unless it ended before (then it is dropped from the list); returns it. */
  hold(connection: Subscription): Subscription {
    const stop = () => connection.unsubscribe();
    this.#list.push(stop);
    connection.add(() => {
      const index = this.#list.indexOf(stop);
      if (index >= 0) this.#list.splice(index, 1);
    });
    return connection;
  }

  /**
   * Runs every teardown kept, once, in the order they were kept. One that throws does not stop the
   * others: once all ran, its error is thrown (an `AggregateError` when several threw).
   */
  run(): void {
    const errors: unknown[] = [];
    for (const teardown of this.#list.splice(0)) {
      try {
        teardown();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} teardowns of the controller threw`);
  }
}
