// `kb add`: a new knowledge-base entry from a diagnosed bundle. It learns what bootlens does not
// know yet: when the cause the entry is for is not the one a rule named (another category, or
// `unknown`), its lines are the failed unit's last errors, else the last error-like lines before
// the failure, never the symptoms a rule saw; the result says which it took.
import { existsSync } from 'node:fs';
import { readAndAnalyze } from '../analysis/analyze.js';
import { TemplateCounter } from '../diff/template-counter.js';
import { readBundle, type ReadOptions } from '../ingest/read-bundle.js';
import { redactLines } from '../redact/redact.js';
import { rootFinding } from '../result/root-finding.js';
import type { AnalysisResult, Finding } from '../result/types.js';
import { LAST_ERROR_ID } from '../rules/builtin/last-error.js';
import { loadRules } from '../rules/load-rules.js';
import { shippedClassifier } from '../catalogue/shipped.js';
import { createMiner, type CandidateOptions, type CandidateTemplate } from '../similarity/drain.js';
import { defaultKnowledgeBaseDir, knownIssuePath, writeKnownIssue, type KnownIssue } from '../similarity/knowledge-base.js';
import { lineTemplate, templateOf } from '../similarity/line-template.js';
import { errorWeight } from '../similarity/tokens.js';
import { CATEGORIES, isCategoryId, isStageId, STAGES, type CategoryId, type StageId } from '../taxonomy.js';

/** Read options `kb` passes to the reader (limits); the line observer is its own. */
export type KbReadOptions = Omit<ReadOptions, 'observeLines' | 'filters'>;

/** An option the user gave that cannot make an entry: one line, exit 2. */
export class KbOptionError extends Error {
  override readonly name = 'KbOptionError';
}

/** `kb add <bundle> --id ID --title ... --stage ... --category ...`. */
export interface KbAddOptions {
  bundle: string;
  id: string;
  title: string;
  stage: string;
  category: string;
  /** Fix steps (at least one). */
  fix: readonly string[];
  /** Public reports or docs the entry stands on (at least one URL). */
  references: readonly string[];
  description?: string;
  /** The rule covering the same failure, if any. */
  rule?: string;
  /** Catalogue folder to write `kb-<id>.yaml` into; default the shipped `rules/catalogue/`. */
  out?: string;
  /** Candidate lines taken (best first); default 3. */
  lines?: number;
  /** Where the failure is, to pick lines near it (see CandidateOptions). */
  candidates?: CandidateOptions;
  /** Replace an existing file. */
  force?: boolean;
  read?: KbReadOptions;
  /** Bundles of installs that went through: a line whose template occurs in one is never taken. */
  healthy?: readonly string[];
  /** Rules folder for the analysis that finds the root cause; default the shipped rules. */
  rulesDir?: string;
}

/**
 * Where a line of a new entry came from: the root cause's evidence, another finding of the
 * entry's category, a mined template of that category (bootlens knew the cause), or the failed
 * unit's last errors, or the last error-like lines before the failure (it did not).
 */
export type KbLineSource = 'root-cause' | 'finding' | 'mined' | 'failed-unit' | 'before-failure';

/** What `kb add` wrote. */
export interface KbAddResult {
  file: string;
  entry: KnownIssue;
  yaml: string;
  /** Where each line came from, in the entry's order. */
  sources: KbLineSource[];
  /** Which lines were taken, in words (`the failed unit's last errors (bootkube on bootstrap)`). */
  basis: string;
}

const ID_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A line that may go into a new entry. */
interface PickCandidate {
  text: string;
  source: KbLineSource;
}

function isErrorLike(text: string): boolean {
  const t = lineTemplate(text);
  return errorWeight(t.template, t.level) >= 0.5;
}

/** Templates of every line of the healthy bundles: what a good install also logs. */
async function healthyTemplates(bundles: readonly string[], read: KbReadOptions | undefined): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const bundle of bundles) {
    const counter = new TemplateCounter();
    await readBundle(bundle, { ...read, observeLines: counter.observer });
    for (const t of counter.templates.keys()) seen.add(t);
  }
  return seen;
}

/** The cause bootlens named is the entry's: its lines, then other findings and mined lines of that category. */
function knownCauseLines(result: AnalysisResult, root: Finding, mined: readonly CandidateTemplate[], category: string): PickCandidate[] {
  const out: PickCandidate[] = [];
  // The root cause's lines count even when none reads like an error (`csr-… Pending`): the
  // rule judged them; when some do, the others are context (podman's `system refresh`).
  const rootLines = root.evidence.filter((e) => !e.benign).map((e) => e.text);
  const rootErrors = rootLines.filter(isErrorLike);
  for (const text of rootErrors.length > 0 ? rootErrors : rootLines) out.push({ text, source: 'root-cause' });
  for (const f of result.findings) {
    if (f === root || f.category !== category || f.recovered) continue;
    for (const e of f.evidence) if (!e.benign && isErrorLike(e.text)) out.push({ text: e.text, source: 'finding' });
  }
  for (const c of mined) if (shippedClassifier().categoryOf(c.example.text) === category) out.push({ text: c.example.text, source: 'mined' });
  return out;
}

/**
 * The failed unit's last errors: the generic reading's findings in the failed stage (the last
 * error lines of a unit, container or service that failed or never finished), latest first.
 */
function failedUnitLines(result: AnalysisResult): { lines: PickCandidate[]; units: string[] } {
  const stage = result.verdict.stage;
  const leads = result.findings.filter((f) => f.ruleId === LAST_ERROR_ID && f.stage === stage && !f.recovered);
  const units = [...new Set(leads.map((f) => `${f.captures.source ?? 'a unit'}${f.hosts.length > 0 ? ` on ${f.hosts.join(', ')}` : ''}`))];
  const lines = leads
    .flatMap((f) => f.evidence.filter((e) => !e.benign && isErrorLike(e.text)))
    .sort((a, b) => (b.time ?? 0) - (a.time ?? 0))
    .map((e) => ({ text: e.text, source: 'failed-unit' as const }));
  return { lines, units };
}

/** Error-like templates new near the failure, the latest first: the last things that went wrong before it. */
function beforeFailureLines(mined: readonly CandidateTemplate[], failureTime: number | undefined): PickCandidate[] {
  return mined
    .filter((c) => failureTime === undefined || c.firstTime === undefined || c.firstTime <= failureTime)
    .sort((a, b) => (b.lastTime ?? 0) - (a.lastTime ?? 0))
    .map((c) => ({ text: c.example.text, source: 'before-failure' as const }));
}

/** The first `n` candidates of distinct templates that no healthy bundle logs. */
function pickLines(candidates: readonly PickCandidate[], healthy: ReadonlySet<string>, n: number): PickCandidate[] {
  const taken = new Set<string>();
  const out: PickCandidate[] = [];
  for (const c of candidates) {
    const t = templateOf(c.text);
    if (taken.has(t) || healthy.has(t)) continue;
    taken.add(t);
    out.push(c);
    if (out.length >= n) break;
  }
  return out;
}

/** The options checked; the stage and category as taxonomy ids. */
function checkOptions(options: KbAddOptions): { stage: StageId; category: CategoryId } {
  const { stage, category } = options;
  if (!ID_RE.test(options.id)) throw new KbOptionError(`--id '${options.id}': use kebab-case (a-z, 0-9, single dashes)`);
  if (!isStageId(stage)) throw new KbOptionError(`--stage '${stage}' is not a taxonomy stage (valid: ${STAGES.join(', ')})`);
  if (!isCategoryId(category)) throw new KbOptionError(`--category '${category}' is not a taxonomy category (valid: ${CATEGORIES.join(', ')})`);
  if (options.title.trim().length < 5) throw new KbOptionError('--title: say in a few words what failed');
  if (options.fix.length === 0) throw new KbOptionError('--fix: give at least one fix step');
  if (options.references.length === 0 || options.references.some((r) => !/^https?:\/\//.test(r))) {
    throw new KbOptionError('--reference: give at least one http(s) URL of the public report or doc the entry stands on');
  }
  return { stage, category };
}

/**
 * Writes a new knowledge-base entry from a diagnosed bundle: the lines that show its cause,
 * redacted, with the metadata given, validated like every shipped entry before it is written.
 * Throws KbOptionError for bad options or when the bundle shows no line to take.
 */
export async function addEntry(options: KbAddOptions): Promise<KbAddResult> {
  const { stage, category } = checkOptions(options);
  const dir = options.out ?? defaultKnowledgeBaseDir();
  // Said before the bundle is read (writeKnownIssue checks again when it writes).
  if (existsSync(knownIssuePath(dir, options.id)) && !options.force) throw new KbOptionError(`${knownIssuePath(dir, options.id)} exists (use --force to replace it)`);

  // One read: the analysis names the root cause, the miner sees the error-like lines.
  const miner = createMiner();
  const { rules } = loadRules(options.rulesDir);
  const { result } = await readAndAnalyze(options.bundle, { ...options.read, observeLines: miner.observer, rules, version: 'kb' });
  const root = rootFinding(result);
  const failureTime = root?.lastTime;
  const mined = miner.candidates({ ...(failureTime !== undefined ? { failureTime } : {}), ...options.candidates });
  const healthy = await healthyTemplates(options.healthy ?? [], options.read);
  const n = Math.max(1, options.lines ?? 3);

  // bootlens knew the cause when a rule named it in the entry's category (`unknown` is no
  // cause: the finding that says so, like the installer giving up, is a symptom).
  let picked: PickCandidate[] = [];
  let basis = '';
  if (root && root.category === options.category && options.category !== 'unknown') {
    picked = pickLines(knownCauseLines(result, root, mined, options.category), healthy, n);
    basis = `the root cause's own evidence (rule ${root.ruleId})`;
  }
  if (picked.length === 0) {
    const unit = failedUnitLines(result);
    picked = pickLines(unit.lines, healthy, n);
    basis = `the failed unit's last errors (${unit.units.join('; ')})`;
  }
  if (picked.length === 0) {
    picked = pickLines(beforeFailureLines(mined, failureTime), healthy, n);
    basis = 'the last error-like lines before the failure';
  }
  if (picked.length === 0) {
    throw new KbOptionError(`${options.bundle}: no error-like line before the failure to learn from (none that the healthy bundles do not also log)`);
  }
  // Secrets never leave the bundle: the lines are redacted as one excerpt.
  const lines = redactLines(picked.map((c) => c.text));
  const entry: Omit<KnownIssue, 'file' | 'hash'> = {
    id: options.id,
    title: options.title.trim(),
    stage,
    category,
    lines,
    fix: [...options.fix],
    references: [...options.references],
    ...(options.description ? { description: options.description } : {}),
    ...(options.rule ? { rule: options.rule } : {}),
  };
  const written = writeKnownIssue(dir, entry, options.force ?? false);
  return { ...written, sources: picked.map((c) => c.source), basis };
}
