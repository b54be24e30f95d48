/**
 * The Entities tab: one row per entity table with its record count; the selected table's records (by pk);
 * the selected record's stored value as JSON and the queries that read it.
 */
import type { Tab, TabContext } from './context.js';
import { el, matches, setAttribute, setText } from './dom.js';
import { describeValue } from './format.js';
import { RowTable, type RowModel } from './rowTable.js';

/** The Entities tab. */
export class EntitiesTab implements Tab {
  readonly element: HTMLElement;
  readonly #tables: RowTable;
  readonly #records: RowTable;
  readonly #recordsNote: HTMLElement;
  readonly #detail: HTMLElement;
  readonly #value: HTMLPreElement;
  readonly #heading: HTMLElement;
  readonly #readers: HTMLElement;
  readonly #doc: Document;
  #table: string | undefined;
  #pk: string | undefined;
  #context: TabContext | undefined;
  #shown: { table: string; pk: string; version: number } | undefined;

  constructor(doc: Document) {
    this.#doc = doc;
    this.#tables = new RowTable(doc, 'Entity tables', ['Table', 'Records'], (table) => this.select(table, undefined), [
      'key',
      'num',
    ]);
    this.#records = new RowTable(doc, 'Records', ['Primary key'], (pk) => this.select(this.#table, pk), ['key']);
    this.#recordsNote = el(doc, 'p', { class: 'note' });
    this.#heading = el(doc, 'pre', { 'data-part': 'record' });
    this.#value = el(doc, 'pre', { 'data-part': 'value' });
    this.#readers = el(doc, 'div', { class: 'links' });
    this.#detail = el(
      doc,
      'section',
      { class: 'detail', 'aria-label': 'Selected record', hidden: true },
      el(doc, 'h3', {}, 'Record'),
      this.#heading,
      el(doc, 'h3', {}, 'Stored value'),
      this.#value,
      el(doc, 'h3', {}, 'Read by'),
      this.#readers,
    );
    this.element = el(
      doc,
      'div',
      { class: 'split' },
      el(doc, 'div', {}, this.#tables.element),
      el(doc, 'div', {}, this.#records.element, this.#recordsNote),
      this.#detail,
    );
  }

  /** Selects a table and, in it, a record. */
  select(table: string | undefined, pk: string | undefined): void {
    this.#table = table;
    this.#pk = pk;
    this.#context?.invalidate();
  }

  render(context: TabContext): void {
    this.#context = context;
    const { state, filter } = context;
    const entities = state.entities;
    const tables: RowModel[] = [];
    const names = Object.keys(entities).sort();
    const visible = new Set<string>();
    for (const name of names) {
      const table = entities[name] ?? {};
      const pks = Object.keys(table);
      if (!matches(filter, name) && !pks.some((pk) => matches(filter, pk))) continue;
      visible.add(name);
      tables.push({ id: name, cells: [[name], [String(pks.length)]] });
    }
    this.#tables.update(tables, this.#table);
    const table = this.#table !== undefined && visible.has(this.#table) ? this.#table : undefined;
    const records: RowModel[] = [];
    if (table !== undefined) {
      const all = matches(filter, table);
      for (const pk of Object.keys(entities[table] ?? {}).sort())
        if (all || matches(filter, pk)) records.push({ id: pk, cells: [[pk]] });
    }
    const left = this.#records.update(records, this.#pk);
    setText(
      this.#recordsNote,
      table === undefined
        ? tables.length === 0
          ? filter
            ? 'No table matches the filter.'
            : 'No entity stored yet.'
          : 'Select a table.'
        : left > 0
          ? `${left} more records: narrow them with the filter.`
          : '',
    );
    this.#renderDetail(context, table);
  }

  #renderDetail(context: TabContext, table: string | undefined): void {
    const pk = this.#pk;
    const stored = table !== undefined && pk !== undefined ? context.state.entities[table] : undefined;
    const present = stored !== undefined && pk !== undefined && Object.prototype.hasOwnProperty.call(stored, pk);
    setAttribute(this.#detail, 'hidden', !present);
    if (!present || table === undefined || pk === undefined) {
      this.#shown = undefined;
      return;
    }
    const shown = this.#shown;
    if (shown?.table === table && shown.pk === pk && shown.version === context.version) return;
    this.#shown = { table, pk, version: context.version };
    setText(this.#heading, `${table} ${pk}`);
    setText(this.#value, describeValue(stored[pk]));
    const readers = context.inspector.readers(table, pk);
    this.#readers.replaceChildren(
      ...(readers.length === 0
        ? [el(this.#doc, 'span', { class: 'note' }, 'no query')]
        : readers.map((key) => {
            const link = el(this.#doc, 'button', { type: 'button', class: 'link' }, key);
            link.addEventListener('click', () => context.show('Queries', key));
            return link;
          })),
    );
  }
}
