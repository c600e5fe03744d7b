// YAML rules: load and validate a file (schema, references), then compile it into a Rule whose
// line filters the reader applies in its single pass. A rule says where and when to look; what it
// looks for, and what its findings say, are entries of the message catalogue it names.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ConfigFileError, parseConfigYaml } from '../parsers/config-file.js';

export { ConfigFileError as RuleError, parseConfigYaml as parseRuleYaml } from '../parsers/config-file.js';
import type { LineFilter } from '../specs/line-filter.js';
import { filterId } from '../model/source-id.js';
import { CAUSE_SPECIFICITY, type LineOrigin } from '../catalogue/classify.js';
import { globProblem } from '../util/glob.js';
import { fixedCategory } from '../catalogue/load-catalogue.js';
import { sourceName } from '../model/source-id.js';
import type { Catalogue, CatalogueEntry } from '../catalogue/types.js';
import { stageIndex, type CategoryId } from '../taxonomy.js';
import { validator as validateRuleSchema } from '../util/compiled-schemas/rule-schema.js';
import { compileMatcher, type CompiledMatcher } from './matcher.js';
import { explainSchemaError } from './schema-errors.js';
import { checkWithInputs, type DeclaredRule } from './engine.js';
import { fillPlaceholders } from './placeholders.js';
import { countAttempts, distinctLines, foldRepeats, lineParts, pickFolded, toEvidence } from './evidence.js';
import { lineFacts } from './line-facts.js';
import type { LogName, SourceInstance, SourceLine } from '../specs/bundle-sources.js';
import { matchedLinesOf, resolveSource, sourceAppliesTo, type ResourceName, type RuleSource } from './sources.js';
import type { Evidence } from '../result/types.js';
import type { Finding, RuleContext, RuleMeta } from './types.js';

/** What a positive example's finding must say, beyond firing. */
export interface ExampleExpectation {
  /** The whole message, placeholders filled. */
  message?: string;
  /** Captures the finding must hold (a subset of them). */
  captures?: Record<string, string>;
  /** Substrings, each of some evidence line of the finding. */
  evidence?: string[];
}

/** The kind of source an example is written for. */
export type ExampleSourceKind = 'journal' | 'unit-status' | 'container' | LogName | 'service' | 'resource';

export interface RuleExample {
  /** Default: journal. */
  source?: ExampleSourceKind;
  unit?: string;
  container?: string;
  /** The host the example's log comes from (default: the source's host, else the bootstrap host). */
  host?: 'bootstrap' | 'master';
  /** Resource examples: which list (default: the rule's first resource source). */
  resource?: ResourceName;
  /** Service-record examples: which service (default: the rule's first service source). */
  service?: string;
  note?: string;
  /** Log examples: the lines of the log. */
  lines?: string[];
  /** Resource and service-record examples: the `oc get -o json` List or the record array. */
  json?: unknown;
  /** Positive examples only. */
  expect?: ExampleExpectation;
}

/** A line matcher of a rule: a message of the catalogue. */
export interface MessageRef {
  message: string;
}

/** A YAML rule file as written (after schema validation). */
export interface YamlRuleDoc {
  id: string;
  /** The catalogue entry its findings report (title, stage, category, severity, fix, text); default: `id`. */
  reports?: string;
  confidence: RuleMeta['confidence'];
  status?: RuleMeta['status'];
  sources: RuleSource[];
  match: { any?: MessageRef[]; all?: MessageRef[] };
  exclude?: MessageRef[];
  absent?: MessageRef[];
  when?: { persisted?: string; minCount?: number };
  examples?: { positive: RuleExample[]; negative: RuleExample[] };
}

function durationMs(text: string): number {
  const n = Number(text.slice(0, -1));
  return n * (text.endsWith('h') ? 3_600_000 : text.endsWith('m') ? 60_000 : 1000);
}

/** Reads and validates one rule file. Throws RuleError with file, line and reason. */
export function loadRuleFile(file: string): YamlRuleDoc {
  const yamlDoc = parseConfigYaml(readFileSync(file, 'utf8'), file);
  return validateRuleDoc(yamlDoc.value, file, (path) => yamlDoc.lineAt(path));
}

/**
 * Checks a rule document (parsed from its file, or read back from the start-up cache, which is
 * never trusted): schema, id = file name, examples. Throws ConfigFileError with file, line
 * (where `at` knows it) and reason.
 */
export function validateRuleDoc(doc: unknown, file: string, at: (path: string) => number | undefined): YamlRuleDoc {
  const validate = validateRuleSchema;
  if (!validate(doc)) {
    const err = validate.errors?.[0];
    if (!err) throw new ConfigFileError(file, undefined, 'invalid rule');
    const { pointer, message } = explainSchemaError('rule.schema.json', doc, err);
    throw new ConfigFileError(file, at(pointer) ?? at(err.instancePath), message);
  }
  const rule = doc as YamlRuleDoc;
  if (basename(file).replace(/\.ya?ml$/, '') !== rule.id) throw new ConfigFileError(file, at('/id'), `id: '${rule.id}' must equal the file name`);
  // Source globs name units, containers and services: their characters, and a few wildcards.
  rule.sources.forEach((source, i) => {
    for (const key of ['journal', 'unit-status', 'container', 'service'] as const) {
      const glob = (source as Partial<Record<typeof key, string>>)[key];
      const problem = glob === undefined ? undefined : globProblem(glob);
      if (problem) throw new ConfigFileError(file, at(`/sources/${i}/${key}`), problem);
    }
  });
  rule.examples?.negative.forEach((ex, i) => {
    if (ex.expect) throw new ConfigFileError(file, at(`examples/negative/${i}/expect`), 'a negative example makes no finding: expect belongs to positive examples');
  });
  return rule;
}

/** The catalogue entry a rule reports, checked: it has a stage, a fixed category and a finding text. */
function reportedEntry(rule: YamlRuleDoc, origin: string, catalogue: Catalogue): CatalogueEntry & { says: string } {
  const id = rule.reports ?? rule.id;
  const entry = catalogue.byId.get(id);
  if (!entry) throw new ConfigFileError(origin, undefined, `reports '${id}', which is no entry of the message catalogue`);
  if (!entry.stage) throw new ConfigFileError(origin, undefined, `reports '${id}', a catalogue entry without a stage (${entry.file})`);
  if (!fixedCategory(entry.category)) throw new ConfigFileError(origin, undefined, `reports '${id}', whose category is not fixed (${entry.file})`);
  if (!entry.says) throw new ConfigFileError(origin, undefined, `reports '${id}', a catalogue entry without a finding text (says:) (${entry.file})`);
  return entry as CatalogueEntry & { says: string };
}

/** The entries a rule's matchers name, checked to exist. */
function referenced(refs: readonly MessageRef[] | undefined, origin: string, catalogue: Catalogue): CatalogueEntry[] {
  return (refs ?? []).map((r) => {
    const e = catalogue.byId.get(r.message);
    if (!e) throw new ConfigFileError(origin, undefined, `names message '${r.message}', which is no entry of the message catalogue`);
    return e;
  });
}

/** One referenced entry: a matcher (and a filter id) per form, and the entry's own conditions. */
interface EntryMatcher {
  entry: CatalogueEntry;
  forms: CompiledMatcher[];
  ids: string[];
}

interface CompiledGroup {
  entries: EntryMatcher[];
  /** Every form's matcher, for the span of a line a finding is about. */
  matchers: CompiledMatcher[];
}

function group(ruleId: string, tag: string, entries: readonly CatalogueEntry[]): CompiledGroup {
  const out = entries.map((entry, i): EntryMatcher => {
    const forms = entry.forms.map((f) => compileMatcher({ regex: f.regex.source, flags: f.regex.flags, literals: f.literals }));
    return { entry, forms, ids: forms.map((_, j) => filterId(ruleId, `${tag}${i}.${j}`)) };
  });
  return { entries: out, matchers: out.flatMap((e) => e.forms) };
}

/** Where a source instance's lines were printed, for the catalogue's reading of them. */
function originOf(instance: SourceInstance): LineOrigin | undefined {
  if (!instance.log) return undefined;
  const host = instance.log.sourceId.host?.role;
  return { ...(host ? { host } : {}), source: sourceName(instance.log.sourceId) };
}

/**
 * Whether the catalogue reads a line a cause entry matched as naming a different cause at least
 * more specific (CAUSE_SPECIFICITY): a symptom entry never gives way, it has no cause to defend.
 */
function namesOtherCause(ctx: RuleContext, entry: CatalogueEntry, text: string, where: LineOrigin | undefined): boolean {
  const own = fixedCategory(entry.category);
  if (entry.role !== 'cause' || !own || own === 'unknown') return false;
  const r = ctx.read(text, where);
  if (!r || r.category === own || r.category === 'unknown' || (r.role !== 'cause' && r.role !== 'symptom')) return false;
  return CAUSE_SPECIFICITY[r.category] > CAUSE_SPECIFICITY[own];
}

/**
 * The cause a symptom's own lines name, more specific than the symptom's category: a wait for the
 * masters' etcd that fails on `no such host` is the name's failure. Undefined when they name none.
 */
function causeNamedBy(ctx: RuleContext, lines: readonly SourceLine[], own: CategoryId): CategoryId | undefined {
  let best: CategoryId | undefined;
  for (const l of lines) {
    const r = ctx.read(l.text);
    if (!r || (r.role !== 'cause' && r.role !== 'symptom') || r.category === 'unknown') continue;
    if (CAUSE_SPECIFICITY[r.category] > CAUSE_SPECIFICITY[best ?? own]) best = r.category;
  }
  return best;
}

/** The entry's `when` and `unless`, which its forms alone do not say. */
function entryHolds(e: CatalogueEntry, text: string): boolean {
  return (!e.when || e.when.test(text)) && !(e.unless && e.unless.test(text));
}

/** The captures of the first form of an entry that matches a line, with the entry's conditions kept. */
function entryTest(m: EntryMatcher, text: string): Record<string, string> | undefined {
  for (const f of m.forms) {
    const caps = f.test(text);
    if (caps) return entryHolds(m.entry, text) ? caps : undefined;
  }
  return undefined;
}

/** Which entries of a group a line matches: by filter ids for streamed lines, by testing otherwise. */
function hits(line: SourceLine, g: CompiledGroup): number[] {
  const out: number[] = [];
  g.entries.forEach((m, i) => {
    const hit = line.filterIds ? m.ids.some((id) => line.filterIds?.includes(id)) && entryHolds(m.entry, line.text) : entryTest(m, line.text) !== undefined;
    if (hit) out.push(i);
  });
  return out;
}

/** A compiled YAML rule: its sources are its declared inputs. */
export type YamlRule = DeclaredRule;

/** Logs this short are excerpts (lines someone posted, a unit that barely ran), not a whole history. */
const EXCERPT_LINES = 50;

/** Compiles a validated rule document into a Rule, its messages and metadata read from the catalogue. */
export function compileYamlRule(rule: YamlRuleDoc, origin: string, catalogue: Catalogue): YamlRule {
  const reports = reportedEntry(rule, origin, catalogue);
  const match = group(rule.id, 'm', referenced(rule.match.any ?? rule.match.all, origin, catalogue));
  const exclude = group(rule.id, 'x', referenced(rule.exclude, origin, catalogue));
  const absent = group(rule.id, 'a', referenced(rule.absent, origin, catalogue));
  const captureNames = new Set(['host', 'count', ...match.entries.flatMap((m) => m.entry.forms.flatMap((f) => [...f.regex.source.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map((x) => x[1])))]);
  for (const m of reports.says.matchAll(/\{([A-Za-z_]\w*)\}/g)) {
    if (!captureNames.has(m[1])) throw new ConfigFileError(origin, undefined, `the finding text of '${reports.id}' names {${m[1]}}, which no form of the rule's messages captures`);
  }
  const stage = reports.stage as NonNullable<CatalogueEntry['stage']>;
  const requireAll = rule.match.all !== undefined;
  const persistedMs = rule.when?.persisted ? durationMs(rule.when.persisted) : undefined;
  const minCount = rule.when?.minCount ?? 1;
  const appliesTo = (t: Parameters<LineFilter['appliesTo']>[0]): boolean => rule.sources.some((s) => sourceAppliesTo(s, t));
  const filters: LineFilter[] = [match, exclude, absent].flatMap((g) =>
    g.entries.flatMap((e) =>
      e.forms.map((m, j): LineFilter => {
        const f: LineFilter = { id: e.ids[j], appliesTo, literals: m.literals };
        if (m.pattern) f.pattern = m.pattern;
        return f;
      }),
    ),
  );

  function persisted(lines: SourceLine[], instance: SourceInstance, laterStageStart: number | undefined): boolean {
    if (persistedMs === undefined) return true;
    const last = lines[lines.length - 1];
    if (!instance.log) return true;
    if (last.time !== undefined && instance.log.lastTime !== undefined) {
      if (last.time >= instance.log.lastTime - persistedMs) return true;
      return laterStageStart !== undefined && last.time >= laterStageStart;
    }
    // Console lines carry seconds since boot instead of a wall time.
    if (last.monotonic !== undefined && instance.log.lastMonotonic !== undefined) {
      return last.monotonic * 1000 >= instance.log.lastMonotonic * 1000 - persistedMs;
    }
    // No time at all: persisted when in the last part of the log.
    return last.line !== undefined && last.line > instance.log.lineCount - 200;
  }

  // The lines a streamed log's filters kept for this rule: any other line hits none of its groups.
  const filterIds = [match, exclude, absent].flatMap((g) => g.entries.flatMap((e) => e.ids));
  const inputs = { anyOf: rule.sources };
  const check = checkWithInputs(inputs, (ctx) => evaluate(rule.sources.flatMap((s) => resolveSource(ctx.bundle, s)), ctx));

  function evaluate(instances: SourceInstance[], ctx: RuleContext): Finding[] {
    const laterStart = ctx.timeline.stages
      .filter((s) => stageIndex(s.id) > stageIndex(stage) && s.start !== undefined)
      .map((s) => s.start as number)
      .sort((a, b) => a - b)[0];
    const kept: SourceLine[] = [];
    const records = new Set<SourceLine>();
    const covered = new Set<number>();
    // A count threshold judges a whole log; in an excerpt (a few posted lines) it cannot be met.
    let excerptsOnly = true;
    for (const instance of instances) {
      const lines = instance.log ? matchedLinesOf(instance.log, instance.host, filterIds) : (instance.lines ?? []);
      const where = originOf(instance);
      const candidates: SourceLine[] = [];
      for (const line of lines) {
        if (hits(line, absent).length > 0) return [];
        // Error semantics before the rule's pattern: a line whose chain names another, more
        // specific, cause is that cause's (a refused pull through a proxy is the proxy's).
        const m = hits(line, match).filter((i) => !namesOtherCause(ctx, match.entries[i].entry, line.text, where));
        if (m.length === 0 || hits(line, exclude).length > 0) continue;
        m.forEach((i) => covered.add(i));
        candidates.push(line);
      }
      if (candidates.length > 0 && persisted(candidates, instance, laterStart)) {
        for (const c of candidates) {
          kept.push(c);
          if (!instance.log) records.add(c);
        }
        if (!instance.log || instance.log.lineCount > EXCERPT_LINES) excerptsOnly = false;
      }
    }
    // Thresholds count attempts (a retry's burst of lines is one), each line once however many
    // copies of its journal the bundle holds.
    const lines = distinctLines(kept.sort((a, b) => (a.time ?? 0) - (b.time ?? 0)));
    // Records (CSRs, operators, service records) are one each; log lines come in bursts.
    const count = countAttempts(lines.filter((l) => !records.has(l))) + lines.filter((l) => records.has(l)).length;
    if (count < (excerptsOnly ? 1 : minCount)) return [];
    if (requireAll && covered.size < match.entries.length) return [];
    const captures: Record<string, string> = {};
    // Every form's captures: one line may hold the parts two wordings capture (a config and a file).
    for (const l of lines) {
      for (const m of match.entries) if (entryHolds(m.entry, l.text)) for (const f of m.forms) Object.assign(captures, lineFacts(l.text, f)?.captures ?? {});
    }
    const hosts = [...new Set(lines.map((l) => l.host).filter((h): h is string => !!h))];
    const values = { ...captures, host: hosts.join(', ') || 'the bundle', count: String(count) };
    const named = reports.role === 'symptom' ? causeNamedBy(ctx, lines, fixedCategory(reports.category) ?? 'unknown') : undefined;
    const finding = ctx.finding({
      message: fillPlaceholders(reports.says, values),
      evidence: pickFolded(foldRepeats(lines)).map((f) => toEvidence(f.line, { repeats: f.repeats, parts: lineParts(f.line.text, match.matchers) })),
      captures: values,
      ...(named ? { category: named } : {}),
      ...(reports.role === 'symptom' ? { symptom: true } : {}),
    });
    // The finding spans every line it counted, not only the ones it cites.
    const times = lines.map((l) => l.time).filter((x): x is number => x !== undefined);
    if (times.length > 0) {
      finding.firstTime = times[0];
      finding.lastTime = times[times.length - 1];
    }
    if (hosts.length > 0) finding.hosts = hosts;
    return [finding];
  }

  return {
    inputs,
    meta: {
      id: rule.id,
      title: reports.title,
      stage,
      category: fixedCategory(reports.category) ?? 'unknown',
      severity: reports.severity,
      confidence: rule.confidence,
      description: reports.description ?? reports.title,
      fix: reports.fix,
      references: reports.references,
      ...(rule.status ? { status: rule.status } : {}),
      origin,
    },
    filters,
    check,
  };
}
