/**
 * The config file (`--config`): YAML or JSON, read and checked here (its shape); `analyze` checks what it
 * names against the spec. Every mistake is a `ConfigError` naming the file.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { Config } from './model.js';

import { ConfigError } from './errors.js';

export { ConfigError };

const OPTIONS = ['schemas', 'temporal', 'urlPrefix', 'skip'];
const SCHEMA_OPTIONS = ['entity', 'pk', 'key'];

const kind = (value: unknown) => (Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`);

/** Reads and checks a config file; an empty file is no options. */
export async function loadConfig(file: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${file} is not YAML (nor JSON): ${(error as Error).message}`, { cause: error });
  }
  if (value === null || value === undefined) return { source: file };
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(`${file} must hold an object of options (${OPTIONS.join(', ')}), not ${kind(value)}.`);
  const config = value as Record<string, unknown>;
  const fail = (message: string) => new ConfigError(`${file}: ${message}`);
  for (const key of Object.keys(config))
    if (!OPTIONS.includes(key)) throw fail(`unknown option "${key}" (options: ${OPTIONS.join(', ')}).`);
  if (config.temporal !== undefined && typeof config.temporal !== 'boolean')
    throw fail(`temporal must be true or false, not ${JSON.stringify(config.temporal)}.`);
  if (config.urlPrefix !== undefined && typeof config.urlPrefix !== 'string')
    throw fail(`urlPrefix must be a string, not ${kind(config.urlPrefix)}.`);
  if (config.skip !== undefined && (!Array.isArray(config.skip) || config.skip.some((s) => typeof s !== 'string')))
    throw fail('skip must be a list of operationIds or "METHOD /path" strings.');
  if (config.schemas !== undefined) {
    if (typeof config.schemas !== 'object' || config.schemas === null || Array.isArray(config.schemas))
      throw fail(`schemas must map schema names to their options (${SCHEMA_OPTIONS.join(', ')}).`);
    for (const [name, options] of Object.entries(config.schemas)) {
      if (typeof options !== 'object' || options === null || Array.isArray(options))
        throw fail(
          `schemas.${name} must be an object of options (${SCHEMA_OPTIONS.join(', ')}), not ${kind(options)}.`,
        );
      for (const [key, option] of Object.entries(options)) {
        if (!SCHEMA_OPTIONS.includes(key))
          throw fail(`schemas.${name} has an unknown option "${key}" (options: ${SCHEMA_OPTIONS.join(', ')}).`);
        if (key === 'entity' ? typeof option !== 'boolean' : typeof option !== 'string')
          throw fail(`schemas.${name}.${key} must be ${key === 'entity' ? 'true or false' : 'a string'}.`);
      }
    }
  }
  return { ...(config as Config), source: file };
}
