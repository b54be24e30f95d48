/**
 * The Queries tab: one row per request key (its state, the app's observer count, the age of its data);
 * the selected key's data, error and the records it reads, with Refetch, Invalidate and Remove.
 */
import type { QueryInspection, RequestMeta } from '../../core/index.js';
import type { Tab, TabContext } from './context.js';
import { el, matches, setAttribute, setText } from './dom.js';
import { describeAge, describeValue } from './format.js';
import { RowTable, type RowModel } from './rowTable.js';

/** A key's state as the panel names it. */
export type QueryStatus = 'fresh' | 'stale' | 'fetching' | 'paused' | 'error' | 'invalid';

/** The state of a key: its request (paused, fetching), else its meta (error, invalidated, expired). */
export function queryStatus(query: QueryInspection, meta: RequestMeta | undefined, now: number): QueryStatus {
  if (query.paused) return 'paused';
  if (query.fetching) return 'fetching';
  if (meta?.error !== undefined) return 'error';
  if (meta?.invalidated === true) return 'invalid';
  if (meta === undefined || now >= meta.expiresAt) return 'stale';
  return 'fresh';
}

/** The Queries tab. */
export class QueriesTab implements Tab {
  readonly element: HTMLElement;
  readonly #table: RowTable;
  readonly #more: HTMLElement;
  readonly #detail: HTMLElement;
  readonly #doc: Document;
  #selected: string | undefined;
  #context: TabContext | undefined;
  readonly #parts: ReturnType<typeof makeDetail>;
  /** What the detail shows now (it is drawn again only when one of these changes). */
  #shown: { key: string; version: number; status: string } | undefined;

  constructor(doc: Document) {
    this.#doc = doc;
    this.#table = new RowTable(doc, 'Queries', ['Key', 'State', 'Observers', 'Age'], (key) => this.select(key), [
      'key',
      undefined,
      'num',
      'num',
    ]);
    this.#more = el(doc, 'p', { class: 'note', hidden: true });
    this.#detail = el(doc, 'section', { class: 'detail', 'aria-label': 'Selected query', hidden: true });
    this.#parts = makeDetail(doc, this.#detail, (run) => {
      const context = this.#context;
      const key = this.#selected;
      if (context === undefined || key === undefined) return;
      try {
        // a key gone since the panel drew it (a reset, a collection): nothing to act on (an invalidation would
        // make a key with no data, a refetch a request the app never made)
        if (context.inspector.keys().includes(key)) run(context, context.inspector.query(key));
      } catch (error) {
        // a disposed controller refuses: the panel still shows its last state
        console.warn('rx-rest/devtools:', error);
      }
      if (!context.inspector.keys().includes(key)) this.#selected = undefined; // removed
      this.#shown = undefined;
      context.invalidate();
    });
    this.element = el(
      doc,
      'div',
      { class: 'split' },
      el(doc, 'div', {}, this.#table.element, this.#more),
      this.#detail,
    );
  }

  /** Selects a key (its detail shows at the next render). */
  select(key: string | undefined): void {
    this.#selected = key;
    this.#context?.invalidate();
  }

  render(context: TabContext): void {
    this.#context = context;
    const { state, filter, changed } = context;
    // after actions alone: only the rows of the keys they changed, when those are all shown and still stored
    if (changed !== 'all' && this.#table.selected === this.#selected) {
      const keys = [...changed].filter((key) => matches(filter, key));
      const stored = (key: string) => key in state.endpoints || key in state.meta;
      if (keys.every(stored) && this.#table.patch(keys.map((key) => this.#row(context, key)))) {
        if (this.#selected !== undefined) this.#renderDetail(context, this.#selection(context));
        return;
      }
    }
    const rows: RowModel[] = [];
    for (const key of context.inspector.keys()) if (matches(filter, key)) rows.push(this.#row(context, key));
    const left = this.#table.update(rows, this.#selected);
    setAttribute(this.#more, 'hidden', left === 0);
    setText(this.#more, left > 0 ? `${left} more keys: narrow them with the filter.` : '');
    if (rows.length === 0) {
      setAttribute(this.#more, 'hidden', false);
      setText(this.#more, filter ? 'No query matches the filter.' : 'No query yet.');
    }
    this.#renderDetail(context, this.#selection(context));
  }

  /** The row of one key. */
  #row({ inspector, state, now }: TabContext, key: string): RowModel {
    const query = inspector.query(key);
    const meta = state.meta[key];
    const status = queryStatus(query, meta, now);
    const age = meta ? describeAge(now - meta.date) : '–';
    return { id: key, cells: [[key], [status, `state-${status}`], [String(query.observers)], [age]] };
  }

  /** The selected key's inspection and state, if it is listed. */
  #selection({ inspector, state, now, filter }: TabContext) {
    const key = this.#selected;
    if (key === undefined || !matches(filter, key)) return undefined;
    const query = inspector.query(key);
    if (!(key in state.endpoints) && !(key in state.meta) && query.observers === 0) return undefined; // gone
    return { query, status: queryStatus(query, state.meta[key], now) };
  }

  #renderDetail(context: TabContext, selected: { query: QueryInspection; status: string } | undefined): void {
    const d = this.#parts;
    setAttribute(this.#detail, 'hidden', selected === undefined);
    if (selected === undefined) {
      this.#shown = undefined;
      return;
    }
    const { query, status } = selected;
    const shown = this.#shown;
    if (shown?.key === query.key && shown.version === context.version && shown.status === status) return;
    this.#shown = { key: query.key, version: context.version, status };
    const { controller, inspector, state } = context;
    const { endpoint, args } = query;
    const known = endpoint !== undefined && args !== undefined;
    setAttribute(d.refetch, 'disabled', !known || endpoint.sideEffect);
    setAttribute(d.invalidate, 'disabled', !known);
    let data: unknown = state.endpoints[query.key];
    let dataLabel = 'Stored result (normalized)';
    if (known) {
      try {
        const response = controller.getResponse(endpoint, ...args);
        if (response.data !== undefined) [data, dataLabel] = [response.data, 'Data'];
      } catch {
        // a disposed controller, or arguments its endpoint rejects: the stored result is shown
      }
    }
    setText(d.key, query.key);
    setText(
      d.info,
      `${endpoint?.name || endpoint?.method || 'unknown endpoint'} · ${status} · ${query.observers} observers`,
    );
    setText(d.dataLabel, dataLabel);
    setText(d.data, describeValue(data));
    const error = state.meta[query.key]?.error;
    setAttribute(d.errorLabel, 'hidden', error === undefined);
    setAttribute(d.error, 'hidden', error === undefined);
    setText(d.error, error === undefined ? '' : describeValue(error));
    const reads = inspector.reads(query.key);
    const text =
      reads === undefined ? 'unknown (not requested by this controller)' : reads.length === 0 ? 'no records' : '';
    setText(d.readsNote, text);
    setAttribute(d.readsNote, 'hidden', text === '');
    const signature = JSON.stringify(reads ?? []);
    if (d.reads.dataset.signature !== signature) {
      d.reads.dataset.signature = signature;
      d.reads.replaceChildren(
        ...(reads ?? []).map(([entity, pk]) => {
          const link = el(this.#doc, 'button', { type: 'button', class: 'link' }, `${entity} ${pk}`);
          link.addEventListener('click', () => context.show('Entities', [entity, pk]));
          return link;
        }),
      );
    }
  }
}

type Press = (run: (context: TabContext, query: QueryInspection) => void) => void;

/** The detail's elements, made once (a re-render keeps focus on its buttons). */
function makeDetail(doc: Document, detail: HTMLElement, press: Press) {
  const button = (label: string, run: (context: TabContext, query: QueryInspection) => void, extra = '') => {
    const b = el(doc, 'button', { type: 'button', class: `action ${extra}`.trim() }, label);
    b.addEventListener('click', () => press(run));
    return b;
  };
  const parts = {
    key: el(doc, 'pre', { 'data-part': 'key' }),
    info: el(doc, 'p'),
    refetch: button('Refetch', ({ controller }, { endpoint, args }) => {
      if (endpoint !== undefined && args !== undefined) controller.fetch(endpoint, ...args).catch(() => {});
    }),
    invalidate: button('Invalidate', ({ controller }, { endpoint, args }) => {
      if (endpoint !== undefined && args !== undefined) controller.invalidate(endpoint, ...args);
    }),
    remove: button('Remove', ({ inspector }, { key }) => inspector.remove(key), 'danger'),
    dataLabel: el(doc, 'h3'),
    data: el(doc, 'pre', { 'data-part': 'data' }),
    errorLabel: el(doc, 'h3', {}, 'Error'),
    error: el(doc, 'pre', { 'data-part': 'error' }),
    readsNote: el(doc, 'p'),
    reads: el(doc, 'div', { class: 'links' }),
  };
  detail.append(
    el(doc, 'h3', {}, 'Key'),
    parts.key,
    parts.info,
    el(doc, 'div', { class: 'buttons' }, parts.refetch, parts.invalidate, parts.remove),
    parts.dataLabel,
    parts.data,
    parts.errorLabel,
    parts.error,
    el(doc, 'h3', {}, 'Reads'),
    parts.readsNote,
    parts.reads,
  );
  return parts;
}
