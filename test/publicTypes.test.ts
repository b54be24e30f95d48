/**
 * The public type surface (docs/design.md, "The public types"): the declaration files a user's compiler
 * loads for the package's entry points hold at most 30 `any` keywords and no internal class.
 */
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS, emitDeclarations, publicSurface, surfaceProblems } from './publicTypes.js';

/** The rule: at most this many `any`, and none of these classes (nor any class no entry point exports). */
const RULE = {
  maxAny: 30,
  internal: [
    'QueryStream',
    'QueryCache',
    'QueryReader',
    'Requests',
    'Environment',
    'GarbageCollector',
    'ActionLog',
    'StoreQueries',
    'Store',
    'ReadPass',
    'ReadResult',
    'TableWriter',
    'Normalizer',
    'Panel',
  ],
} as const;

describe('the public type surface', () => {
  it('finds too many `any`, an internal class and an unexported class in a small package', () => {
    const files = new Map([
      ['index.d.ts', "export { Thing } from './thing.js';\nexport type Loose = any;\n"],
      [
        'thing.d.ts',
        "import type { QueryCache } from './cache.js';\nexport declare class Thing { cache(): QueryCache; x: any; }\n",
      ],
      ['cache.d.ts', 'export declare class QueryCache { a: any; }\nexport declare class Helper {}\n'],
      ['unused.d.ts', 'export declare class Requests {}\n'],
    ]);
    const surface = publicSurface(files, ['index.d.ts']);
    expect(surface.files.map((file) => file.file)).toEqual(['cache.d.ts', 'index.d.ts', 'thing.d.ts']);
    expect(surface.exported).toEqual(new Set(['Thing', 'Loose']));
    expect(surfaceProblems(surface, { maxAny: 2, internal: ['QueryCache', 'Requests'] })).toEqual([
      '3 `any` in the public declarations (at most 2): cache.d.ts 1, index.d.ts 1, thing.d.ts 1',
      'cache.d.ts declares the internal QueryCache',
      'cache.d.ts declares the class Helper, which no entry point exports',
    ]);
    expect(surfaceProblems(surface, { maxAny: 3, internal: [] })).toEqual([
      'cache.d.ts declares the class QueryCache, which no entry point exports',
      'cache.d.ts declares the class Helper, which no entry point exports',
    ]);
  }, 120_000);

  it('accepts a base class that an exported class extends', () => {
    const files = new Map([
      ['index.d.ts', "export { Leaf } from './leaf.js';\n"],
      ['leaf.d.ts', "import { Node } from './node.js';\nexport declare class Leaf extends Node {}\n"],
      ['node.d.ts', 'export declare abstract class Node { label: string; }\n'],
    ]);
    expect(surfaceProblems(publicSurface(files, ['index.d.ts']), { maxAny: 0, internal: [] })).toEqual([]);
  }, 120_000);

  it(`the entry points' declarations hold at most ${RULE.maxAny} \`any\` and no internal class`, () => {
    const surface = publicSurface(emitDeclarations(), ENTRY_POINTS);
    expect(surface.files.map((file) => file.file)).toContain('core/controller/Controller.d.ts');
    expect(surface.exported).toContain('Controller');
    expect(surfaceProblems(surface, RULE)).toEqual([]);
  }, 300_000);
});
