/**
 * `rx-rest-openapi <spec.json|spec.yaml> --out <dir> [--config <file>] [--check] [--strict]`: prints what
 * it decided; exits 1 with `--check` when the files on disk differ, with `--strict` when something was
 * guessed, and on a spec it cannot read.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { generate } from './generate.js';
import type { Config, Model } from './model.js';

const USAGE =
  'usage: rx-rest-openapi <spec.json|spec.yaml> --out <dir> [--config <file>] [--check] [--strict] [--quiet]';

/** The decisions table and the summary, as printed. */
export function report(model: Model, ms: number): string {
  const rows = model.decisions.map((d) => [d.guessed ? 'guessed' : '', d.subject, d.decision, d.reason]);
  for (const s of model.skipped) rows.push(['skipped', s.subject, '', s.reason]);
  const widths = [7, 40, 40].map((max, i) => Math.min(max, Math.max(0, ...rows.map((r) => r[i]!.length))));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell))
      .join('  ')
      .trimEnd(),
  );
  lines.push(
    '',
    `${model.entities.length} entities, ${model.resources.length} resources, ${model.endpoints.length} endpoints, ` +
      `${model.skipped.length} skipped, ${model.decisions.filter((d) => d.guessed).length} guessed; ${Math.round(ms)} ms`,
  );
  return lines.join('\n');
}

/** Runs the command; resolves the exit code. */
export async function main(argv: readonly string[], log: (text: string) => void = console.log): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        config: { type: 'string' },
        check: { type: 'boolean' },
        strict: { type: 'boolean' },
        quiet: { type: 'boolean' },
      },
    });
  } catch (error) {
    log(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || !values.out) {
    log(USAGE);
    return 2;
  }
  try {
    const config: Config = values.config ? await loadConfig(values.config) : {};
    const result = await generate(positionals[0]!, { out: values.out, config, check: values.check === true });
    if (!values.quiet) log(report(result.model, result.ms));
    let code = 0;
    if (values.check && result.changed.length) {
      log(`--check: ${result.changed.length} file(s) differ from what the spec gives: ${result.changed.join(', ')}`);
      code = 1;
    } else if (!values.check)
      log(`wrote ${result.changed.length} changed file(s) of ${result.files.size} to ${values.out}`);
    const guessed = result.model.decisions.filter((d) => d.guessed);
    if (values.strict && guessed.length) {
      log(`--strict: ${guessed.length} decision(s) were guessed; fix them with x-rx-rest-* in the spec or the config:`);
      for (const d of guessed) log(`  ${d.subject}: ${d.decision} (${d.reason})`);
      code = 1;
    }
    return code;
  } catch (error) {
    log(`${(error as Error).name}: ${(error as Error).message}`);
    return 1;
  }
}
