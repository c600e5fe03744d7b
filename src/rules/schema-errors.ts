// A JSON Schema error on a rule or cases file said in one line a rule author can act on: the
// field by its YAML path (`examples.positive[0]`), what is wrong with it, and the valid fields or
// values, read from the schema itself (an unknown key is named as such, never reported as the
// first alternative's missing property).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { packageRoot } from '../util/package-root.js';

type SchemaNode = {
  $ref?: string;
  properties?: Record<string, SchemaNode | boolean>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  required?: string[];
  enum?: unknown[];
  definitions?: Record<string, SchemaNode>;
};

const schemas = new Map<string, SchemaNode>();

function schemaOf(file: string): SchemaNode {
  let s = schemas.get(file);
  if (!s) {
    s = JSON.parse(readFileSync(join(packageRoot(), 'schema', file), 'utf8')) as SchemaNode;
    schemas.set(file, s);
  }
  return s;
}

function resolve(root: SchemaNode, node: SchemaNode | undefined): SchemaNode | undefined {
  let n = node;
  for (let hops = 0; n?.$ref && hops < 8; hops++) n = root.definitions?.[n.$ref.replace('#/definitions/', '')];
  return n;
}

/** The schema that describes the value at `path` (JSON pointer segments), following properties, items and $ref. */
function nodeAt(root: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  let node = resolve(root, root);
  for (const seg of path) {
    if (!node) return undefined;
    const next = /^\d+$/.test(seg) && node.items ? node.items : node.properties?.[seg];
    node = typeof next === 'object' ? resolve(root, next) : undefined;
  }
  return node;
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let v = data;
  for (const seg of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[seg] : undefined;
  return v;
}

/** A JSON pointer as a YAML author reads it: `/examples/positive/0` → `examples.positive[0]`. */
export function fieldName(pointer: string): string {
  const segs = pointer.split('/').slice(1);
  if (segs.length === 0) return '';
  return segs.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : `${i === 0 ? '' : '.'}${s}`)).join('');
}

function segments(pointer: string): string[] {
  return pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Alternatives a `oneOf` of `required` lists: the keys of which exactly one must be given. */
function alternatives(node: SchemaNode): string[] {
  return (node.oneOf ?? []).flatMap((o) => o.required ?? []);
}

/**
 * One line for the first schema error of `data` (validated against `schema/<file>`): the field,
 * what is wrong, and what is valid there.
 */
export function explainSchemaError(file: string, data: unknown, e: ErrorObject): { pointer: string; message: string } {
  const root = schemaOf(file);
  // The object the error is about: for a property the schema forbids (false), the one holding it.
  let pointer = e.instancePath;
  let path = segments(pointer);
  let node = nodeAt(root, path);
  let value = valueAt(data, path);
  if (path.length > 0 && e.keyword === 'false schema') {
    path = path.slice(0, -1);
    pointer = `/${path.join('/')}`;
    node = nodeAt(root, path);
    value = valueAt(data, path);
  }
  const name = fieldName(pointer === '/' ? '' : pointer);
  // The top level has no field name: the message speaks for itself there.
  const field = name || 'top level';
  if (node && value !== null && typeof value === 'object' && !Array.isArray(value) && node.properties && node.additionalProperties === false) {
    const known = Object.keys(node.properties);
    const unknown = Object.keys(value).filter((k) => !known.includes(k));
    if (unknown.length > 0) return { pointer: `${pointer === '/' ? '' : pointer}/${unknown[0]}`, message: `${field}: unknown field '${unknown[0]}' (valid fields: ${known.join(', ')})` };
    const choices = alternatives(node);
    if (choices.length > 0) {
      const given = choices.filter((k) => k in value);
      if (given.length !== 1) return { pointer, message: `${field}: give exactly one of ${choices.join(', ')}${given.length > 1 ? ` (it gives ${given.join(' and ')})` : ''}` };
    }
  }
  const missing = e.keyword === 'required' ? String(e.params.missingProperty) : undefined;
  const has = (key: string): boolean => value !== null && typeof value === 'object' && key in value;
  if ((e.keyword === 'false schema' && e.instancePath.endsWith('/lines')) || (missing === 'json' && has('lines'))) {
    return { pointer, message: `${field}: a resource or service example gives the List or the record array as json:, read by the real parser, not lines:` };
  }
  if ((e.keyword === 'false schema' && e.instancePath.endsWith('/json')) || (missing === 'lines' && has('json'))) {
    return { pointer, message: `${field}: a log example gives its lines as lines:, not json:` };
  }
  if (missing === 'json') return { pointer, message: `${field}: a resource or service example needs json: (the List or the record array)` };
  if (missing === 'lines') return { pointer, message: `${field}: a log example needs lines: (the log's lines)` };
  if (missing !== undefined) return { pointer, message: `${field}: missing required field '${missing}'` };
  if (e.keyword === 'enum') return { pointer, message: `${field}: '${String(valueAt(data, segments(e.instancePath)))}' is not one of ${(e.params.allowedValues as unknown[]).join(', ')}` };
  if (e.keyword === 'false schema') return { pointer, message: `${field}: not allowed here` };
  return { pointer, message: `${field}: ${e.message ?? 'invalid'}` };
}
