/**
 * `npm run example`: examples/first.ts against the demos' REST server, as README's first example shows
 * it (the README block is this file, word for word).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, extractBlocks } from './codeBlocks.js';

it("README's first example is examples/first.ts", () => {
  const example = readFileSync(join(ROOT, 'examples/first.ts'), 'utf8');
  const { blocks } = extractBlocks('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8'));
  expect(blocks.map((block) => `${block.code}\n`)).toContain(example);
});

it('npm run example starts the server, prints what the script observes, and exits 0', async () => {
  const output = await new Promise<string>((resolve, reject) =>
    execFile('npm', ['run', '--silent', 'example'], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
  const lines = output.split('\n').filter((line) => line.startsWith('['));
  expect(lines.filter((line) => !line.startsWith('[observe]'))).toEqual([
    '[fetch] user 1 has 8 todos',
    '[partialUpdate] "Sketch the analytical engine notes" is now done',
    '[push] created todo 25',
    '[delete] done',
  ]);
  // the live query saw the toggle (optimistically, before fetch resolved), the new todo, and the end state
  const observed = lines.filter((line) => line.startsWith('[observe]'));
  expect(observed.slice(0, 2)).toEqual(['[observe] loading…', '[observe] 8 todos, 2 done']);
  const toggled = lines.indexOf('[observe] 8 todos, 3 done');
  expect(toggled).toBeGreaterThan(0);
  expect(toggled).toBeLessThan(lines.indexOf('[partialUpdate] "Sketch the analytical engine notes" is now done'));
  expect(lines.indexOf('[observe] 9 todos, 3 done')).toBeLessThan(lines.indexOf('[push] created todo 25'));
  expect(observed.at(-1)).toBe('[observe] 8 todos, 2 done');
}, 60_000);
