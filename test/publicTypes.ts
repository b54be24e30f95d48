/**
 * The package's public type surface, as its users' compiler sees it: the declarations `npm run build`
 * emits (`tsconfig.build.json`, `stripInternal`), walked from the entry points' exports to every
 * declaration a public type names, through classes, members, signatures and aliases.
 */
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');

/** The entry points' declaration files (package.json `exports`), relative to the declaration root. */
export const ENTRY_POINTS = [
  'core/index.d.ts',
  'adapters/svelte/index.d.ts',
  'adapters/solid/index.d.ts',
  'adapters/devtools/index.d.ts',
  'adapters/persist/index.d.ts',
  'adapters/sync/index.d.ts',
] as const;

/** A declaration file that a user's compiler loads when it imports an entry point. */
export interface PublicFile {
  /** Its path, relative to the declaration root (`core/controller/types.d.ts`). */
  readonly file: string;
  /** The `any` keywords in it. */
  readonly anys: number;
  /** The classes it declares (at the top level or in a namespace), with the name of the class each extends. */
  readonly classes: readonly { readonly name: string; readonly base: string | undefined }[];
  /** Every name it declares at the top level or in a namespace: classes, interfaces, types, functions, variables. */
  readonly names: readonly string[];
}

/** The declaration files reachable from the entry points, and the names the entry points export. */
export interface PublicSurface {
  readonly files: readonly PublicFile[];
  /** Every name an entry point exports. */
  readonly exported: ReadonlySet<string>;
}

/** Emits the declarations of the build (`tsconfig.build.json`) in memory: relative path -> text. */
export function emitDeclarations(): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json could not be read');
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const outDir = config.options.outDir!;
  const files = new Map<string, string>();
  const result = program.emit(
    undefined,
    (fileName, text) => {
      if (fileName.endsWith('.d.ts')) files.set(path.relative(outDir, fileName).split(path.sep).join('/'), text);
    },
    undefined,
    true,
  );
  const errors = result.diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  if (errors.length > 0) throw new Error(`declaration emit failed:\n${errors.join('\n')}`);
  return files;
}

/** The names declared in a file's statements (and its namespaces'), with whether each is a class. */
function declarationsOf(
  statements: readonly ts.Statement[],
): { name: string; base?: string | undefined; isClass: boolean }[] {
  return statements.flatMap((statement) => {
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.flatMap((declaration) =>
        ts.isIdentifier(declaration.name) ? [{ name: declaration.name.text, isClass: false }] : [],
      );
    if (ts.isModuleDeclaration(statement) && statement.body && ts.isModuleBlock(statement.body))
      return declarationsOf(statement.body.statements);
    const name = (statement as { name?: ts.Node }).name;
    if (!name || !ts.isIdentifier(name)) return [];
    if (!ts.isClassDeclaration(statement)) return [{ name: name.text, isClass: false }];
    const extended = statement.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
      ?.types[0]?.expression;
    return [
      { name: name.text, base: extended && ts.isIdentifier(extended) ? extended.text : undefined, isClass: true },
    ];
  });
}

/** The `any` keywords under a node. */
function countAny(node: ts.Node): number {
  let count = node.kind === ts.SyntaxKind.AnyKeyword ? 1 : 0;
  ts.forEachChild(node, (child) => {
    count += countAny(child);
  });
  return count;
}

/**
 * The declaration files (`files`: relative path -> text) that a compiler loads for `entries`, as a user's
 * compiler does for `import ... from 'rx-rest'`: each entry and every file it imports, transitively
 * (every declaration in them is visible through `import()` types, whether exported or not). Packages
 * (rxjs, svelte, solid-js) come from the repository's node_modules and are not counted.
 */
export function publicSurface(files: ReadonlyMap<string, string>, entries: readonly string[]): PublicSurface {
  const base = path.join(root, '.public-types');
  const absolute = (file: string) => path.join(base, file);
  const relative = (fileName: string) => path.relative(base, fileName).split(path.sep).join('/');
  const host = ts.createCompilerHost({});
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const own = (fileName: string) => files.get(relative(fileName));
  const program = ts.createProgram({
    rootNames: entries.map(absolute),
    options,
    host: {
      ...host,
      fileExists: (fileName) => own(fileName) !== undefined || host.fileExists(fileName),
      directoryExists: (directory) => directory.startsWith(base) || host.directoryExists!(directory),
      readFile: (fileName) => own(fileName) ?? host.readFile(fileName),
      getSourceFile: (fileName, language) => {
        const text = own(fileName);
        return text === undefined
          ? host.getSourceFile(fileName, language)
          : ts.createSourceFile(fileName, text, language, true);
      },
    },
  });
  const checker = program.getTypeChecker();
  const exported = new Set<string>();
  for (const entry of entries) {
    const sourceFile = program.getSourceFile(absolute(entry));
    if (!sourceFile) throw new Error(`no declaration file ${entry}`);
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      exported.add(symbol.name);
      // the declared name too (`export { PolymorphicArraySchema as ArraySchema }`)
      if (symbol.flags & ts.SymbolFlags.Alias) exported.add(checker.getAliasedSymbol(symbol).name);
    }
  }
  const loaded = program.getSourceFiles().filter((sourceFile) => own(sourceFile.fileName) !== undefined);
  return {
    exported,
    files: loaded
      .map((sourceFile) => {
        const declared = declarationsOf(sourceFile.statements);
        return {
          file: relative(sourceFile.fileName),
          anys: countAny(sourceFile),
          classes: declared
            .filter((declaration) => declaration.isClass)
            .map((declaration) => ({ name: declaration.name, base: declaration.base })),
          names: declared.map((declaration) => declaration.name),
        };
      })
      .sort((a, b) => a.file.localeCompare(b.file)),
  };
}

/**
 * What breaks the rule of the public type surface (docs/design.md), if anything: at most `maxAny` `any`
 * keywords in the files the entry points load, no declaration named like an `internal` class there,
 * and no class there that the entry points do not export, unless an exported class extends it (a base
 * class is part of its subclasses' types).
 */
export function surfaceProblems(
  surface: PublicSurface,
  rule: { readonly maxAny: number; readonly internal: readonly string[] },
): string[] {
  const problems: string[] = [];
  const anys = surface.files.reduce((sum, file) => sum + file.anys, 0);
  if (anys > rule.maxAny) {
    const worst = surface.files
      .filter((file) => file.anys > 0)
      .sort((a, b) => b.anys - a.anys)
      .map((file) => `${file.file} ${file.anys}`);
    problems.push(`${anys} \`any\` in the public declarations (at most ${rule.maxAny}): ${worst.join(', ')}`);
  }
  const classes = surface.files.flatMap((file) => file.classes);
  const public_ = new Set([...surface.exported].filter((name) => !rule.internal.includes(name)));
  for (let grew = true; grew;) {
    grew = false;
    for (const { name, base } of classes)
      if (public_.has(name) && base !== undefined && !public_.has(base) && !rule.internal.includes(base)) {
        public_.add(base);
        grew = true;
      }
  }
  for (const file of surface.files) {
    for (const name of file.names)
      if (rule.internal.includes(name)) problems.push(`${file.file} declares the internal ${name}`);
    for (const { name } of file.classes)
      if (!rule.internal.includes(name) && !public_.has(name))
        problems.push(`${file.file} declares the class ${name}, which no entry point exports`);
  }
  return problems;
}
