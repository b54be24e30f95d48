/**
 * How error messages show the values they name: a one-line preview, a kind (`an array (length 3)`), a cut
 * text. Shared by the errors of core/errors.ts and core/requestErrors.ts, and re-exported by core/errors.ts.
 */

/** Shortens any value to a readable one-line preview for error messages. */
export function preview(value: unknown, max = 120): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'function') text = `[function ${value.name || 'anonymous'}]`;
  else if (typeof value !== 'object')
    text = String(value); // number, bigint, boolean, symbol, undefined
  else {
    try {
      text =
        JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)) ??
        String(value);
    } catch {
      text = Array.isArray(value) ? `[array of ${value.length}]` : Object.prototype.toString.call(value);
    }
  }
  return truncate(text, max);
}

/** `text`, cut to `max` characters (the last one an ellipsis) when longer. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An `Error` as it is, anything else thrown wrapped in one. */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Describes the JavaScript kind of a value: `array (length 3)`, `string "abc"`, `null`, ... */
export function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array (length ${value.length})`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${preview(value, 60)}`;
}
