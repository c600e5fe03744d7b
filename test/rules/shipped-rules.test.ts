// The rules shipped in rules/ and src/rules/builtin: valid, covering the whole taxonomy, each
// with examples (rule-cases.test.ts runs every rule's cases).
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/rules/load-rules.js';
import { CATEGORIES, STAGES } from '../../src/taxonomy.js';

const { rules, docs } = loadRules();

describe('shipped rules', () => {
  it('are at least 40, with unique ids and references', () => {
    expect(rules.length).toBeGreaterThanOrEqual(40);
    expect(new Set(rules.map((r) => r.meta.id)).size).toBe(rules.length);
    for (const r of rules) expect(r.meta.references.length, r.meta.id).toBeGreaterThan(0);
  });

  it('cover every stage and every category of the taxonomy', () => {
    const stages = new Set(rules.map((r) => r.meta.stage));
    const categories = new Set(rules.map((r) => r.meta.category));
    expect(STAGES.filter((s) => !stages.has(s))).toEqual([]);
    expect(CATEGORIES.filter((c) => !categories.has(c))).toEqual([]);
  });

  it('every YAML rule has examples, two of them negative (the examples run in rule-cases.test.ts)', () => {
    for (const [id, doc] of docs) {
      expect(doc.examples, id).toBeDefined();
      expect(doc.examples?.negative.length, id).toBeGreaterThanOrEqual(2);
    }
  });
});
