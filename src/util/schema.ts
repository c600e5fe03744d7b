// JSON Schemas shipped in `schema/`, compiled once per process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { packageRoot } from './package-root.js';

const compiled = new Map<string, ValidateFunction>();

/** The validator of `schema/<file>`, compiled on first use. */
export function schemaValidator(file: string): ValidateFunction {
  let v = compiled.get(file);
  if (!v) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schema', file), 'utf8')) as object;
    v = new Ajv({ allErrors: false, strict: false }).compile(schema);
    compiled.set(file, v);
  }
  return v;
}
