/** What every tab renders from, built once per frame by the panel. */
import type { Controller, ControllerInspector, State } from '../../core/index.js';
import type { ActionLog } from './actionLog.js';

/** The panel's tabs. */
export type TabName = 'Queries' | 'Entities' | 'Actions';

/** One frame's view of the controller, and how a tab asks the panel to show something else. */
export interface TabContext {
  readonly doc: Document;
  readonly controller: Controller;
  readonly inspector: ControllerInspector;
  /** The current state (`inspector.state()`: read it now, keep nothing of it). */
  readonly state: State;
  /** Counts the actions seen: a tab redraws what it shows of the state when it changed. */
  readonly version: number;
  /** The controller's clock at this frame. */
  readonly now: number;
  /** The filter box's text, lower case and trimmed ('' matches everything). */
  readonly filter: string;
  readonly log: ActionLog;
  /**
   * The request keys actions changed since the last render, or `'all'` when anything else may have
   * changed (the first render, a tick, the filter, a tab, a reset): a tab may redraw only those rows.
   */
  readonly changed: ReadonlySet<string> | 'all';
  /** Shows a query (`Queries`, its key) or a record (`Entities`, `[entity key, pk]`). */
  show(tab: 'Queries', key: string): void;
  show(tab: 'Entities', record: readonly [string, string]): void;
  /** Asks for another render (after a button changed something). */
  invalidate(): void;
}

/** A tab's body: renders from a context when it is the visible tab. */
export interface Tab {
  readonly element: HTMLElement;
  render(context: TabContext): void;
}
