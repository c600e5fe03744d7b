// Loads YAML the one way bootlens reads it: js-yaml's default schema (in js-yaml 4 the safe
// one: no functions, no regexps, no code), size limits, and the line of every node, so that a
// rule, a known issue or a suppression file with a mistake is named as file:line.
import yaml from 'js-yaml';

/** What a YAML file may cost before it is refused. */
export interface YamlLimits {
  /** The text's size, and the size of its scalars and keys once every alias is followed. */
  maxBytes: number;
  /** Nodes once aliases are followed: a billion-laughs file is small but walks forever. */
  maxNodes: number;
}

/** Limits for YAML bootlens reads as configuration; a rule or an entry is a few kilobytes. */
export const CONFIG_YAML_LIMITS: YamlLimits = { maxBytes: 1024 * 1024, maxNodes: 100_000 };

/** YAML that cannot be used: `line` is 1-based when the parser or a limit knows it. */
export class YamlError extends Error {
  constructor(
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Where a js-yaml exception points (1-based line) and its reason without the code excerpt. */
export function yamlErrorAt(e: unknown): { line: number | undefined; reason: string } {
  const err = e as { mark?: { line?: unknown }; reason?: unknown; message?: unknown } | undefined;
  const line = typeof err?.mark?.line === 'number' ? err.mark.line + 1 : undefined;
  if (typeof err?.reason === 'string') return { line, reason: err.reason };
  return { line, reason: e instanceof Error ? e.message.split('\n', 1)[0] : String(e) };
}

/** Limits for YAML read from a bundle (static pod manifests); the reader passes its own. */
export const DATA_YAML_LIMITS: YamlLimits = { maxBytes: 4 * 1024 * 1024, maxNodes: 100_000 };

/**
 * Every document of a YAML stream, with the same safe schema. Throws js-yaml's exception for
 * invalid YAML, and YamlError for a stream whose aliases, followed, make it larger than the limits:
 * js-yaml shares an alias's node, but every walk over the result (the model, a JSON report)
 * copies it, and 240 copies of a 237 KB manifest were 1.5 GB.
 */
export function loadYamlStream(text: string, limits: YamlLimits = DATA_YAML_LIMITS): unknown[] {
  if (Buffer.byteLength(text) > limits.maxBytes) throw new YamlError(undefined, `larger than ${limits.maxBytes} bytes`);
  const docs = yaml.loadAll(text, null, { schema: yaml.DEFAULT_SCHEMA });
  checkExpansion(docs, limits);
  return docs;
}

/** Lines of a mapping's keys or a sequence's items, as the parser saw them. */
interface NodeLines {
  line: number;
  keys?: Map<string, number>;
  items?: number[];
}

/** A loaded YAML document and the lines of its nodes. */
export interface YamlDocument {
  value: unknown;
  /**
   * The line of a JSON pointer (`/match/any/0`, `/lines/2`): a key's line, a sequence item's
   * line, or the nearest enclosing one the parser recorded.
   */
  lineAt(pointer: string): number | undefined;
}

interface Frame {
  line: number;
  children: { result: unknown; line: number }[];
}

/** Nodes and bytes (of keys and scalars) a value has once every alias is followed. */
interface Expansion {
  nodes: number;
  bytes: number;
}

/**
 * The expansion of a parsed YAML value: each distinct node is measured once (an alias is the
 * same object as its anchor), so the walk is linear in the text whatever the aliases multiply.
 * A cycle (`&a [*a]`) expands without end.
 */
function expansionOf(value: unknown): Expansion {
  const memo = new Map<object, Expansion>();
  const scalarBytes = (v: unknown): number => (typeof v === 'string' ? v.length : 8);
  const visit = (v: unknown): Expansion => {
    if (v === null || typeof v !== 'object') return { nodes: 1, bytes: scalarBytes(v) };
    const known = memo.get(v);
    if (known) return known;
    memo.set(v, { nodes: Infinity, bytes: Infinity });
    const out: Expansion = { nodes: 1, bytes: 0 };
    for (const [key, child] of Object.entries(v)) {
      const c = visit(child);
      out.nodes += c.nodes;
      out.bytes += c.bytes + (Array.isArray(v) ? 0 : key.length);
    }
    memo.set(v, out);
    return out;
  };
  return visit(value);
}

/** Throws YamlError when `value`, aliases followed, holds more nodes or bytes than the limits allow. */
function checkExpansion(value: unknown, limits: YamlLimits): void {
  const { nodes, bytes } = expansionOf(value);
  if (nodes > limits.maxNodes) throw new YamlError(undefined, `more than ${limits.maxNodes} nodes once aliases are followed`);
  if (bytes > limits.maxBytes) throw new YamlError(undefined, `larger than ${limits.maxBytes} bytes once aliases are followed`);
}

/**
 * Parses one YAML document with the safe schema. Throws YamlError (line and reason) for invalid
 * YAML or a file past the limits.
 */
export function parseYamlDocument(text: string, file: string, limits: YamlLimits = CONFIG_YAML_LIMITS): YamlDocument {
  if (Buffer.byteLength(text) > limits.maxBytes) throw new YamlError(undefined, `larger than ${limits.maxBytes} bytes`);
  const nodes = new WeakMap<object, NodeLines>();
  const stack: Frame[] = [{ line: 0, children: [] }];
  let value: unknown;
  try {
    value = yaml.load(text, {
      filename: file,
      json: false,
      schema: yaml.DEFAULT_SCHEMA,
      // js-yaml reports each node's open and close; a scalar may be opened twice, nested, so
      // each frame counts once in its parent.
      listener(event, state) {
        if (event === 'open') {
          stack.push({ line: state.line + 1, children: [] });
          return;
        }
        const frame = stack.pop();
        if (!frame) return;
        const result: unknown = state.result;
        stack[stack.length - 1]?.children.push({ result, line: frame.line });
        if (result === null || typeof result !== 'object' || nodes.has(result)) return;
        nodes.set(result, nodeLines(result, frame));
      },
    });
  } catch (e) {
    const at = yamlErrorAt(e);
    throw new YamlError(at.line, at.reason);
  }
  checkExpansion(value, limits);
  return { value, lineAt: (pointer) => lineAt(value, nodes, pointer) };
}

function nodeLines(result: object, frame: Frame): NodeLines {
  const out: NodeLines = { line: frame.line };
  const c = frame.children;
  // An empty item (`- `) or a merge key leaves no node of its own: then the counts differ and
  // only the container's line is known.
  if (Array.isArray(result)) {
    if (c.length === result.length) out.items = c.map((x) => x.line);
  } else if (c.length % 2 === 0 && c.length / 2 === Object.keys(result).length) {
    out.keys = new Map();
    for (let i = 0; i < c.length; i += 2) out.keys.set(String(c[i].result), c[i].line);
  }
  return out;
}

function lineAt(root: unknown, nodes: WeakMap<object, NodeLines>, pointer: string): number | undefined {
  let node = root;
  let line = typeof root === 'object' && root !== null ? nodes.get(root)?.line : undefined;
  for (const seg of pointer.split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object') break;
    const lines = nodes.get(node);
    const at = Array.isArray(node) ? lines?.items?.[Number(seg)] : lines?.keys?.get(seg);
    node = (node as Record<string, unknown>)[seg];
    line = at ?? line;
  }
  return line;
}
