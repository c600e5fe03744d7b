// `bootlens rules test`: runs each YAML rule on the positive and negative examples kept in its
// own file, in the manner of ESLint's RuleTester. Each example is a small bundle read by the real
// reader, with only the rule under test (and the timeline) enabled: written where the gather
// scripts put its source (log lines as the log, resource lists and service records as the JSON
// the real parsers read). A positive example may say what the finding must report; repeated
// examples are errors.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readBundle } from '../ingest/read-bundle.js';
import { buildTimeline, TIMELINE_FILTERS } from '../timeline/build-timeline.js';
import { runRules } from './engine.js';
import { examplePath, globToRegExp, type RuleSource } from './sources.js';
import type { Finding, Rule, RuleStatus } from './types.js';
import type { ExampleExpectation, RuleExample, YamlRuleDoc } from './yaml-rule.js';

const ROOT = 'log-bundle-20261122111800';

/** An example that failed: which, and why. */
export interface CaseFailure {
  ruleId: string;
  /** `rule`: the rule as a whole (no examples). */
  kind: 'positive' | 'negative' | 'rule';
  /** Position among the rule's positive or negative examples (0-based). */
  index: number;
  reason: string;
}

/** What running a rule on one case bundle gave. */
interface CaseRun {
  status: RuleStatus;
  findings: Finding[];
  missing?: string[];
  error?: string;
}

/** JSON with sorted keys: the same value written in another key order is the same case. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

function fileText(value: unknown): string {
  return typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes the files as a bundle folder, reads it with the rule's (and the timeline's) filters and runs the rule alone. */
async function runOnBundle(rule: Rule, files: Record<string, string>): Promise<CaseRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bootlens-rule-'));
  try {
    mkdirSync(join(dir, ROOT));
    for (const [path, text] of Object.entries(files)) {
      const file = join(dir, ROOT, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    const bundle = await readBundle(join(dir, ROOT), { filters: [...TIMELINE_FILTERS, ...rule.filters] });
    const { findings, results } = runRules([rule], bundle, buildTimeline(bundle));
    const r = results[0];
    return { status: r.status, findings, ...(r.missing ? { missing: r.missing } : {}), ...(r.error ? { error: r.error } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Why a run is no answer at all: the rule was skipped or threw. Negative examples must run too, or they prove nothing. */
function notRun(run: CaseRun): string | undefined {
  if (run.status === 'skipped') return `skipped (missing: ${(run.missing ?? []).join(', ')})`;
  if (run.status === 'error') return `threw: ${run.error ?? ''}`;
  return undefined;
}

const LOG_KINDS = new Set(['installer', 'gather', 'serial', 'clusterapi', 'control-plane']);

/** The rule source an example is written for: its `source` (and `resource`/`service`), else the rule's first source of that kind. */
function sourceFor(doc: YamlRuleDoc, ex: RuleExample): RuleSource {
  const kind = ex.source ?? 'journal';
  const found = doc.sources.find((s) => {
    if (kind === 'journal') return 'journal' in s;
    if (kind === 'unit-status') return 'unit-status' in s;
    if (kind === 'container') return 'container' in s;
    if (kind === 'service') return 'service' in s && (ex.service === undefined || globToRegExp(s.service).test(ex.service));
    if (kind === 'resource') return 'resource' in s && (ex.resource === undefined || s.resource === ex.resource);
    return LOG_KINDS.has(kind) && 'log' in s && s.log === kind;
  });
  if (!found) {
    const what = kind === 'resource' && ex.resource ? `resource ${ex.resource}` : kind === 'service' && ex.service ? `service ${ex.service}` : `${kind} source`;
    throw new Error(`the rule reads no ${what}`);
  }
  return found;
}

/** The bundle an example stands for: its lines or JSON at the path the gather scripts use for its source. */
function exampleFiles(doc: YamlRuleDoc, ex: RuleExample): Record<string, string> {
  const source = sourceFor(doc, ex);
  const names = { ...(ex.unit ? { unit: ex.unit } : {}), ...(ex.container ? { container: ex.container } : {}), ...(ex.service ? { service: ex.service } : {}) };
  const path = examplePath(source, names);
  if ('resource' in source || 'service' in source) return { [path]: fileText(ex.json) };
  return { [path]: `${(ex.lines ?? []).join('\n')}\n` };
}

/** What a positive example's finding says that it should not. */
function expectationMisses(f: Finding, expect: ExampleExpectation): string[] {
  const out: string[] = [];
  if (expect.message !== undefined && f.message !== expect.message) out.push(`message is ${JSON.stringify(f.message)}, expected ${JSON.stringify(expect.message)}`);
  for (const [key, value] of Object.entries(expect.captures ?? {})) {
    if (f.captures[key] !== value) out.push(`capture ${key} is ${JSON.stringify(f.captures[key])}, expected ${JSON.stringify(value)}`);
  }
  for (const text of expect.evidence ?? []) {
    if (!f.evidence.some((e) => e.text.includes(text))) out.push(`no evidence line contains ${JSON.stringify(text)}`);
  }
  return out;
}

/** Which source an example is written for: its kind and the unit, container, resource or service it names. */
function exampleSourceKey(ex: RuleExample): string {
  return canonical([ex.source ?? 'journal', ex.unit ?? '', ex.container ?? '', ex.resource ?? '', ex.service ?? '']);
}

/** The input of an example, for finding repeats: its source, and its lines or JSON. */
function exampleKey(ex: RuleExample): string {
  return canonical([exampleSourceKey(ex), ex.lines ?? null, ex.json ?? null]);
}

/** Examples that repeat an earlier one of the same rule (positive or negative): each is an error. */
export function duplicateExamples(doc: YamlRuleDoc): CaseFailure[] {
  const seen = new Map<string, string>();
  const out: CaseFailure[] = [];
  for (const [kind, list] of [['positive', doc.examples?.positive ?? []], ['negative', doc.examples?.negative ?? []]] as const) {
    list.forEach((ex, index) => {
      const key = exampleKey(ex);
      const first = seen.get(key);
      if (first) out.push({ ruleId: doc.id, kind, index, reason: `repeats ${first}` });
      else seen.set(key, `${kind} example ${index + 1}`);
    });
  }
  return out;
}

/** Tests every example of a YAML rule; returns what failed (empty: all good). */
export async function testRuleExamples(rule: Rule, doc: YamlRuleDoc): Promise<CaseFailure[]> {
  if (!doc.examples) return [{ ruleId: doc.id, kind: 'rule', index: 0, reason: 'the rule has no examples' }];
  const failures = duplicateExamples(doc);
  for (const [kind, list] of [['positive', doc.examples.positive], ['negative', doc.examples.negative]] as const) {
    for (const [index, ex] of list.entries()) {
      const fail = (reason: string): void => void failures.push({ ruleId: doc.id, kind, index, reason });
      let run: CaseRun;
      try {
        run = await runOnBundle(rule, exampleFiles(doc, ex));
      } catch (err) {
        fail((err as Error).message);
        continue;
      }
      const broken = notRun(run);
      if (broken) fail(broken);
      else if (kind === 'negative' && run.findings.length > 0) fail(`fired: ${run.findings[0].message}`);
      else if (kind === 'positive' && run.findings.length === 0) fail('did not fire');
      else if (kind === 'positive' && ex.expect) for (const miss of expectationMisses(run.findings[0], ex.expect)) fail(miss);
    }
  }
  // In file order: positive examples first, each example's failures together.
  return failures.sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === 'positive' ? -1 : 1));
}
