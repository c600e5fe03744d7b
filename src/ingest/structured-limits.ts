// Cheap checks run before a JSON or YAML file is parsed whole, so a crafted file (a deep
// nesting, a billion-laughs alias chain, millions of empty objects, a huge manifest) is refused,
// not parsed. What aliases expand to is checked after the parse (`loadYamlStream`).

export interface StructuredLimits {
  maxYamlBytes: number;
  /** YAML alias uses (`*name`, whatever the name) per file: manifests rarely have any. */
  maxYamlAliases: number;
  /** Nodes of a YAML file once its aliases are followed. */
  maxYamlNodes: number;
  /** Nesting of arrays and objects in a JSON file. */
  maxJsonDepth: number;
  /** Values in a JSON file (each costs tens of bytes once parsed: `[{},{},…]` of 48 MB is a gigabyte; 250 000 cluster operators are 2.75 M). */
  maxJsonNodes: number;
}

export const DEFAULT_STRUCTURED_LIMITS: StructuredLimits = {
  maxYamlBytes: 4 * 1024 * 1024,
  maxYamlAliases: 64,
  maxYamlNodes: 100_000,
  maxJsonDepth: 64,
  maxJsonNodes: 8_000_000,
};

/** The deepest nesting of `[`/`{` and the number of values outside strings; stops counting once past a limit. */
export function jsonShape(text: string, maxDepth = Infinity, maxNodes = Infinity): { depth: number; nodes: number } {
  let depth = 0;
  let max = 0;
  // Containers are counted where they open, items at the `,` after them, and one more: never
  // fewer than the values, more by one per empty container (`{}` costs as much as a value).
  let nodes = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 44 /* , */) {
      if (++nodes > maxNodes) break;
    } else if (c === 91 || c === 123) {
      depth++;
      if (++nodes > maxNodes) break;
      if (depth > max) {
        max = depth;
        if (max > maxDepth) break;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return { depth: max, nodes };
}

/** The deepest nesting of `[`/`{` outside strings; stops counting once past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  return jsonShape(text, limit).depth;
}

/**
 * Alias uses in YAML text: `*name` after a separator (not `*` inside words or globs). An alias
 * name is any run of characters but spaces and flow indicators (`*$m`, `*ä`, `*1`).
 */
export function yamlAliasCount(text: string): number {
  let n = 0;
  const re = /(?:^|[\s[{,:-])\*[^\s,[\]{}]+/gm;
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
  const shape = jsonShape(text, limits.maxJsonDepth, limits.maxJsonNodes);
  if (shape.depth > limits.maxJsonDepth) return `JSON nested deeper than ${limits.maxJsonDepth} levels: not parsed`;
  if (shape.nodes > limits.maxJsonNodes) return `JSON with more than ${limits.maxJsonNodes} values: not parsed`;
  return undefined;
}
