// The taxonomy has one source, src/taxonomy.ts: the generated docs/taxonomy.md and every enum of
// stage, category or CI failure mode ids in the schemas must say what it says.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderTaxonomyDoc } from '../../scripts/taxonomy-doc.js';
import { CATEGORIES, CI_FAILURE_MODES, STAGES } from '../../src/taxonomy.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Every `enum` of a JSON schema, with where it is. */
function enumsOf(value: unknown, at = ''): { at: string; values: unknown[] }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => enumsOf(v, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'enum' && Array.isArray(v) ? [{ at, values: v }] : enumsOf(v, `${at}/${k}`)));
}

/** The enums of the schemas that list ids of `ids` (two or more of them): each must list exactly `ids`. */
function divergentEnums(schemas: Record<string, unknown>, ids: readonly string[], extra: unknown[] = []): string[] {
  const out: string[] = [];
  for (const [file, schema] of Object.entries(schemas)) {
    for (const e of enumsOf(schema)) {
      if (e.values.filter((v) => typeof v === 'string' && ids.includes(v)).length < 2) continue;
      const expected = [...ids, ...extra.filter((x) => e.values.includes(x))];
      if (JSON.stringify(e.values) !== JSON.stringify(expected)) out.push(`${file}#${e.at}`);
    }
  }
  return out;
}

function schemas(): Record<string, unknown> {
  const dir = join(ROOT, 'schema');
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown]));
}

describe('taxonomy', () => {
  it('docs/taxonomy.md is generated from src/taxonomy.ts', () => {
    expect(readFileSync(join(ROOT, 'docs', 'taxonomy.md'), 'utf8')).toBe(renderTaxonomyDoc());
  });

  it("the schemas' stage, category and CI failure mode enums list exactly the taxonomy's ids, in its order", () => {
    const all = schemas();
    // The report and triage record schemas name stages and categories: the check has something to check.
    expect(Object.values(all).flatMap((s) => enumsOf(s)).filter((e) => e.values.includes('etcd-scaling')).length).toBeGreaterThanOrEqual(3);
    expect(divergentEnums(all, STAGES)).toEqual([]);
    expect(divergentEnums(all, CATEGORIES)).toEqual([]);
    expect(divergentEnums(all, CI_FAILURE_MODES, [null])).toEqual([]);
  });

  it('catches an enum that lost an id or lists them out of order', () => {
    const report = schemas()['report-v1.schema.json'] as { definitions: { stageId: { enum: string[] }; categoryId: { enum: string[] } } };
    report.definitions.stageId.enum = report.definitions.stageId.enum.slice(1);
    report.definitions.categoryId.enum = [...report.definitions.categoryId.enum].reverse();
    expect(divergentEnums({ report }, STAGES)).toEqual(['report#/definitions/stageId']);
    expect(divergentEnums({ report }, CATEGORIES)).toEqual(['report#/definitions/categoryId']);
  });
});
