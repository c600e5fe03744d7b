// The validators bootlens runs are compiled from schema/ when it is built and committed: this
// fails while they are not what the schemas compile to now (run `npm run schemas`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILED_DIR, compiledSchemaModules, moduleNameOf } from '../../scripts/compile-schemas.js';
import { compiledSchemaFiles, schemaValidator } from '../../src/util/schema.js';

describe('compiled schemas', () => {
  it('are what the schemas compile to, one module per schema, each one in use', () => {
    const fresh = compiledSchemaModules();
    const committed = readdirSync(join(process.cwd(), COMPILED_DIR)).sort();
    expect(committed).toEqual([...fresh.keys()].sort());
    for (const [name, text] of fresh) expect(readFileSync(join(process.cwd(), COMPILED_DIR, name), 'utf8'), `${name}: run npm run schemas`).toBe(text);
    const schemas = readdirSync(join(process.cwd(), 'schema')).filter((n) => n.endsWith('.schema.json'));
    expect(compiledSchemaFiles().sort()).toEqual(schemas.sort());
    expect(schemas.map((s) => `${moduleNameOf(s)}.ts`).sort()).toEqual(committed);
  });

  it('validate as the schema says, with ajv-style errors', () => {
    const validate = schemaValidator('rule.schema.json');
    expect(validate({ id: 'x', title: 'title', unknownField: 1 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: expect.any(String), instancePath: expect.any(String) });
    const record = schemaValidator('triage-record.schema.json');
    expect(record({ v: 1, bundle: 'b', path: '/p', status: 'unreadable', error: 'cut off' })).toBe(true);
    expect(record({ v: 1, bundle: 'b', path: '/p', status: 'unreadable', error: 'cut off', gatheredAt: -1 })).toBe(false);
    expect(() => schemaValidator('no-such.schema.json')).toThrow(/no compiled validator/);
  });
});
