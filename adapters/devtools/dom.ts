/**
 * The panel's DOM helpers. Everything shown is set as text (`textContent`) or as an attribute, never
 * parsed as HTML: a record holding markup shows that markup as characters.
 */

/** Attributes of `el`: strings and numbers are set, `true` sets an empty attribute, `false`/`undefined` none. */
export type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** An element of the panel's document, with attributes and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) setAttribute(element, name, value);
  for (const child of children) element.append(child);
  return element;
}

/** Sets, changes or removes one attribute, touching the DOM only when it changes. */
export function setAttribute(element: Element, name: string, value: string | number | boolean | undefined): void {
  if (value === undefined || value === false) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
    return;
  }
  const text = value === true ? '' : String(value);
  if (element.getAttribute(name) !== text) element.setAttribute(name, text);
}

/** Sets a node's text, touching the DOM only when it changes (a lone text node's `data`: no node is replaced). */
export function setText(node: Node, text: string): void {
  const only = node.firstChild;
  if (only !== null && only === node.lastChild && only.nodeType === 3) {
    if ((only as Text).data !== text) (only as Text).data = text;
  } else if (node.textContent !== text) node.textContent = text;
}

/**
 * Puts `children` into `parent` in this order, moving only what is out of place, and removes every
 * other child: keyed rows keep their elements (and focus) across renders.
 */
export function reconcile(parent: Element, children: readonly Element[]): void {
  let next = parent.firstElementChild;
  for (const child of children) {
    if (child === next) next = next.nextElementSibling;
    else parent.insertBefore(child, next);
  }
  while (next !== null) {
    const after = next.nextElementSibling;
    next.remove();
    next = after;
  }
}

/** Whether `text` contains the filter (case-insensitive; an empty filter matches everything). */
export function matches(filter: string, ...texts: (string | undefined)[]): boolean {
  if (filter === '') return true;
  return texts.some((text) => text !== undefined && text.toLowerCase().includes(filter));
}
