/**
 * Entity table names that cannot silently differ between two builds. An Entity without `static key`
 * names its table after its class, and a minifier shortens class names in a browser build (`Todo`
 * becomes `n`) but not in a server build: a state rendered on the server (or persisted by an older
 * build) then holds table `Todo` while the browser reads table `n`, so the server's records are ignored
 * and fetched again. Snapshots carry the table names that came from class names, with the fields of
 * their class; a build that restores one and names a class with the same fields otherwise reports it
 * with `console.error`, naming the class, the table and the fix (`static key`).
 */

/** In this build: the tables named after their class (no `static key`), with the class's sorted field names. */
const unkeyedTables = new Map<string, string>();
/** From restored snapshots: field names → the table names other builds gave classes with those fields. */
const restoredTables = new Map<string, Set<string>>();
/** Grows at each restore: a class is checked again against what came in since its last check. */
let restoredVersion = 0;
const checkedAt = new WeakMap<Function, number>();
/** The mismatches reported already (`class → table`): each is reported once. */
const reported = new Set<string>();

/**
 * The table name of an Entity class without `static key`: its class name. Records it with the class's
 * fields (for `unkeyedTablesOf`) and reports a mismatch with a restored snapshot's tables.
 */
export function classNamedTable(Cls: Function, fields: () => readonly string[]): string {
  const name = Cls.name;
  if (name === '' || checkedAt.get(Cls) === restoredVersion) return name;
  checkedAt.set(Cls, restoredVersion);
  const fingerprint = [...fields()].sort().join(',');
  unkeyedTables.set(name, fingerprint);
  reportMismatch(name, fingerprint);
  return name;
}

/** The tables of `tables` (a snapshot's entity keys) named after their class in this build, with their fields. */
export function unkeyedTablesOf(tables: Iterable<string>): Record<string, string> | undefined {
  let found: Record<string, string> | undefined;
  for (const table of tables) {
    const fingerprint = unkeyedTables.get(table);
    if (fingerprint !== undefined) (found ??= Object.create(null) as Record<string, string>)[table] = fingerprint;
  }
  return found;
}

/**
 * A snapshot's `unkeyed` tables came in (`restoreSnapshot`, `new Controller({ initialState })`): the
 * classes of this build without `static key` are checked against them, now and when first used.
 */
export function expectUnkeyedTables(unkeyed: unknown): void {
  if (typeof unkeyed !== 'object' || unkeyed === null) return;
  let added = false;
  for (const [table, fingerprint] of Object.entries(unkeyed)) {
    if (typeof fingerprint !== 'string') continue;
    let names = restoredTables.get(fingerprint);
    if (names === undefined) restoredTables.set(fingerprint, (names = new Set()));
    if (names.has(table)) continue;
    names.add(table);
    added = true;
  }
  if (!added) return;
  restoredVersion++;
  for (const [name, fingerprint] of unkeyedTables) reportMismatch(name, fingerprint);
}

function reportMismatch(name: string, fingerprint: string): void {
  const names = restoredTables.get(fingerprint);
  if (names === undefined || names.has(name)) return;
  const tables = [...names];
  const id = `${name}\u0000${tables.join(',')}`;
  if (reported.has(id)) return;
  reported.add(id);
  const quoted = tables.map((table) => `"${table}"`).join(' or ');
  console.error(
    process.env.NODE_ENV !== 'production'
      ? `rx-rest: Entity class "${name}" (no static key) has the fields (${fingerprint}) of table ${quoted} of the ` +
          `restored state: a minifier renamed it, so that state is ignored and fetched again. Add \`static key = '${tables[0]}'\`.`
      : `rx-rest: Entity class "${name}" is table ${quoted}: static key = '${tables[0]}'`,
  );
}
