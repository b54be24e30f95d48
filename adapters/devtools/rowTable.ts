/**
 * A table of keyed rows, as every tab lists things: rows keep their elements across renders (only
 * changed text is written), one row is selected (`aria-selected`), and the keyboard moves between rows
 * (arrows, Home, End) and selects (Enter, Space). One row is in the tab order at a time.
 */
import { el, reconcile, setAttribute, setText } from './dom.js';

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
    const keep = new Set<string>();
    const elements: HTMLTableRowElement[] = [];
    let focusable: HTMLTableRowElement | undefined;
    for (const row of shown) {
      keep.add(row.id);
      const { tr, cells } = this.#row(row);
      row.cells.forEach(([text, className], i) => {
        const td = cells[i]!;
        setText(td, text);
        setAttribute(td, 'class', [this.#classes[i], className].filter(Boolean).join(' ') || undefined);
      });
      const isSelected = row.id === selected;
      setAttribute(tr, 'aria-selected', isSelected ? 'true' : 'false');
      if (isSelected) focusable = tr;
      elements.push(tr);
    }
    focusable ??= elements[0];
    for (const tr of elements) setAttribute(tr, 'tabindex', tr === focusable ? 0 : -1);
    for (const id of [...this.#rows.keys()]) if (!keep.has(id)) this.#rows.delete(id);
    reconcile(this.#body, elements);
    return rows.length - shown.length;
  }

  /** The id of the selected row. */
  get selected(): string | undefined {
    return this.#selected;
  }

  #row(row: RowModel): RowElements {
    let found = this.#rows.get(row.id);
    if (found === undefined || found.cells.length !== row.cells.length) {
      const cells = row.cells.map(() => el(this.#doc, 'td'));
      const tr = el(this.#doc, 'tr', { tabindex: -1 }, ...cells);
      tr.dataset.id = row.id;
      this.#rows.set(row.id, (found = { tr, cells }));
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
    for (const row of this.#body.children) setAttribute(row, 'tabindex', row === target ? 0 : -1);
    (target as HTMLElement).focus();
  }
}
