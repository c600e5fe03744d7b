import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/rules/load-rules.js';
import { RuleError } from '../../src/rules/yaml-rule.js';
import { KnowledgeBaseError, loadKnowledgeBase, loadKnownIssueFile, parseKnownIssue } from '../../src/similarity/knowledge-base.js';
import { tempDir } from '../support/fixture-bundle.js';

const VALID = `id: sample-issue
title: A sample known issue
stage: release-image
category: registry-auth
lines:
  - 'Feb 27 15:08:51 bootstrap release-image-download.sh[1632]: Error: reading manifest in quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required'
fix:
  - Fix the pull secret.
references:
  - https://github.com/openshift/installer/pull/775
`;

function problem(text: string, name = 'sample-issue.yaml'): KnowledgeBaseError {
  try {
    parseKnownIssue(text, name);
  } catch (err) {
    if (err instanceof KnowledgeBaseError) return err;
    throw err;
  }
  throw new Error('expected a KnowledgeBaseError');
}

describe('knowledge base', () => {
  it('ships at least 30 valid entries with public references, taxonomy ids and existing rules', () => {
    const kb = loadKnowledgeBase();
    expect(kb.length).toBeGreaterThanOrEqual(30);
    const ruleIds = new Set(loadRules().rules.map((r) => r.meta.id));
    for (const e of kb) {
      expect(e.references.length, e.id).toBeGreaterThan(0);
      for (const r of e.references) expect(r, e.id).toMatch(/^https:\/\/(github\.com|docs\.redhat\.com)\//);
      if (e.rule) expect(ruleIds.has(e.rule), `${e.id} names rule ${e.rule}`).toBe(true);
      expect(e.hash).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(kb.map((e) => e.id)).size).toBe(kb.length);
    // Rules never load the knowledge base as rules.
    expect([...ruleIds].some((id) => kb.some((e) => e.id === id && e.rule !== id))).toBe(false);
  });

  it('parses a valid entry', () => {
    const e = parseKnownIssue(VALID, '/x/sample-issue.yaml');
    expect(e).toMatchObject({ id: 'sample-issue', stage: 'release-image', category: 'registry-auth', file: '/x/sample-issue.yaml' });
  });

  it('reports schema problems with file and line', () => {
    const unknown = problem(VALID.replace('fix:', 'severity: high\nfix:'));
    expect(unknown).toBeInstanceOf(RuleError);
    expect(unknown.message).toBe("sample-issue.yaml:7: (top): unknown field 'severity'");
    expect(problem(VALID.replace('  - https://github.com/openshift/installer/pull/775', '  - see the bug')).message).toBe(
      'sample-issue.yaml:10: /references/0: must match pattern "^https?://"',
    );
    expect(problem(VALID.replace(/fix:\n {2}- Fix the pull secret.\n/, '')).message).toBe("sample-issue.yaml:1: (top): missing field 'fix'");
  });

  it('reports YAML, id, taxonomy and wordless lines with file and line', () => {
    expect(problem(VALID.replace('title: A sample', 'title: [A sample')).message).toMatch(/^sample-issue\.yaml:\d+: YAML: /);
    expect(problem(VALID, 'other-name.yaml').message).toBe("other-name.yaml:1: id 'sample-issue' must equal the file name 'other-name'");
    expect(problem(VALID.replace('stage: release-image', 'stage: bootstrap')).message).toMatch(/^sample-issue\.yaml:3: stage 'bootstrap' is not a taxonomy stage/);
    expect(problem(VALID.replace('category: registry-auth', 'category: auth')).message).toMatch(/^sample-issue\.yaml:4: category 'auth' is not a taxonomy category/);
    expect(problem(VALID.replace(/ {2}- 'Feb 27[^\n]*/, "  - '10.0.0.5:6443 2026-11-22T10:15:04Z 12345'")).message).toBe(
      'sample-issue.yaml:6: /lines/0: has no words left once times, addresses and numbers are masked',
    );
  });

  it('rejects duplicate ids across files', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'sample-issue.yaml'), VALID);
    writeFileSync(join(dir, 'sample-issue.yml'), VALID);
    expect(() => loadKnowledgeBase(dir)).toThrow(/id 'sample-issue' is also defined in/);
    expect(() => loadKnownIssueFile(join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: cannot read: ENOENT/);
  });
});
