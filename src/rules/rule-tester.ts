// `bootlens rules test`: runs each YAML rule on the positive and negative examples kept in its
// own file. Log examples go through the real reader (a temp bundle folder, real journal
// layout); structured sources (service records, resources) are fed as lines.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readBundle } from '../ingest/read-bundle.js';
import { buildTimeline } from '../timeline/build-timeline.js';
import { contextFor } from './engine.js';
import { pathOf } from '../specs/layout.js';
import { exampleSource, type RuleSource, type SourceInstance } from './sources.js';
import type { RuleExample, YamlRule, YamlRuleDoc } from './yaml-rule.js';

const ROOT = 'log-bundle-20261122111800';

export interface ExampleFailure {
  ruleId: string;
  kind: 'positive' | 'negative';
  index: number;
  reason: string;
}

/** The source an example is written for: its `source` field, else the rule's first source of that kind. */
function sourceFor(doc: YamlRuleDoc, ex: RuleExample): RuleSource {
  const kind = ex.source ?? 'journal';
  const byKind = doc.sources.find((s) => {
    if (kind === 'journal') return 'journal' in s;
    if (kind === 'unit-status') return 'unit-status' in s;
    if (kind === 'container') return 'container' in s;
    if (kind === 'service') return 'service' in s;
    if (kind === 'resource') return 'resource' in s;
    return 'log' in s && s.log === kind;
  });
  return byKind ?? doc.sources[0];
}

/** Path inside the temp bundle where the example's lines are written: the layout's own path for the source. */
function examplePath(source: RuleSource, ex: RuleExample): string | undefined {
  const id = exampleSource(source, { ...(ex.unit ? { unit: ex.unit } : {}), ...(ex.container ? { container: ex.container } : {}) });
  return id ? pathOf(id) : undefined;
}

/** Runs one example; returns the number of findings. */
async function runExample(rule: YamlRule, doc: YamlRuleDoc, ex: RuleExample): Promise<number> {
  const source = sourceFor(doc, ex);
  const path = examplePath(source, ex);
  if (!path) {
    // Service records and resources: the lines are what the rule reads.
    const instance: SourceInstance = { label: 'example', lines: ex.lines.map((text, i) => ({ file: 'example', line: i + 1, text })) };
    const dir = mkdtempSync(join(tmpdir(), 'bootlens-rule-'));
    try {
      mkdirSync(join(dir, ROOT));
      // An otherwise empty bundle: the example's lines are handed to the rule directly.
      writeFileSync(join(dir, ROOT, 'gather.log'), 'Gathering bootstrap systemd summary ...\n');
      const bundle = await readBundle(join(dir, ROOT));
      return rule.evaluate([instance], contextFor(rule, bundle, buildTimeline(bundle))).length;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'bootlens-rule-'));
  try {
    const file = join(dir, ROOT, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, ex.lines.join('\n') + '\n');
    const bundle = await readBundle(join(dir, ROOT), { filters: rule.filters });
    const out = rule.check(contextFor(rule, bundle, buildTimeline(bundle)));
    if (!Array.isArray(out)) throw new Error(`the example's source is missing (${out.missing.join(', ')})`);
    return out.length;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tests every example of a rule; returns what failed (empty: all good). */
export async function testRuleExamples(rule: YamlRule, doc: YamlRuleDoc): Promise<ExampleFailure[]> {
  const failures: ExampleFailure[] = [];
  if (!doc.examples) {
    return [{ ruleId: doc.id, kind: 'positive', index: 0, reason: 'the rule has no examples' }];
  }
  for (const [kind, list] of [['positive', doc.examples.positive], ['negative', doc.examples.negative]] as const) {
    for (const [index, ex] of list.entries()) {
      try {
        const n = await runExample(rule, doc, ex);
        if (kind === 'positive' && n === 0) failures.push({ ruleId: doc.id, kind, index, reason: 'did not fire' });
        if (kind === 'negative' && n > 0) failures.push({ ruleId: doc.id, kind, index, reason: 'fired' });
      } catch (err) {
        failures.push({ ruleId: doc.id, kind, index, reason: (err as Error).message });
      }
    }
  }
  return failures;
}
