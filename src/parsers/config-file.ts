// A configuration file bootlens reads (a rule, a catalogue file, a known issue, suppressions):
// YAML parsed the one safe way with limits, and one error type that names file and line, so the
// CLI prints `file:line: reason` and exits 2.
import { CONFIG_YAML_LIMITS, parseYamlDocument, YamlError, type YamlDocument, type YamlLimits } from './yaml-document.js';

/** A configuration file that cannot be used: the CLI prints `file:line: reason` and exits 2. */
export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line ? `:${line}` : ''}: ${reason}`);
  }
}

/**
 * Parses the YAML of a configuration file; invalid YAML is an error of `ErrorClass` (a
 * ConfigFileError by default) at its line.
 */
export function parseConfigYaml(
  text: string,
  file: string,
  limits: YamlLimits = CONFIG_YAML_LIMITS,
  ErrorClass: new (file: string, line: number | undefined, reason: string) => ConfigFileError = ConfigFileError,
): YamlDocument {
  try {
    return parseYamlDocument(text, file, limits);
  } catch (err) {
    if (err instanceof YamlError) throw new ErrorClass(file, err.line, `YAML: ${err.reason}`);
    throw err;
  }
}
