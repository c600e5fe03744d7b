// The rules shipped in rules/ and src/rules/builtin: valid, covering the whole taxonomy, and
// each passing the positive and negative examples kept in its own file.
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/rules/load-rules.js';
import { testRuleExamples } from '../../src/rules/rule-tester.js';
import { compileYamlRule } from '../../src/rules/yaml-rule.js';
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

  it('every YAML rule has examples, and passes them through the real reader', async () => {
    const failures: string[] = [];
    for (const [id, doc] of docs) {
      expect(doc.examples, id).toBeDefined();
      expect(doc.examples?.negative.length, id).toBeGreaterThanOrEqual(2);
      for (const f of await testRuleExamples(compileYamlRule(doc, id), doc)) failures.push(`${f.ruleId}: ${f.kind} example ${f.index + 1}: ${f.reason}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
