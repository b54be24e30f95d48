/** How the panel writes values, ages and times as text. */

/** Text longer than this is cut (a huge response would stall the panel's frame). */
const MAX_TEXT = 20_000;
/** Nesting shown before `…`. */
const MAX_DEPTH = 12;
/**
 * Values read before the rest is left out: every value takes at least four characters of the indented text,
 * so these fill `MAX_TEXT`, and a huge value is read only as far as it is shown.
 */
const MAX_VALUES = MAX_TEXT / 4;

/** How many more values `plain` may read. */
interface Budget {
  left: number;
}

/**
 * A value as indented JSON-like text: Entity instances by their fields, values with `toJSON` (dates,
 * Temporal) as it gives them, a cycle as `[Circular]`, the INVALID marker, symbols, functions and bigints
 * by name, and errors by their name and message. A member that cannot be read (its `toJSON` or getter
 * throws) is marked `(not shown: <message>)`, the rest of the value shown. Never throws.
 */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(plain(value, new Set(), 0, { left: MAX_VALUES }), null, 2) ?? 'undefined';
  } catch (error) {
    text = notShown(error);
  }
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… (${text.length - MAX_TEXT} more characters)` : text;
}

function plain(value: unknown, ancestors: Set<object>, depth: number, budget: Budget): unknown {
  budget.left--;
  switch (typeof value) {
    case 'undefined':
      return '(undefined)';
    case 'symbol':
      return value === Symbol.for('rx-rest.INVALID') ? '(INVALID)' : String(value);
    case 'function':
      return `(function ${value.name})`;
    case 'bigint':
      return `${value}n`;
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (value instanceof Unreadable) return notShown(value.error);
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '…';
  // a member that cannot be read (its toJSON, a getter or an error's message throws) is marked, the rest shown
  let json: unknown = value;
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') json = toJSON.call(value);
  } catch (error) {
    return notShown(error);
  }
  if (json !== value) return plain(json, ancestors, depth, budget);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        if (budget.left <= 0) {
          out.push(`… (${value.length - i} more items)`);
          break;
        }
        out.push(plain(member(value, i), ancestors, depth + 1, budget));
      }
      return out;
    }
    if (value instanceof Map) return plain(Object.fromEntries(value), ancestors, depth, budget);
    if (value instanceof Set) return plain([...value], ancestors, depth, budget);
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      if (budget.left <= 0) {
        Object.defineProperty(out, '…', { value: `(${keys.length - i} more keys)`, enumerable: true });
        break;
      }
      Object.defineProperty(out, keys[i]!, {
        value: plain(member(value, keys[i]!), ancestors, depth + 1, budget),
        enumerable: true,
      });
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/** What reading a member threw, so that the member is marked rather than the whole value hidden. */
class Unreadable {
  constructor(readonly error: unknown) {}
}

/** `value[key]`, or an `Unreadable` when reading it throws (a getter, a Proxy). */
function member(value: object, key: string | number): unknown {
  try {
    return (value as Record<string | number, unknown>)[key];
  } catch (error) {
    return new Unreadable(error);
  }
}

/** The panel's mark for a value it cannot read: `(not shown: <what reading it threw>)`. */
function notShown(error: unknown): string {
  try {
    return `(not shown: ${error instanceof Error ? error.message : String(error)})`;
  } catch {
    return '(not shown)'; // an error whose message cannot be read either
  }
}

/** An age in ms as a short text: `now`, `12s`, `3m`, `2h`, `4d`. */
export function describeAge(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 1) return 'now';
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** A time of day with milliseconds, `14:03:27.118` (local time). */
export function describeTime(ms: number): string {
  const date = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
