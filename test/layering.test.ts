/**
 * Imports point one way: errors <- schema <- endpoint <- store <- controller <- core/index.ts <- adapters.
 * Adapters and add-ons (adapters/<name>/) import only core/index.ts, never each other; they may also import
 * core/internal.ts (what they share with the core but users do not: the add-ons its deletion-mark holds).
 * Nothing imports upward, and a file imports another layer only through that layer's index.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** The modules of the errors layer; core/errors.ts is its entry. */
const ERROR_MODULES = new Set(['core/errors.ts', 'core/requestErrors.ts', 'core/preview.ts']);

/** A layer of a repository path (relative, with `/`), and its rank: a file may import ranks up to its own. */
function layerOf(file: string): { readonly name: string; readonly rank: number } | undefined {
  // core/errors.ts re-exports the modules it is split into: the other layers import it, not them
  if (ERROR_MODULES.has(file)) return { name: 'core/errors.ts', rank: 0 };
  if (file === 'core/index.ts' || file === 'core/internal.ts') return { name: file, rank: 5 };
  const [top, dir] = file.split('/');
  const ranks: Record<string, number> = { schema: 1, endpoint: 2, store: 3, controller: 4 };
  if (top === 'core' && dir !== undefined && dir in ranks) return { name: `core/${dir}`, rank: ranks[dir]! };
  if (top === 'adapters' && dir !== undefined) return { name: `adapters/${dir}`, rank: 6 };
  return undefined;
}

/** What is wrong with `from` importing `specifier` (a relative import; packages are not layers), if anything. */
export function importProblem(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '.ts');
  const source = layerOf(from);
  const layer = layerOf(target);
  if (!source || !layer) return `${from} imports ${specifier}, outside the layers`;
  if (layer.rank > source.rank) return `${from} imports ${specifier}: upward (${source.name} -> ${layer.name})`;
  if (layer.name === source.name) return undefined;
  if (source.name.startsWith('adapters/') && layer.name.startsWith('adapters/'))
    return `${from} imports ${specifier}: an adapter or add-on imports only the core (core/index.ts)`;
  const entry = layer.name.endsWith('.ts') ? layer.name : `${layer.name}/index.ts`;
  if (target !== entry) return `${from} imports ${specifier}: past ${entry} into ${layer.name}'s internals`;
  if (source.rank === 6 && layer.name !== 'core/index.ts' && layer.name !== 'core/internal.ts')
    return `${from} imports ${specifier}: an adapter or add-on imports only core/index.ts (and its own files)`;
  return undefined;
}

/** Whether an add-on's file may import `specifier`: the core's index.ts or internal.ts, rxjs, or a file beside it. */
function addOnMayImport(file: string, specifier: string): boolean {
  if (/^rxjs(\/|$)/.test(specifier)) return true;
  if (specifier.startsWith('./') && !specifier.slice(2).includes('/')) return true;
  const target = path.posix.join(path.posix.dirname(file), specifier);
  return specifier.startsWith('.') && (target === 'core/index.js' || target === 'core/internal.js');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|svelte)$/.test(entry.name))
    .map((entry) => path.posix.join(path.relative(root, entry.parentPath).split(path.sep).join('/'), entry.name));
}

/** The module specifiers a file imports or re-exports (static and dynamic). */
function specifiersOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]/g))
    found.push(match[1]!);
  for (const match of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

describe('layering', () => {
  it('no file of core/ or adapters/ imports upward or past another layer’s index.ts', () => {
    const files = [...sourceFiles('core'), ...sourceFiles('adapters')];
    expect(files.length).toBeGreaterThan(30);
    const problems = files.flatMap((file) =>
      specifiersOf(readFileSync(path.join(root, file), 'utf8'))
        .map((specifier) => importProblem(file, specifier))
        .filter((problem) => problem !== undefined),
    );
    expect(problems).toEqual([]);
  });

  it('an add-on (adapters/ but the framework adapters) imports only the core’s index.ts (and internal.ts) and rxjs', () => {
    const frameworks = new Set(['svelte', 'solid']);
    const files = sourceFiles('adapters').filter((file) => !frameworks.has(file.split('/')[1]!));
    expect(files).toContain('adapters/persist/index.ts');
    const problems = files.flatMap((file) =>
      specifiersOf(readFileSync(path.join(root, file), 'utf8'))
        .filter((specifier) => !addOnMayImport(file, specifier))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(problems).toEqual([]);
    expect(addOnMayImport('adapters/persist/index.ts', '../../core/index.js')).toBe(true);
    expect(addOnMayImport('adapters/persist/index.ts', './envelope.js')).toBe(true);
    expect(addOnMayImport('adapters/persist/index.ts', 'rxjs')).toBe(true);
    expect(addOnMayImport('adapters/persist/index.ts', '../../core/store/index.js')).toBe(false);
    expect(addOnMayImport('adapters/persist/index.ts', '../../core/internal.js')).toBe(true);
    expect(addOnMayImport('adapters/persist/index.ts', '../../core/controller/holds.js')).toBe(false);
    expect(addOnMayImport('adapters/persist/index.ts', '../svelte/index.js')).toBe(false);
    expect(addOnMayImport('adapters/persist/index.ts', 'svelte/store')).toBe(false);
  });

  it('the core imports no package but rxjs: no validator library (Standard Schema is an interface) is bundled with it', () => {
    const files = sourceFiles('core');
    expect(files).toContain('core/schema/standard.ts');
    const packages = files.flatMap((file) =>
      specifiersOf(readFileSync(path.join(root, file), 'utf8'))
        .filter((specifier) => !specifier.startsWith('.') && !/^rxjs(\/|$)/.test(specifier))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(packages).toEqual([]);
  });

  it('the check itself finds upward imports and imports of internals', () => {
    expect(importProblem('core/schema/Entity.ts', '../controller/index.js')).toMatch(/upward/);
    expect(importProblem('core/store/reducer.ts', '../index.js')).toMatch(/upward/);
    expect(importProblem('core/controller/Controller.ts', '../schema/normalize.js')).toMatch(/internals/);
    expect(importProblem('adapters/svelte/index.ts', '../../core/controller/Controller.js')).toMatch(/internals/);
    expect(importProblem('core/controller/Controller.ts', '../store/index.js')).toBeUndefined();
    expect(importProblem('core/controller/Controller.ts', './Requests.js')).toBeUndefined();
    expect(importProblem('adapters/solid/index.ts', '../../core/index.js')).toBeUndefined();
    expect(importProblem('adapters/solid/index.ts', '../../core/internal.js')).toBeUndefined();
    expect(importProblem('core/controller/Controller.ts', '../internal.js')).toMatch(/upward/);
    expect(importProblem('adapters/devtools/index.ts', '../svelte/index.js')).toMatch(/imports only the core/);
    expect(importProblem('adapters/devtools/index.ts', '../../core/errors.js')).toMatch(/only core\/index.ts/);
    expect(importProblem('core/schema/Entity.ts', '../requestErrors.js')).toMatch(/past core\/errors.ts/);
    expect(importProblem('core/schema/Entity.ts', '../errors.js')).toBeUndefined();
    expect(importProblem('core/errors.ts', './requestErrors.js')).toBeUndefined();
    expect(importProblem('adapters/devtools/index.ts', '../../demos/api.js')).toMatch(/outside the layers/);
    expect(importProblem('adapters/devtools/index.ts', './plain.js')).toBeUndefined();
    expect(importProblem('adapters/sync/index.ts', '../svelte/index.js')).toMatch(/imports only the core/);
    expect(specifiersOf("import type { A } from './a.js';\nexport { b } from '../b/index.js';")).toEqual([
      './a.js',
      '../b/index.js',
    ]);
  });
});
