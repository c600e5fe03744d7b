// Cheap checks run before a JSON or YAML file is parsed whole, so a crafted file (a deep
// nesting, a billion-laughs alias chain, a huge manifest) is refused, not parsed.

export interface StructuredLimits {
  maxYamlBytes: number;
  /** YAML alias uses (`*name`) per file: manifests rarely have any. */
  maxYamlAliases: number;
  /** Nesting of arrays and objects in a JSON file. */
  maxJsonDepth: number;
}

export const DEFAULT_STRUCTURED_LIMITS: StructuredLimits = {
  maxYamlBytes: 4 * 1024 * 1024,
  maxYamlAliases: 64,
  maxJsonDepth: 64,
};

/** The deepest nesting of `[`/`{` outside strings; stops counting once past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** Alias uses in YAML text: `*name` after a separator (not `*` inside words or globs). */
export function yamlAliasCount(text: string): number {
  let n = 0;
  const re = /(?:^|[\s[{,:-])\*[A-Za-z0-9_][\w.-]*/gm;
  while (re.exec(text)) n++;
  return n;
}

/** Why a file must not be parsed, or undefined when it may be. */
export function structuredRefusal(kind: 'json' | 'yaml', text: string, limits: StructuredLimits): string | undefined {
  if (kind === 'yaml') {
    if (text.length > limits.maxYamlBytes) return `YAML larger than ${limits.maxYamlBytes} bytes: not parsed`;
    const aliases = yamlAliasCount(text);
    if (aliases > limits.maxYamlAliases) return `YAML with ${aliases} aliases (limit ${limits.maxYamlAliases}): not parsed`;
    return undefined;
  }
  const depth = jsonDepth(text, limits.maxJsonDepth);
  return depth > limits.maxJsonDepth ? `JSON nested deeper than ${limits.maxJsonDepth} levels: not parsed` : undefined;
}
