/**
 * The in-page panel of one controller: a host element with an open shadow root holding the toggle and,
 * when open, the tabs. Open, it follows `actions$` and renders at most once per animation frame (and once a
 * second, for ages and requests in flight); closed, it holds no subscription, timer or frame. While the app
 * has removed its host from the document, it only logs actions and draws nothing.
 */
import {
  inspectController,
  type Controller,
  type ControllerAction,
  type ControllerInspector,
} from '../../core/index.js';
import { ActionLog } from './actionLog.js';
import { ActionsTab } from './actionsTab.js';
import type { Tab, TabContext, TabName } from './context.js';
import { el, setAttribute } from './dom.js';
import { EntitiesTab } from './entitiesTab.js';
import { FrameScheduler } from './frames.js';
import { QueriesTab } from './queriesTab.js';
import type { MountDevtoolsOptions } from './mount.js';
import { STYLES } from './styles.js';

const TABS: readonly TabName[] = ['Queries', 'Entities', 'Actions'];
/** How often an open panel redraws without actions (ages, requests started or paused). */
const TICK_MS = 1_000;
let panelIds = 0;

/** One mounted panel. */
export class Panel {
  readonly host: HTMLElement;
  readonly #controller: Controller;
  readonly #inspector: ControllerInspector;
  readonly #doc: Document;
  readonly #toggle: HTMLButtonElement;
  readonly #body: HTMLElement;
  readonly #filter: HTMLInputElement;
  readonly #tabButtons = new Map<TabName, HTMLButtonElement>();
  readonly #panels = new Map<TabName, HTMLElement>();
  readonly #tabs: { readonly Queries: QueriesTab; readonly Entities: EntitiesTab; readonly Actions: ActionsTab };
  readonly #log = new ActionLog();
  readonly #frames: FrameScheduler;
  #active: TabName = 'Queries';
  #open = false;
  #actions: { unsubscribe(): void } | undefined;
  #tick: ReturnType<typeof setInterval> | undefined;
  #destroyed = false;
  /** Whether the controller was disposed (its `actions$` completed): the panel shows its last state. */
  #ended = false;
  readonly #status: HTMLElement;
  /** The request keys actions changed since the last render (`'all'`: redraw everything). */
  #changed: Set<string> | 'all' = 'all';
  /** Counts actions and redraws (tabs compare it instead of the state, whose tables change in place). */
  #version = 0;

  constructor(controller: Controller, doc: Document, options: MountDevtoolsOptions) {
    this.#controller = controller;
    this.#inspector = inspectController(controller);
    this.#doc = doc;
    this.#frames = new FrameScheduler(doc.defaultView!, () => this.render());
    const id = `rx-rest-devtools-${++panelIds}`;
    this.host = el(doc, 'div', { 'data-rx-rest-devtools': '' });
    const shadow = this.host.attachShadow({ mode: 'open' });
    this.#toggle = el(
      doc,
      'button',
      {
        type: 'button',
        class: 'toggle',
        'aria-label': 'rx-rest devtools',
        'aria-expanded': 'false',
        'aria-controls': id,
      },
      'rx-rest',
    );
    this.#toggle.addEventListener('click', () => (this.#open ? this.close() : this.open()));
    this.#tabs = { Queries: new QueriesTab(doc), Entities: new EntitiesTab(doc), Actions: new ActionsTab(doc) };
    const tablist = el(doc, 'div', { role: 'tablist', 'aria-label': 'rx-rest devtools' });
    for (const name of TABS) {
      const tab = el(
        doc,
        'button',
        { type: 'button', role: 'tab', id: `${id}-${name}`, 'aria-controls': `${id}-${name}-panel` },
        name,
      );
      tab.addEventListener('click', () => this.select(name));
      this.#tabButtons.set(name, tab);
      tablist.append(tab);
      const panel = el(
        doc,
        'div',
        { role: 'tabpanel', id: `${id}-${name}-panel`, 'aria-labelledby': `${id}-${name}`, tabindex: -1 },
        this.#tabs[name].element,
      );
      this.#panels.set(name, panel);
    }
    tablist.addEventListener('keydown', (event) => this.#tabKey(event));
    this.#filter = el(doc, 'input', { type: 'search', class: 'filter', placeholder: 'Filter', 'aria-label': 'Filter' });
    this.#filter.addEventListener('input', () => this.#redraw());
    const reset = el(doc, 'button', { type: 'button', class: 'action danger' }, 'Reset store');
    reset.addEventListener('click', () => {
      try {
        this.#controller.resetEntireStore();
      } catch (error) {
        console.warn('rx-rest/devtools: Reset store failed:', error);
      }
      this.#redraw();
    });
    const bar = el(doc, 'div', { class: 'bar' }, tablist, this.#filter, reset);
    this.#status = el(doc, 'p', { role: 'status', class: 'note', hidden: true });
    this.#body = el(
      doc,
      'div',
      { class: 'panel', id, role: 'region', 'aria-label': 'rx-rest devtools panel', hidden: true },
      bar,
      this.#status,
      ...this.#panels.values(),
    );
    const root = el(doc, 'div', { class: `root ${options.position ?? 'bottom-right'}` }, this.#toggle, this.#body);
    root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#open) {
        event.stopPropagation();
        this.close();
        this.#toggle.focus();
      }
    });
    shadow.append(el(doc, 'style', {}, STYLES), root);
    this.#showTab();
    (options.target ?? doc.body).append(this.host);
    if (options.initialIsOpen) this.open();
  }

  /** Whether the panel is open. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** Whether `destroy` ran. */
  get destroyed(): boolean {
    return this.#destroyed;
  }

  /** Opens the panel: follows the controller and draws now. */
  open(): void {
    if (this.#open || this.#destroyed) return;
    this.#open = true;
    setAttribute(this.#toggle, 'aria-expanded', 'true');
    setAttribute(this.#body, 'hidden', false);
    this.#actions = this.#controller.actions$.subscribe({
      next: (action) => {
        this.#version++;
        this.#log.push(action, Date.now());
        // out of the document (the app removed the host): logged, drawn in full once it is back
        if (!this.host.isConnected) this.#changed = 'all';
        else {
          this.#note(action);
          this.#frames.request();
        }
      },
      complete: () => this.#end(),
    });
    // a disposed controller's actions$ completes at once: nothing more to follow
    // the tick also notices the app putting a removed host back, and draws what changed meanwhile
    if (!this.#ended) this.#tick = setInterval(() => this.host.isConnected && this.#redraw(), TICK_MS);
    this.#changed = 'all';
    this.render(true);
  }

  /** Closes the panel: no subscription, timer or frame is left. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    setAttribute(this.#toggle, 'aria-expanded', 'false');
    setAttribute(this.#body, 'hidden', true);
    this.#stop();
  }

  /** Shows a tab. */
  select(tab: TabName): void {
    this.#active = tab;
    this.#showTab();
    this.#redraw();
  }

  /** Removes the host and stops everything. */
  destroy(): void {
    if (this.#destroyed) return;
    this.close();
    this.#destroyed = true;
    this.host.remove();
  }

  /** Puts the host, which the app removed from the document, into `parent`, and draws it now. */
  reattach(parent: Element): void {
    parent.append(this.host);
    this.#changed = 'all';
    this.render();
  }

  /**
   * Draws the visible tab now (the frame scheduler calls it); nothing while the host is out of the document,
   * unless `always` (the opening: a target the app puts into the page afterwards shows it drawn).
   */
  render(always = false): void {
    if (!this.#open) return;
    this.#frames.cancel();
    if (!always && !this.host.isConnected) {
      this.#changed = 'all';
      return;
    }
    const context: TabContext = {
      doc: this.#doc,
      controller: this.#controller,
      inspector: this.#inspector,
      // not getState(): a handed-out state makes the store copy the tables of its next write
      state: this.#inspector.state(),
      version: this.#changed === 'all' ? ++this.#version : this.#version,
      now: this.#inspector.now(),
      filter: this.#filter.value.trim().toLowerCase(),
      log: this.#log,
      changed: this.#changed,
      show: (tab: TabName, target: string | readonly [string, string]) => {
        if (tab === 'Queries') this.#tabs.Queries.select(target as string);
        else if (tab === 'Entities') this.#tabs.Entities.select(...(target as readonly [string, string]));
        this.#filter.value = '';
        this.select(tab);
      },
      invalidate: () => this.#redraw(),
    };
    this.#changed = new Set();
    const tab: Tab = this.#tabs[this.#active];
    try {
      tab.render(context);
    } catch (error) {
      console.warn('rx-rest/devtools: could not draw the panel:', error);
    }
  }

  /** Asks for a redraw of everything on the next frame. */
  #redraw(): void {
    this.#changed = 'all';
    this.#frames.request();
  }

  /** The controller was disposed: stop following it, say so, and draw its last state once more. */
  #end(): void {
    this.#ended = true;
    if (this.#tick !== undefined) clearInterval(this.#tick);
    this.#tick = undefined;
    this.#status.textContent = 'This controller was disposed: the panel shows its last state.';
    setAttribute(this.#status, 'hidden', false);
    this.#redraw();
  }

  /** Notes the request keys an action changed (for a redraw of just their rows). */
  #note(action: ControllerAction): void {
    const changed = this.#changed;
    if (changed === 'all') return;
    const changes = action.changes;
    if (changes?.endpoints === 'all' || changes?.entities === 'all' || this.#active !== 'Queries') {
      this.#changed = 'all';
      return;
    }
    if (action.key !== undefined) changed.add(action.key);
    for (const key of action.keys ?? []) changed.add(key);
    for (const key of changes?.endpoints ?? []) changed.add(key);
  }

  #stop(): void {
    this.#actions?.unsubscribe();
    this.#actions = undefined;
    if (this.#tick !== undefined) clearInterval(this.#tick);
    this.#tick = undefined;
    this.#frames.cancel();
  }

  #showTab(): void {
    for (const name of TABS) {
      const selected = name === this.#active;
      const button = this.#tabButtons.get(name)!;
      setAttribute(button, 'aria-selected', selected ? 'true' : 'false');
      setAttribute(button, 'tabindex', selected ? 0 : -1);
      setAttribute(this.#panels.get(name)!, 'hidden', !selected);
    }
  }

  /** Arrow keys, Home and End move between tabs (and show them). */
  #tabKey(event: KeyboardEvent): void {
    const at = TABS.indexOf(this.#active);
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (at + TABS.length - 1) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    const name = TABS[next]!;
    this.select(name);
    this.#tabButtons.get(name)!.focus();
  }
}
