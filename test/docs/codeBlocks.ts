/**
 * The code blocks of the documentation, extracted and type-checked together: every ```ts, ```typescript,
 * ```tsx and ```svelte block of README.md and docs/*.md becomes a file of a scratch project that
 * extends the repository's tsconfig.json (so `rx-rest`, `rx-rest/svelte` and `rx-rest/solid` are the
 * sources), and one svelte-check run (TypeScript and Svelte in one program) reports what does not compile.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The marker that exempts the next block (a deliberate fragment) from the check. */
export const NOT_COMPILED = '<!-- not compiled -->';

const LANGS: Record<string, 'ts' | 'tsx' | 'svelte'> = { ts: 'ts', typescript: 'ts', tsx: 'tsx', svelte: 'svelte' };

/** One extracted block: where it is in its document, and the file it becomes. */
export interface CodeBlock {
  /** The document, relative to the repository (`README.md`, `docs/reference.md`). */
  doc: string;
  /** The line of the block's first code line in the document (1-based). */
  line: number;
  lang: 'ts' | 'tsx' | 'svelte';
  code: string;
  /**
   * The file name in the document's folder of the scratch project: the name given by a first line
   * `// file: api.ts` or `<!-- file: TodoList.svelte -->` (so other blocks can import it), else `block-<line>.<ext>`.
   */
  file: string;
}

/** The blocks of one markdown text, in order; `skipped` counts the ones marked as not compiled. */
export function extractBlocks(doc: string, markdown: string): { blocks: CodeBlock[]; skipped: number } {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const end = lines.findIndex((line, j) => j > i && line.trimStart().startsWith(fence!));
    const close = end === -1 ? lines.length : end;
    const body = lines.slice(i + 1, close).map((line) => line.slice(Math.min(indent!.length, line.search(/\S|$/))));
    const lang = LANGS[info!.toLowerCase()];
    let previous = i - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous--;
    if (lang && previous >= 0 && lines[previous]!.trim() === NOT_COMPILED) skipped++;
    else if (lang) {
      const named = /^(?:\/\/|<!--)\s*file:\s*([\w.-]+)/.exec(body[0] ?? '')?.[1];
      blocks.push({ doc, line: i + 2, lang, code: body.join('\n'), file: named ?? `block-${i + 2}.${lang}` });
    }
    i = close;
  }
  return { blocks, skipped };
}

/** README.md and every docs/*.md, relative to the repository. */
export function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.sort().map((name) => `docs/${name}`)];
}

/** A diagnostic of the check, placed in its document. */
export interface BlockError {
  doc: string;
  /** The line in the document. */
  line: number;
  message: string;
}

/** The scratch folder of a document's blocks (`README.md` -> `README`, `docs/reference.md` -> `docs-reference`). */
const folderOf = (doc: string) => doc.replace(/\.md$/, '').replace(/[\\/]/g, '-');

/**
 * Type-checks `blocks` in one svelte-check run over a scratch project in the OS temp folder (deleted
 * afterwards) and resolves the errors, each mapped to its document and line.
 */
export async function checkBlocks(blocks: CodeBlock[]): Promise<BlockError[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'rx-rest-docs-'));
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    const byFile = new Map<string, CodeBlock>();
    for (const block of blocks) {
      const path = join(scratch, folderOf(block.doc), block.file);
      if (byFile.has(path)) throw new Error(`${block.doc}:${block.line}: a second block named ${block.file}`);
      byFile.set(path, block);
      mkdirSync(dirname(path), { recursive: true });
      // every block is a module of its own, so that blocks do not share top-level names
      const code = block.lang === 'svelte' ? block.code : `${block.code}\nexport {};\n`;
      writeFileSync(path, code);
    }
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: ['**/*.ts', '**/*.tsx', '**/*.svelte'] }),
    );
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [
          join(ROOT, 'node_modules/svelte-check/bin/svelte-check'),
          '--workspace',
          scratch,
          '--tsconfig',
          join(scratch, 'tsconfig.json'),
          '--output',
          'machine',
          '--threshold',
          'error',
        ],
        { cwd: scratch, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          // exit code 1 means "errors found": the output says which
          if (error && !/COMPLETED/.test(stdout)) reject(new Error(`svelte-check failed to run: ${stderr}${stdout}`));
          else resolve(stdout);
        },
      );
    });
    const errors: BlockError[] = [];
    for (const row of output.split('\n')) {
      const match = /^\d+ ERROR "([^"]+)" (\d+):(\d+) (.*)$/.exec(row);
      if (!match) continue;
      const [, file, line, column, message] = match as unknown as [string, string, string, string, string];
      const block = byFile.get(join(scratch, file));
      const text = `${message.replace(/^"|"$/g, '').replace(/\\n/g, '\n')} (column ${column})`;
      if (block) errors.push({ doc: block.doc, line: block.line + Number(line) - 1, message: text });
      else
        errors.push({
          doc: relative(scratch, join(scratch, file)) || basename(file),
          line: Number(line),
          message: text,
        });
    }
    return errors;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every block of every document. */
export function allBlocks(): { blocks: CodeBlock[]; skipped: { doc: string; count: number }[] } {
  const blocks: CodeBlock[] = [];
  const skipped: { doc: string; count: number }[] = [];
  for (const doc of documents()) {
    const found = extractBlocks(doc, readFileSync(join(ROOT, doc), 'utf8'));
    blocks.push(...found.blocks);
    if (found.skipped) skipped.push({ doc, count: found.skipped });
  }
  return { blocks, skipped };
}
