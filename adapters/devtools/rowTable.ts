/**
 * A table of keyed rows, as every tab lists things: rows keep their elements across renders (only
 * changed text is written), one row is selected (`aria-selected`), and the keyboard moves between rows
 * (arrows, Home, End) and selects (Enter, Space). One row is in the tab order at a time.
 */
import { el, reconcile, setAttribute } from './dom.js';

/** One cell: its text, and a class. */
export type Cell = readonly [text: string, className?: string];

/** One row to show. */
export interface RowModel {
  /** Unique within the table: the row's identity. */
  readonly id: string;
  readonly cells: readonly Cell[];
}

interface RowElements {
  readonly tr: HTMLTableRowElement;
  readonly cells: HTMLTableCellElement[];
  /** The cells' text nodes: a change writes their `data` (no node is inserted or removed). */
  readonly nodes: Text[];
  /** What the cells show now (compared in JavaScript: reading the DOM back costs more than the diff). */
  readonly texts: string[];
  readonly classes: (string | undefined)[];
  selected: boolean | undefined;
  focusable: boolean | undefined;
}

/** More rows than this are not drawn (the filter narrows them). */
export const MAX_ROWS = 500;

/** A keyed, selectable table. */
export class RowTable {
  readonly element: HTMLTableElement;
  readonly #body: HTMLTableSectionElement;
  readonly #rows = new Map<string, RowElements>();
  readonly #onSelect: (id: string) => void;
  readonly #doc: Document;
  readonly #classes: readonly (string | undefined)[];
  #selected: string | undefined;

  constructor(
    doc: Document,
    label: string,
    headers: readonly string[],
    onSelect: (id: string) => void,
    classes: readonly (string | undefined)[] = [],
  ) {
    this.#doc = doc;
    this.#onSelect = onSelect;
    this.#classes = classes;
    this.#body = el(doc, 'tbody');
    const head = el(doc, 'tr', {}, ...headers.map((h, i) => el(doc, 'th', { scope: 'col', class: classes[i] }, h)));
    this.element = el(doc, 'table', { 'aria-label': label }, el(doc, 'thead', {}, head), this.#body);
    this.#body.addEventListener('click', (event) => {
      const tr = (event.target as Element).closest?.('tr');
      const id = tr?.dataset.id;
      if (id !== undefined) this.#onSelect(id);
    });
    this.#body.addEventListener('keydown', (event) => this.#key(event));
  }

  /** Shows `rows` in this order (at most `MAX_ROWS`) with `selected` marked; returns how many were left out. */
  update(rows: readonly RowModel[], selected: string | undefined): number {
    this.#selected = selected;
    const shown = rows.length > MAX_ROWS ? rows.slice(0, MAX_ROWS) : rows;
    const order = shown.map((row) => row.id);
    const focusable = order.includes(selected as string) ? selected : order[0];
    const keep = new Set(order);
    for (const id of [...this.#rows.keys()]) if (!keep.has(id)) this.#rows.delete(id);
    for (const row of shown) this.#write(row, this.#row(row), focusable);
    this.#place(order);
    return rows.length - shown.length;
  }

  /**
   * Updates the cells of `rows`, which must all be shown already (their order and the set of rows are
   * unchanged); returns false, changing nothing, when one is not shown.
   */
  patch(rows: readonly RowModel[]): boolean {
    if (!rows.every((row) => this.#rows.has(row.id))) return false;
    const focusable = this.#order.includes(this.#selected as string) ? this.#selected : this.#order[0];
    for (const row of rows) this.#write(row, this.#rows.get(row.id)!, focusable);
    return true;
  }

  #order: string[] = [];

  #write(row: RowModel, elements: RowElements, focusable: string | undefined): void {
    row.cells.forEach(([text, className], i) => {
      if (elements.texts[i] !== text) {
        elements.nodes[i]!.data = elements.texts[i] = text;
      }
      const classes = [this.#classes[i], className].filter(Boolean).join(' ') || undefined;
      if (elements.classes[i] !== classes) {
        elements.classes[i] = classes;
        setAttribute(elements.cells[i]!, 'class', classes);
      }
    });
    const isSelected = row.id === this.#selected;
    if (elements.selected !== isSelected) {
      elements.selected = isSelected;
      elements.tr.setAttribute('aria-selected', String(isSelected));
    }
    const isFocusable = row.id === focusable;
    if (elements.focusable !== isFocusable) {
      elements.focusable = isFocusable;
      elements.tr.setAttribute('tabindex', isFocusable ? '0' : '-1');
    }
  }

  /** Puts the rows in `order`: nothing when it is the same, new rows at the top when only those came (a log). */
  #place(order: string[]): void {
    const before = this.#order;
    this.#order = order;
    if (order.length === before.length && order.every((id, i) => id === before[i])) return;
    const first = before.length > 0 ? order.indexOf(before[0]!) : -1;
    const kept = first >= 0 ? order.length - first : 0;
    if (first > 0 && kept <= before.length && order.slice(first).every((id, i) => id === before[i])) {
      const top = this.#body.firstElementChild;
      for (const id of order.slice(0, first)) this.#body.insertBefore(this.#rows.get(id)!.tr, top);
      for (let i = before.length - 1; i >= kept; i--) this.#body.lastElementChild?.remove();
      return;
    }
    reconcile(
      this.#body,
      order.map((id) => this.#rows.get(id)!.tr),
    );
  }

  /** The id of the selected row. */
  get selected(): string | undefined {
    return this.#selected;
  }

  #row(row: RowModel): RowElements {
    let found = this.#rows.get(row.id);
    if (found === undefined || found.cells.length !== row.cells.length) {
      const nodes = row.cells.map(() => this.#doc.createTextNode(''));
      const cells = nodes.map((node) => el(this.#doc, 'td', {}, node));
      const tr = el(this.#doc, 'tr', {}, ...cells);
      tr.dataset.id = row.id;
      const none = row.cells.map(() => undefined);
      this.#rows.set(
        row.id,
        (found = { tr, cells, nodes, texts: [], classes: none, selected: undefined, focusable: undefined }),
      );
    }
    return found;
  }

  #key(event: KeyboardEvent): void {
    const tr = (event.target as Element).closest?.('tr');
    if (!tr || tr.parentElement !== this.#body) return;
    let target: Element | null;
    switch (event.key) {
      case 'ArrowDown':
        target = tr.nextElementSibling;
        break;
      case 'ArrowUp':
        target = tr.previousElementSibling;
        break;
      case 'Home':
        target = this.#body.firstElementChild;
        break;
      case 'End':
        target = this.#body.lastElementChild;
        break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        if (tr.dataset.id !== undefined) this.#onSelect(tr.dataset.id);
        return;
      default:
        return;
    }
    event.preventDefault();
    if (target === null) return;
    for (const elements of this.#rows.values()) {
      elements.focusable = elements.tr === target;
      elements.tr.setAttribute('tabindex', elements.focusable ? '0' : '-1');
    }
    (target as HTMLElement).focus();
  }
}
