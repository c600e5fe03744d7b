// `bootlens rules test`: every rule on the cases kept beside it, in the manner of ESLint's
// RuleTester. Each case is a small bundle read by the real reader, with only the rule under test
// (and the timeline) enabled: a YAML rule's examples are written where the gather scripts put
// their source (log lines as the log, resource lists and service records as the JSON the real
// parsers read), a TypeScript rule's `<id>.cases.yaml` gives its bundle's files. A case says
// whether the rule fires and may say what it must report; repeated cases are errors.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { readBundle } from '../ingest/read-bundle.js';
import { CATEGORIES, isCategoryId, isStageId, STAGES, type CategoryId, type StageId } from '../taxonomy.js';
import { buildTimeline, TIMELINE_FILTERS } from '../timeline/build-timeline.js';
import { schemaValidator } from '../util/schema.js';
import { runRules } from './engine.js';
import { explainSchemaError } from './schema-errors.js';
import { builtinCasesFile } from './registry.js';
import { compileGlob } from '../util/glob.js';
import { LOG_NAMES } from '../specs/bundle-sources.js';
import { describeSource, examplePath, exampleSource, sourceAppliesTo, type RuleSource } from './sources.js';
import type { Finding, Rule, RuleStatus } from './types.js';
import { parseRuleYaml, RuleError, type ExampleExpectation, type RuleExample, type YamlRuleDoc } from './yaml-rule.js';

const ROOT = 'log-bundle-20261122111800';

/** A case that failed: which, and why. */
export interface CaseFailure {
  ruleId: string;
  /** `rule`: the rule as a whole (no cases, an unreadable cases file). */
  kind: 'positive' | 'negative' | 'rule';
  /** Position among the rule's positive or negative examples, or among its cases (0-based). */
  index: number;
  /** A TypeScript rule's case name. */
  name?: string;
  reason: string;
}

/** A case of a TypeScript rule: a bundle's files and what the rule must say of it. */
export interface RuleCase {
  name: string;
  /** Where its lines come from (a thread, a source file). */
  source?: string;
  note?: string;
  /** Path below `log-bundle-<ID>/` → the file's text, or a JSON value written as JSON. */
  files: Record<string, unknown>;
  expect: CaseExpectation;
}

export interface CaseExpectation {
  fires: boolean;
  /** With `fires: true`: some finding has this stage, category and a message holding this text. */
  stage?: StageId;
  category?: CategoryId;
  message?: string;
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

/** Writes the files as a bundle folder, reads it with the rule's filters and runs the rule alone. */
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

/** Why a run is no answer at all: the rule was skipped or threw. Negative cases must run too, or they prove nothing. */
function notRun(run: CaseRun): string | undefined {
  if (run.status === 'skipped') return `skipped (missing: ${(run.missing ?? []).join(', ')})`;
  if (run.status === 'error') return `threw: ${run.error ?? ''}`;
  return undefined;
}

// ------------------------------------------------------------------ YAML rules' examples

/** The example kinds that name a `log:` source (the registry's log names). */
const LOG_KINDS = new Set<string>(LOG_NAMES);

/** The rule source an example is written for: its `source` (and `resource`/`service`), else the rule's first source of that kind. */
function sourceFor(doc: YamlRuleDoc, ex: RuleExample): RuleSource {
  const kind = ex.source ?? 'journal';
  const found = doc.sources.find((s) => {
    if (kind === 'journal') return 'journal' in s;
    if (kind === 'unit-status') return 'unit-status' in s;
    if (kind === 'container') return 'container' in s;
    if (kind === 'service') return 'service' in s && (ex.service === undefined || compileGlob(s.service).test(ex.service));
    if (kind === 'resource') return 'resource' in s && (ex.resource === undefined || s.resource === ex.resource);
    return LOG_KINDS.has(kind) && 'log' in s && s.log === kind;
  });
  if (!found) {
    const what = kind === 'resource' && ex.resource ? `resource ${ex.resource}` : kind === 'service' && ex.service ? `service ${ex.service}` : `${kind} source`;
    throw new Error(`the rule reads no ${what}`);
  }
  return found;
}

/**
 * A name the example gives that its kind of source has no place for: never ignored, since the
 * example would then be written where the rule reads and pass, while the same lines in a real
 * bundle (under that unit, container or host) are never seen by it.
 */
function misnamed(ex: RuleExample): string | undefined {
  const kind = ex.source ?? 'journal';
  if (ex.unit !== undefined && kind !== 'journal' && kind !== 'unit-status') {
    return `unit: names a journal's unit; a ${kind} example ${kind === 'container' ? 'names its container with container:' : 'has none'}`;
  }
  if (ex.container !== undefined && kind !== 'container') {
    return `container: names a container's log; a ${kind} example has none${kind === 'journal' ? ' (a journal example names its unit with unit:)' : ''}`;
  }
  if (ex.host !== undefined && !['journal', 'unit-status', 'container', 'service'].includes(kind)) return `host: a ${kind} example belongs to no host`;
  return undefined;
}

/**
 * The bundle an example stands for: its lines or JSON at the path the gather scripts use for its
 * source, under the unit, container and host it names. Throws when the example names what its
 * source has no place for, or when, so placed, its lines are in no log the rule reads.
 */
function exampleFiles(doc: YamlRuleDoc, ex: RuleExample): Record<string, string> {
  const wrong = misnamed(ex);
  if (wrong) throw new Error(wrong);
  const source = sourceFor(doc, ex);
  const names = { ...(ex.unit ? { unit: ex.unit } : {}), ...(ex.container ? { container: ex.container } : {}), ...(ex.service ? { service: ex.service } : {}), ...(ex.host ? { host: ex.host } : {}) };
  const path = examplePath(source, names);
  if ('resource' in source || 'service' in source) return { [path]: fileText(ex.json) };
  const id = exampleSource(source, names);
  if (!doc.sources.some((s) => !('resource' in s) && !('service' in s) && sourceAppliesTo(s, id))) {
    throw new Error(`placed where a real bundle keeps it (${path}), it is in no log the rule reads (${doc.sources.map(describeSource).join(', ')})`);
  }
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
  return canonical([ex.source ?? 'journal', ex.unit ?? '', ex.container ?? '', ex.host ?? '', ex.resource ?? '', ex.service ?? '']);
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

// ------------------------------------------------------------------ TypeScript rules' cases

/** Reads and validates a cases file; throws RuleError with file, line and reason. */
export function loadRuleCases(file: string): RuleCase[] {
  const doc = parseRuleYaml(readFileSync(file, 'utf8'), file);
  const validate = schemaValidator('rule-cases.schema.json');
  if (!validate(doc.value)) {
    const err = validate.errors?.[0];
    if (!err) throw new RuleError(file, undefined, 'invalid cases');
    const { pointer, message } = explainSchemaError('rule-cases.schema.json', doc.value, err);
    throw new RuleError(file, doc.lineAt(pointer) ?? doc.lineAt(err.instancePath), message);
  }
  const cases = doc.value as RuleCase[];
  cases.forEach((c, i) => {
    const at = (field: string): number | undefined => doc.lineAt(`/${i}/expect/${field}`);
    if (c.expect.stage !== undefined && !isStageId(c.expect.stage)) {
      throw new RuleError(file, at('stage'), `[${i}].expect.stage: '${c.expect.stage}' is not a taxonomy stage (valid: ${STAGES.join(', ')})`);
    }
    if (c.expect.category !== undefined && !isCategoryId(c.expect.category)) {
      throw new RuleError(file, at('category'), `[${i}].expect.category: '${c.expect.category}' is not a taxonomy category (valid: ${CATEGORIES.join(', ')})`);
    }
    if (!c.expect.fires && (c.expect.stage ?? c.expect.category ?? c.expect.message) !== undefined) {
      throw new RuleError(file, at('fires'), 'a case that does not fire has no stage, category or message to expect');
    }
  });
  return cases;
}

/** Why no finding says what the case expects; undefined when one does. */
function caseMiss(findings: Finding[], expect: CaseExpectation): string | undefined {
  const fits = (f: Finding): boolean =>
    (expect.stage === undefined || f.stage === expect.stage) && (expect.category === undefined || f.category === expect.category) && (expect.message === undefined || f.message.includes(expect.message));
  if (findings.some(fits)) return undefined;
  const wanted = [expect.stage && `stage ${expect.stage}`, expect.category && `category ${expect.category}`, expect.message && `a message containing ${JSON.stringify(expect.message)}`].filter(Boolean).join(', ');
  return `no finding has ${wanted}; found: ${findings.map((f) => `[${f.stage}/${f.category}] ${f.message}`).join(' | ')}`;
}

/** Tests a TypeScript rule on its cases; returns what failed (empty: all good). */
export async function testRuleCases(rule: Rule, cases: readonly RuleCase[]): Promise<CaseFailure[]> {
  const failures: CaseFailure[] = [];
  const seen = new Map<string, number>();
  for (const [index, c] of cases.entries()) {
    const kind = c.expect.fires ? 'positive' : 'negative';
    const fail = (reason: string): void => void failures.push({ ruleId: rule.meta.id, kind, index, name: c.name, reason });
    const key = canonical(c.files);
    const first = seen.get(key);
    if (first !== undefined) fail(`repeats the bundle of case ${first + 1} (${cases[first].name})`);
    else seen.set(key, index);
    const run = await runOnBundle(rule, Object.fromEntries(Object.entries(c.files).map(([path, value]) => [path, fileText(value)])));
    const broken = notRun(run);
    if (broken) fail(broken);
    else if (!c.expect.fires && run.findings.length > 0) fail(`fired: ${run.findings[0].message}`);
    else if (c.expect.fires && run.findings.length === 0) fail('did not fire');
    else if (c.expect.fires) {
      const miss = caseMiss(run.findings, c.expect);
      if (miss) fail(miss);
    }
  }
  return failures;
}

// ------------------------------------------------------------------ any rule

/** How many cases a rule has that must fire, that must not, and of those how many are near misses. */
export interface CaseCounts {
  positive: number;
  negative: number;
  /**
   * Negatives written for a source a positive is written for (the same kind and unit, container,
   * resource or service; for TypeScript rules, a file path of a positive case): the same log
   * saying something else, not a bundle without it.
   */
  nearMiss: number;
}

/** The cases of a TypeScript rule from the file beside it; undefined when it has none. */
export function builtinCases(ruleId: string): RuleCase[] | undefined {
  const file = builtinCasesFile(ruleId);
  return existsSync(file) ? loadRuleCases(file) : undefined;
}

function isCaseList(of: YamlRuleDoc | readonly RuleCase[]): of is readonly RuleCase[] {
  return Array.isArray(of);
}

/** The positive, negative and near-miss cases of a rule: a YAML rule's examples, or a TypeScript rule's cases. */
export function caseCounts(of: YamlRuleDoc | readonly RuleCase[]): CaseCounts {
  if (isCaseList(of)) {
    const paths = new Set(of.filter((c) => c.expect.fires).flatMap((c) => Object.keys(c.files)));
    const negative = of.filter((c) => !c.expect.fires);
    return { positive: of.length - negative.length, negative: negative.length, nearMiss: negative.filter((c) => Object.keys(c.files).some((p) => paths.has(p))).length };
  }
  const positive = of.examples?.positive ?? [];
  const negative = of.examples?.negative ?? [];
  const sources = new Set(positive.map(exampleSourceKey));
  return { positive: positive.length, negative: negative.length, nearMiss: negative.filter((ex) => sources.has(exampleSourceKey(ex))).length };
}

/** What a rule lacks of a positive case and a near-miss negative one, if anything. */
export function missingCases(counts: CaseCounts): string | undefined {
  if (counts.positive === 0) return 'no case that fires';
  if (counts.nearMiss === 0) return counts.negative === 0 ? 'no case that does not fire' : 'no near-miss case (a negative for the same source as a positive one)';
  return undefined;
}

/** One case of a rule, as the output names it. */
export interface CaseName {
  kind: 'positive' | 'negative';
  /** Position among the rule's positive or negative examples (YAML), or among its cases (TypeScript). */
  index: number;
  name: string;
}

/** What an example is called: its note, else its first line or its source. */
function exampleName(ex: RuleExample): string {
  const first = ex.lines?.[0] ?? (ex.service ? `service ${ex.service}` : ex.resource ? `resources ${ex.resource}` : (ex.source ?? 'journal'));
  const text = ex.note ?? first;
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** Every case of a rule with its name: a YAML rule's examples, or a TypeScript rule's cases. */
export function caseNames(of: YamlRuleDoc | readonly RuleCase[]): CaseName[] {
  if (isCaseList(of)) return of.map((c, index) => ({ kind: c.expect.fires ? 'positive' : 'negative', index, name: c.name }));
  const list = (kind: 'positive' | 'negative', examples: readonly RuleExample[]): CaseName[] => examples.map((ex, index) => ({ kind, index, name: exampleName(ex) }));
  return [...list('positive', of.examples?.positive ?? []), ...list('negative', of.examples?.negative ?? [])];
}

/** What testing a rule gave: each case by name, and what failed (empty: all good). */
export interface RuleTestReport {
  cases: CaseName[];
  failures: CaseFailure[];
}

/** Tests any rule on its cases: a YAML rule (with its document) on its examples, a TypeScript rule on its cases file. */
export async function testRule(rule: Rule, doc: YamlRuleDoc | undefined): Promise<CaseFailure[]> {
  return (await testRuleReport(rule, doc)).failures;
}

/** testRule, with the rule's cases named. */
export async function testRuleReport(rule: Rule, doc: YamlRuleDoc | undefined): Promise<RuleTestReport> {
  const whole = (reason: string): CaseFailure[] => [{ ruleId: rule.meta.id, kind: 'rule', index: 0, reason }];
  let cases: RuleCase[] | undefined;
  try {
    cases = doc ? undefined : builtinCases(rule.meta.id);
  } catch (err) {
    return { cases: [], failures: whole((err as Error).message) };
  }
  if (!doc && !cases) return { cases: [], failures: whole(`no cases file (${relative(process.cwd(), builtinCasesFile(rule.meta.id))})`) };
  const of = doc ?? cases ?? [];
  const lacking = missingCases(caseCounts(of));
  const failures = doc ? await testRuleExamples(rule, doc) : await testRuleCases(rule, cases ?? []);
  return { cases: caseNames(of), failures: lacking ? [...whole(lacking), ...failures] : failures };
}
