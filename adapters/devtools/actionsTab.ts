/**
 * The Actions tab: the optimistic layers in flight, then the `actions$` log newest first (time, type,
 * key, what changed); the selected action's changes in full.
 */
import type { ControllerAction } from '../../core/index.js';
import type { LoggedAction } from './actionLog.js';
import type { Tab, TabContext } from './context.js';
import { el, matches, setAttribute, setText } from './dom.js';
import { describeAge, describeTime, describeValue } from './format.js';
import { RowTable, type RowModel } from './rowTable.js';

/** What an action changed, in a few words: `2 records, 1 key`, `everything`. */
export function describeChanges(action: ControllerAction): string {
  const changes = action.changes;
  if (changes === undefined) return action.error ? `error: ${action.error.message}` : '';
  if (changes.entities === 'all' || changes.endpoints === 'all') return 'everything';
  const parts: string[] = [];
  const records = changes.entities.length;
  const keys = changes.endpoints.length;
  if (records > 0) parts.push(`${records} record${records === 1 ? '' : 's'}`);
  if (keys > 0) parts.push(`${keys} key${keys === 1 ? '' : 's'}`);
  if (changes.optimistic) parts.push('optimistic layers');
  return parts.join(', ') || 'nothing';
}

/** The Actions tab. */
export class ActionsTab implements Tab {
  readonly element: HTMLElement;
  readonly #table: RowTable;
  readonly #layers: HTMLElement;
  readonly #note: HTMLElement;
  readonly #detail: HTMLPreElement;
  readonly #detailBox: HTMLElement;
  readonly #doc: Document;
  #selected: string | undefined;
  #context: TabContext | undefined;
  #layersShown: unknown;

  constructor(doc: Document) {
    this.#doc = doc;
    this.#table = new RowTable(doc, 'Actions', ['Time', 'Type', 'Key', 'Changes'], (id) => this.#select(id), [
      undefined,
      undefined,
      'key',
      undefined,
    ]);
    this.#layers = el(doc, 'section', { class: 'layers', 'aria-label': 'Optimistic layers in flight' });
    this.#note = el(doc, 'p', { class: 'note' });
    this.#detail = el(doc, 'pre', { 'data-part': 'action' });
    this.#detailBox = el(
      doc,
      'section',
      { class: 'detail', 'aria-label': 'Selected action', hidden: true },
      el(doc, 'h3', {}, 'Action'),
      this.#detail,
    );
    this.element = el(
      doc,
      'div',
      { class: 'split' },
      el(doc, 'div', {}, this.#layers, this.#table.element, this.#note),
      this.#detailBox,
    );
  }

  #select(id: string): void {
    this.#selected = id;
    this.#context?.invalidate();
  }

  render(context: TabContext): void {
    this.#context = context;
    const { filter, log } = context;
    this.#renderLayers(context);
    const rows: RowModel[] = [];
    let selected: LoggedAction | undefined;
    for (const entry of log.newestFirst()) {
      const { action } = entry;
      if (!matches(filter, action.type, entry.key, action.endpoint?.name)) continue;
      const id = String(entry.id);
      if (id === this.#selected) selected = entry;
      rows.push({
        id,
        cells: [[describeTime(entry.at)], [action.type], [entry.key], [describeChanges(action)]],
      });
    }
    const left = this.#table.update(rows, this.#selected);
    setText(
      this.#note,
      rows.length === 0
        ? filter
          ? 'No action matches the filter.'
          : 'No action since the panel opened.'
        : left > 0
          ? `${left} older actions not shown.`
          : '',
    );
    setAttribute(this.#detailBox, 'hidden', selected === undefined);
    if (selected !== undefined) {
      const { action } = selected;
      setText(
        this.#detail,
        describeValue({
          type: action.type,
          key: action.key,
          keys: action.keys,
          endpoint: action.endpoint?.name,
          args: action.args,
          error: action.error,
          changes: action.changes,
        }),
      );
    }
  }

  #renderLayers({ state, now, filter, version }: TabContext): void {
    const layers = state.optimistic;
    const shownFor = `${version}\u0000${filter}`;
    if (this.#layersShown === shownFor) return;
    this.#layersShown = shownFor;
    const doc = this.#doc;
    const shown = layers.filter((layer) => matches(filter, layer.key));
    this.#layers.replaceChildren(
      el(doc, 'h3', {}, `Optimistic layers in flight: ${layers.length}`),
      ...shown.map((layer) =>
        el(
          doc,
          'details',
          {},
          el(doc, 'summary', {}, `${layer.key} · started ${describeAge(now - layer.fetchedAt)} ago`),
          el(doc, 'pre', {}, describeValue(layer.response)),
        ),
      ),
    );
  }
}
