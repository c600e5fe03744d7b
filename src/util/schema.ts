// The JSON Schemas shipped in `schema/`, as validators compiled when bootlens is built
// (`npm run schemas` writes `compiled-schemas/`): no schema is compiled, and no code is generated
// or read back from disk, at run time. Modules on the start-up path import their own schema's
// module (`compiled-schemas/rule-schema.js`) so that a run loads only the validators it uses;
// this one serves the others and the tests by file name.
import type { ValidateFunction } from 'ajv';
import { validator as catalogue } from './compiled-schemas/catalogue-schema.js';
import { validator as reportV1 } from './compiled-schemas/report-v1-schema.js';
import { validator as ruleCases } from './compiled-schemas/rule-cases-schema.js';
import { validator as rule } from './compiled-schemas/rule-schema.js';
import { validator as triageRecord } from './compiled-schemas/triage-record-schema.js';

/** The schema files of `schema/` and their validators. */
const VALIDATORS = new Map<string, ValidateFunction>([
  ['catalogue.schema.json', catalogue],
  ['report-v1.schema.json', reportV1],
  ['rule-cases.schema.json', ruleCases],
  ['rule.schema.json', rule],
  ['triage-record.schema.json', triageRecord],
]);

/** The validator of `schema/<file>`; its `errors` hold the last call's errors, as with ajv. */
export function schemaValidator(file: string): ValidateFunction {
  const v = VALIDATORS.get(file);
  if (!v) throw new Error(`no compiled validator for schema/${file} (run npm run schemas)`);
  return v;
}

/** The schema files that have a compiled validator. */
export function compiledSchemaFiles(): string[] {
  return [...VALIDATORS.keys()];
}
