// The JSON Schemas shipped in `schema/`, as validators compiled when bootlens is built
// (`npm run schemas` writes `compiled-schemas/`): no schema is compiled, and no code is generated
// or read back from disk, at run time.
import type { ValidateFunction } from 'ajv';
import knownIssue from './compiled-schemas/known-issue-schema.js';
import reportV1 from './compiled-schemas/report-v1-schema.js';
import ruleCases from './compiled-schemas/rule-cases-schema.js';
import rule from './compiled-schemas/rule-schema.js';
import triageRecord from './compiled-schemas/triage-record-schema.js';

/** The schema files of `schema/` and their validators. */
const VALIDATORS = new Map<string, ValidateFunction>([
  ['known-issue.schema.json', knownIssue as unknown as ValidateFunction],
  ['report-v1.schema.json', reportV1 as unknown as ValidateFunction],
  ['rule-cases.schema.json', ruleCases as unknown as ValidateFunction],
  ['rule.schema.json', rule as unknown as ValidateFunction],
  ['triage-record.schema.json', triageRecord as unknown as ValidateFunction],
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
