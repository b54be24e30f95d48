/**
 * Every TypeScript, TSX and Svelte block of README.md and docs/*.md compiles against today's sources,
 * with the project's compiler settings, so the examples cannot rot.
 */
import { describe, expect, it } from 'vitest';
import { allBlocks, checkBlocks, extractBlocks, type CodeBlock } from './codeBlocks.js';

/** A block that must fail, checked in the same run: proof that a broken example is reported. */
const CANARY: CodeBlock = {
  doc: 'canary.md',
  line: 1,
  lang: 'ts',
  file: 'canary.ts',
  code: "import { Controller } from 'rx-rest';\nnew Controller({ dataExpiryLength: 1 });",
};

describe('documentation code blocks', () => {
  it('extracts fenced blocks by language, names files, and honours the not-compiled marker', () => {
    const markdown = [
      '```ts',
      '// file: api.ts',
      'export const a = 1;',
      '```',
      '<!-- not compiled -->',
      '',
      '```ts',
      'broken(',
      '```',
      '- a list item:',
      '  ```tsx',
      '  const b = <div />;',
      '  ```',
      '```sh',
      'npm test',
      '```',
      '```svelte',
      '<p>hi</p>',
      '```',
    ].join('\n');
    const { blocks, skipped } = extractBlocks('x.md', markdown);
    expect(skipped).toBe(1);
    expect(blocks.map(({ lang, file, line, code }) => ({ lang, file, line, code }))).toEqual([
      { lang: 'ts', file: 'api.ts', line: 2, code: '// file: api.ts\nexport const a = 1;' },
      { lang: 'tsx', file: 'block-12.tsx', line: 12, code: 'const b = <div />;' },
      { lang: 'svelte', file: 'block-18.svelte', line: 18, code: '<p>hi</p>' },
    ]);
  });

  it('type-checks every block of README.md and docs/*.md (one program)', async () => {
    const { blocks, skipped } = allBlocks();
    expect(blocks.filter((block) => block.doc === 'README.md').length).toBeGreaterThanOrEqual(4);
    expect(new Set(blocks.map((block) => block.lang))).toEqual(new Set(['ts', 'tsx', 'svelte']));
    // fragments stay the exception
    expect(skipped.reduce((sum, { count }) => sum + count, 0)).toBeLessThanOrEqual(4);

    const errors = await checkBlocks([...blocks, CANARY]);
    const canary = errors.filter((error) => error.doc === CANARY.doc);
    expect(canary.length).toBeGreaterThan(0);
    expect(canary[0]!.line).toBe(2);
    const report = errors
      .filter((error) => error.doc !== CANARY.doc)
      .map((error) => `${error.doc}:${error.line}: ${error.message}`);
    expect(report).toEqual([]);
  }, 120_000);
});
