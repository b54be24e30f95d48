/** The generator's named errors that the analysis throws too (it reads no file). */

/** A spec that cannot be read: not JSON/YAML, not OpenAPI, invalid, or whose x-rx-rest-* contradict it. */
export class SpecError extends Error {
  override readonly name = 'SpecError';
}

/** A config file that cannot be read, or whose options are wrong or name what the spec lacks. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** An output directory (`--out`) that is a file, or whose files cannot be read or written. */
export class OutputError extends Error {
  override readonly name = 'OutputError';
}
