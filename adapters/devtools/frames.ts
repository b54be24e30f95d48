/** One pending render at a time, on the next animation frame (a timer where there are no frames). */

/** Runs `render` once on the next frame after any number of `request()` calls. */
export class FrameScheduler {
  readonly #render: () => void;
  readonly #window: Window;
  #frame: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(window: Window, render: () => void) {
    this.#window = window;
    this.#render = render;
  }

  /** Whether a render is pending. */
  get pending(): boolean {
    return this.#frame !== undefined || this.#timer !== undefined;
  }

  /** Asks for a render on the next frame (one however many times it is asked). */
  request(): void {
    if (this.pending) return;
    const run = () => {
      this.#frame = this.#timer = undefined;
      this.#render();
    };
    if (typeof this.#window.requestAnimationFrame === 'function') this.#frame = this.#window.requestAnimationFrame(run);
    else this.#timer = setTimeout(run, 16);
  }

  /** Drops the pending render, if any. */
  cancel(): void {
    if (this.#frame !== undefined) this.#window.cancelAnimationFrame(this.#frame);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#frame = this.#timer = undefined;
  }
}
