// The knowledge base is the catalogue's known failures: entries with the lines posted with them
// (seenWith). Its text lives nowhere else; `kb add` writes a catalogue file of its own.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogueError } from '../../src/catalogue/load-catalogue.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { KnowledgeBaseError, knownIssueYaml, loadKnowledgeBase, loadKnownIssueFile, parseKnownIssue, writeKnownIssue } from '../../src/similarity/knowledge-base.js';
import { tempDir } from '../support/fixture-bundle.js';

const ENTRY = {
  id: 'sample-issue',
  title: 'A sample known issue',
  stage: 'release-image' as const,
  category: 'registry-auth' as const,
  lines: ['Feb 27 15:08:51 bootstrap release-image-download.sh[1632]: Error: reading manifest in quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required'],
  fix: ['Fix the pull secret.'],
  references: ['https://github.com/openshift/installer/pull/775'],
};

function problem(text: string, name = 'kb-sample-issue.yaml'): KnowledgeBaseError | CatalogueError {
  try {
    parseKnownIssue(text, name);
  } catch (err) {
    if (err instanceof CatalogueError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('knowledge base', () => {
  it('is the catalogue\'s known failures: at least 30, with public references, taxonomy ids, and the rule that reports the same failure where one does', () => {
    const kb = loadKnowledgeBase();
    expect(kb.length).toBeGreaterThanOrEqual(30);
    const ruleIds = new Set(loadRules().rules.map((r) => r.meta.id));
    for (const e of kb) {
      expect(e.references.length, e.id).toBeGreaterThan(0);
      for (const r of e.references) expect(r, e.id).toMatch(/^https:\/\//);
      if (e.rule) expect(ruleIds.has(e.rule), `${e.id} names rule ${e.rule}`).toBe(true);
      expect(e.hash).toMatch(/^[0-9a-f]{16}$/);
      // Its title and fix are the catalogue entry's: one home.
      const entry = shippedCatalogue().byId.get(e.id);
      expect(entry?.title).toBe(e.title);
      expect(entry?.fix).toEqual(e.fix);
    }
    expect(new Set(kb.map((e) => e.id)).size).toBe(kb.length);
  });

  it('holds no file of its own: no YAML rule and no known issue holds message text outside the catalogue', () => {
    expect(readdirSync(join(process.cwd(), 'rules')).filter((n) => n === 'known-issues')).toEqual([]);
    // A rule file names messages; it has no pattern, title or fix of its own (its schema refuses them).
    for (const doc of loadRules().docs.values()) {
      expect(Object.keys(doc).filter((k) => !['id', 'reports', 'confidence', 'status', 'sources', 'match', 'exclude', 'absent', 'when', 'examples'].includes(k)), doc.id).toEqual([]);
      for (const m of [...(doc.match.any ?? []), ...(doc.match.all ?? []), ...(doc.exclude ?? []), ...(doc.absent ?? [])]) expect(Object.keys(m), doc.id).toEqual(['message']);
    }
  });

  it('writes and reads back an entry as a catalogue file of its own', () => {
    const dir = tempDir();
    const { file, entry, yaml } = writeKnownIssue(dir, ENTRY);
    expect(file).toBe(join(dir, 'kb-sample-issue.yaml'));
    expect(readFileSync(file, 'utf8')).toBe(yaml);
    expect(yaml).toMatch(/^# A known failure added with `bootlens kb add`/);
    expect(entry).toMatchObject({ id: 'sample-issue', stage: 'release-image', category: 'registry-auth', lines: ENTRY.lines, file });
    expect(loadKnownIssueFile(file)).toEqual(entry);
    expect(loadKnowledgeBase(dir).map((e) => e.id)).toEqual(['sample-issue']);
    expect(() => writeKnownIssue(dir, ENTRY)).toThrow(/exists \(use --force/);
  });

  it('reports schema, YAML, taxonomy and wordless lines with file and line', () => {
    const text = knownIssueYaml(ENTRY);
    expect(problem(text.replace('    severity: error', '    severity: high')).message).toMatch(/^kb-sample-issue\.yaml:\d+: \/entries\/0\/severity: must be one of critical, error, warning, info/);
    expect(problem(text.replace('title: A sample', 'title: [A sample')).message).toMatch(/^kb-sample-issue\.yaml:\d+: YAML: /);
    expect(problem(text.replace('stage: release-image', 'stage: bootstrap')).message).toMatch(/stage 'bootstrap' is not a taxonomy stage/);
    expect(problem(text.replace('category: registry-auth', 'category: auth')).message).toMatch(/category 'auth' is not a taxonomy category/);
    expect(problem(text.replace(/ {6}- 'Feb 27[^\n]*/, "      - '10.0.0.5:6443 2026-11-22T10:15:04Z 12345'")).message).toBe(
      "kb-sample-issue.yaml: entry 'sample-issue': seenWith[0] has no words left once times, addresses and numbers are masked",
    );
  });

  it('rejects an id the catalogue beside it already has', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.yaml'), knownIssueYaml(ENTRY));
    expect(() => writeKnownIssue(dir, ENTRY)).toThrow(/entry id 'sample-issue' is also defined in/);
    expect(() => loadKnownIssueFile(join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: cannot read: ENOENT/);
  });
});
