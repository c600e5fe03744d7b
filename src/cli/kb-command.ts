// `bootlens kb add` (an entry from a diagnosed bundle) and `bootlens kb check` (noise and dead entries).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAndAnalyze } from '../analysis/analyze.js';
import { InputError } from '../archive/walk-bundle.js';
import { TemplateCounter } from '../diff/template-counter.js';
import { readBundle, type ReadOptions } from '../ingest/read-bundle.js';
import { redactLines } from '../redact/redact.js';
import type { AnalysisResult } from '../result/types.js';
import { loadRules } from '../rules/load-rules.js';
import { makeDir } from '../util/make-dir.js';
import { shippedClassifier } from '../catalogue/shipped.js';
import { createMiner, type CandidateOptions, type CandidateTemplate } from '../similarity/drain.js';
import {
  defaultKnowledgeBaseDir,
  knownIssueYaml,
  loadKnowledgeBase,
  parseKnownIssue,
  type KnownIssue,
} from '../similarity/knowledge-base.js';
import { templateOf, lineTemplate } from '../similarity/line-template.js';
import { findSimilar, type SimilarityMode, type SimilarLine } from '../similarity/match.js';
import { errorWeight } from '../similarity/tokens.js';
import { isCategoryId, isStageId } from '../taxonomy.js';
import { UsageError } from './exit-codes.js';

/** Read options `kb` passes to the reader (limits); the line observer is its own. */
export type KbReadOptions = Omit<ReadOptions, 'observeLines' | 'filters'>;

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
  /** Folder to write `<id>.yaml` into; default the shipped `rules/known-issues/`. */
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

/** Where a line of a new entry came from, most telling first. */
export type KbLineSource = 'root-cause' | 'finding' | 'mined';

/** What `kb add` wrote. */
export interface KbAddResult {
  file: string;
  entry: KnownIssue;
  yaml: string;
  /** Where each line came from, in the entry's order. */
  sources: KbLineSource[];
}

const ID_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A line that may go into a new entry. */
interface PickCandidate {
  text: string;
  source: KbLineSource;
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

/**
 * Lines that explain the verdict, most telling first: the root cause's own evidence, then the
 * evidence of findings of the entry's category, then mined templates (error-like, new near the
 * failure) whose text points to that category. Only error-like lines; one per template.
 */
function explainingLines(result: AnalysisResult, mined: readonly CandidateTemplate[], category: string): PickCandidate[] {
  const out: PickCandidate[] = [];
  const root = result.findings.find((f) => f.ruleId === result.verdict.rootCause);
  const errorLike = (text: string): boolean => {
    const t = lineTemplate(text);
    return errorWeight(t.template, t.level) >= 0.5;
  };
  // The root cause's lines count even when none reads like an error (`csr-… Pending`): the
  // rule judged them; when some do, the others are context (podman's `system refresh`).
  const rootLines = root?.evidence.map((e) => e.text) ?? [];
  const rootErrors = rootLines.filter(errorLike);
  for (const text of rootErrors.length > 0 ? rootErrors : rootLines) out.push({ text, source: 'root-cause' });
  for (const f of result.findings) {
    if (f === root || f.category !== category) continue;
    for (const e of f.evidence) if (errorLike(e.text)) out.push({ text: e.text, source: 'finding' });
  }
  for (const c of mined) if (shippedClassifier().categoryOf(c.example.text) === category) out.push({ text: c.example.text, source: 'mined' });
  return out;
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

async function mineBundle(bundle: string, read: KbReadOptions | undefined, candidates: CandidateOptions): Promise<CandidateTemplate[]> {
  const miner = createMiner();
  await readBundle(bundle, { ...read, observeLines: miner.observer });
  return miner.candidates(candidates);
}

/**
 * Writes a new knowledge-base entry from a diagnosed bundle: its top candidate lines (error-like
 * templates new near the failure), redacted, with the metadata given. The text is validated
 * like every shipped entry before it is written. Throws UsageError for bad options.
 */
export async function runKbAdd(options: KbAddOptions): Promise<KbAddResult> {
  if (!ID_RE.test(options.id)) throw new UsageError(`--id '${options.id}': use kebab-case (a-z, 0-9, single dashes)`);
  if (!isStageId(options.stage)) throw new UsageError(`--stage '${options.stage}' is not a taxonomy stage`);
  if (!isCategoryId(options.category)) throw new UsageError(`--category '${options.category}' is not a taxonomy category`);
  if (options.title.trim().length < 5) throw new UsageError('--title: say in a few words what failed');
  if (options.fix.length === 0) throw new UsageError('--fix: give at least one fix step');
  if (options.references.length === 0 || options.references.some((r) => !/^https?:\/\//.test(r))) {
    throw new UsageError('--reference: give at least one http(s) URL of the public report or doc the entry stands on');
  }
  const dir = options.out ?? defaultKnowledgeBaseDir();
  const file = join(dir, `${options.id}.yaml`);
  if (existsSync(file) && !options.force) throw new UsageError(`${file} exists (use --force to replace it)`);

  // One read: the analysis names the root cause, the miner sees the error-like lines.
  const miner = createMiner();
  const { rules } = loadRules(options.rulesDir);
  const { result } = await readAndAnalyze(options.bundle, { ...options.read, observeLines: miner.observer, rules, version: 'kb' });
  const root = result.findings.find((f) => f.ruleId === result.verdict.rootCause);
  const window: CandidateOptions = root?.lastTime !== undefined ? { failureTime: root.lastTime } : {};
  const mined = miner.candidates({ ...window, ...options.candidates });
  const healthy = await healthyTemplates(options.healthy ?? [], options.read);
  const picked = pickLines(explainingLines(result, mined, options.category), healthy, Math.max(1, options.lines ?? 3));
  if (picked.length === 0) {
    throw new UsageError(`${options.bundle}: no error-like line near the failure points to ${options.category} (and is absent from the healthy bundles)`);
  }
  // Secrets never leave the bundle: the lines are redacted as one excerpt.
  const lines = redactLines(picked.map((c) => c.text));

  const entry: Omit<KnownIssue, 'file' | 'hash'> = {
    id: options.id,
    title: options.title.trim(),
    stage: options.stage,
    category: options.category,
    lines,
    fix: [...options.fix],
    references: [...options.references],
  };
  if (options.description) entry.description = options.description;
  if (options.rule) entry.rule = options.rule;
  const yaml = knownIssueYaml(entry);
  const parsed = parseKnownIssue(yaml, file);
  makeDir(dir);
  writeFileSync(file, yaml);
  return { file, entry: parsed, yaml, sources: picked.map((c) => c.source) };
}

/** `kb check --healthy <bundles...> [--against <bundles...>]`. */
export interface KbCheckOptions {
  /** Bundles of installations that succeeded: no entry may match them. */
  healthy: readonly string[];
  /** Bundles of failed installations: every entry should match at least one. */
  against?: readonly string[];
  /** Knowledge-base folder; default the shipped one. */
  kbDir?: string;
  mode?: Exclude<SimilarityMode, 'off'>;
  modelDir?: string;
  cacheDir?: string;
  minScore?: number;
  read?: KbReadOptions;
}

/** An entry that matched a bundle. */
export interface KbCheckMatch {
  id: string;
  bundle: string;
  score: number;
  lines: SimilarLine[];
}

/** The outcome of `kb check`. */
export interface KbCheckResult {
  entries: number;
  /** Entries that matched a healthy bundle: they fire on good installs. */
  noisy: KbCheckMatch[];
  /** With `against`: entries that matched none of those bundles. */
  unmatched: string[];
  /** With `against`: what each entry matched. */
  matched: KbCheckMatch[];
  /** Bundles that could not be read. */
  unreadable: { bundle: string; message: string }[];
}

// A healthy bundle has no failure to centre a window on: every error-like line counts.
const HEALTHY_CANDIDATES: CandidateOptions = { limit: 200, windowMs: 7 * 24 * 3_600_000 };

async function matchBundles(
  bundles: readonly string[],
  kb: readonly KnownIssue[],
  options: KbCheckOptions,
  candidates: CandidateOptions,
  unreadable: KbCheckResult['unreadable'],
): Promise<KbCheckMatch[]> {
  const out: KbCheckMatch[] = [];
  for (const bundle of bundles) {
    let cands: CandidateTemplate[];
    try {
      cands = await mineBundle(bundle, options.read, candidates);
    } catch (err) {
      if (err instanceof InputError) {
        unreadable.push({ bundle, message: err.message });
        continue;
      }
      throw err;
    }
    const similar = await findSimilar(cands, kb, {
      mode: options.mode ?? 'lexical',
      limit: kb.length,
      ...(options.modelDir !== undefined ? { modelDir: options.modelDir } : {}),
      ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
      ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
    });
    for (const s of similar) out.push({ id: s.id, bundle, score: s.score, lines: s.matchedLines });
  }
  return out;
}

/**
 * Runs every knowledge-base entry against healthy bundles (matches are noise) and, when
 * given, against failed bundles (entries matching none are reported).
 */
export async function runKbCheck(options: KbCheckOptions): Promise<KbCheckResult> {
  if (options.healthy.length === 0) throw new UsageError('kb check: give at least one --healthy bundle');
  const kb = loadKnowledgeBase(options.kbDir);
  const unreadable: KbCheckResult['unreadable'] = [];
  const noisy = await matchBundles(options.healthy, kb, options, HEALTHY_CANDIDATES, unreadable);
  let matched: KbCheckMatch[] = [];
  let unmatched: string[] = [];
  if (options.against && options.against.length > 0) {
    matched = await matchBundles(options.against, kb, options, {}, unreadable);
    const hit = new Set(matched.map((m) => m.id));
    unmatched = kb.map((e) => e.id).filter((id) => !hit.has(id));
  }
  const order = (a: KbCheckMatch, b: KbCheckMatch): number => a.id.localeCompare(b.id) || b.score - a.score || a.bundle.localeCompare(b.bundle);
  return { entries: kb.length, noisy: noisy.sort(order), unmatched, matched: matched.sort(order), unreadable };
}

/** Whether the check found problems (the CLI exits 1 then). */
export function kbCheckFailed(result: KbCheckResult): boolean {
  return result.noisy.length > 0 || result.unmatched.length > 0;
}

/** The check as text for a terminal. */
export function formatKbCheck(result: KbCheckResult): string {
  const out: string[] = [`${result.entries} knowledge-base entries checked.`];
  if (result.noisy.length === 0) out.push('No entry matches a healthy bundle.');
  else {
    out.push('', `Entries matching healthy bundles (noise: make their lines more specific or remove them):`);
    for (const m of result.noisy) {
      out.push(`  ${m.id}  score ${m.score.toFixed(2)}  ${m.bundle}`);
      for (const l of m.lines.slice(0, 2)) out.push(`      ${l.file}:${l.line}  ${l.text.slice(0, 160)}`);
    }
  }
  if (result.unmatched.length > 0) {
    out.push('', 'Entries matching none of the failed bundles:');
    for (const id of result.unmatched) out.push(`  ${id}`);
  }
  for (const u of result.unreadable) out.push(`Could not read ${u.bundle}: ${u.message}`);
  return `${out.join('\n')}\n`;
}
