// One analysis: rules' filters registered, the bundle read once, the timeline built, rules run,
// suppressions applied, the verdict drawn. The result is what every reporter reads.
import { observersOf } from '../specs/line-filter.js';
import { readBundle, type ReadOptions } from '../ingest/read-bundle.js';
import type { Bundle, ReadProblem } from '../model/types.js';
import { runRules } from '../rules/engine.js';
import type { Finding, Rule, RuleResult, Severity } from '../rules/types.js';
import { SEVERITY_ORDER } from '../rules/types.js';
import { stageIndex } from '../taxonomy.js';
import { buildTimeline, TIMELINE_FILTERS } from '../timeline/build-timeline.js';
import type { StageState, Timeline } from '../timeline/types.js';
import type { SimilarIssue, SimilarityMode } from '../similarity/match.js';
import { decideVerdict, stagesWithFindings, stagesWithVerdict, type Verdict } from '../verdict/verdict.js';
import { wordVerdict } from '../verdict/words.js';
import { SimilarityStep, type SimilarityOptions } from './similarity-step.js';
import { applySuppressions, type Suppression } from './suppressions.js';
import { bundleHosts } from '../model/walk.js';
import { sortFindings } from '../result/order.js';
import { SCHEMA_VERSION, type AnalysisResult, type HostSummary } from '../result/types.js';
import { gatherIdTime } from '../text/time.js';
import { LAST_ERROR_ID } from '../rules/builtin/last-error.js';
import { shippedCatalogue } from '../catalogue/shipped.js';
import type { Catalogue } from '../catalogue/types.js';
import { markFindings, successFilters } from './finding-marks.js';

export { SCHEMA_VERSION, type AnalysisResult, type HostSummary } from '../result/types.js';
export { sortFindings } from '../result/order.js';



export interface AnalyzeOptions extends Omit<ReadOptions, 'filters'> {
  rules: readonly Rule[];
  /** The message catalogue the rules read (default: the shipped one): benign lines, successes that heal. */
  catalogue?: Catalogue;
  /** Similar known issues; default off (the CLI defaults to lexical). */
  similarity?: SimilarityOptions;
  suppressions?: readonly Suppression[];
  minSeverity?: Severity;
  timing?: boolean;
  version: string;
}

function summarizeRules(results: RuleResult[], timing: boolean): AnalysisResult['rules'] {
  const out: AnalysisResult['rules'] = {
    total: results.length,
    fired: results.filter((r) => r.status === 'fired').map((r) => r.ruleId),
    passed: results.filter((r) => r.status === 'passed').map((r) => r.ruleId),
    skipped: results.filter((r) => r.status === 'skipped').map((r) => ({ ruleId: r.ruleId, missing: r.missing ?? [] })),
    errors: results.filter((r) => r.status === 'error').map((r) => ({ ruleId: r.ruleId, error: r.error ?? '' })),
  };
  if (timing) out.timing = results.map((r) => ({ ruleId: r.ruleId, ms: Math.round(r.durationMs * 1000) / 1000 })).sort((a, b) => b.ms - a.ms);
  return out;
}

/**
 * A generic reading (last-error) not worth showing: in a stage the install got past, a lead of a
 * running unit when a rule named the cause, or a line a rule's finding already cites. It still
 * counted for the verdict; reports stay on the point.
 */
function quietLead(f: Finding, all: readonly Finding[], timeline: Timeline, verdict: Pick<Verdict, 'rootCause'>): boolean {
  if (f.ruleId !== LAST_ERROR_ID) return false;
  const stage = timeline.stages.find((s) => s.id === f.stage);
  if (stage?.status === 'ok') return true;
  if (f.severity === 'warning' && verdict.rootCause !== null) return true;
  const cited = new Set(all.filter((g) => g.ruleId !== LAST_ERROR_ID).flatMap((g) => g.evidence.map((e) => `${e.file}:${e.line ?? ''}`)));
  return f.evidence.every((e) => cited.has(`${e.file}:${e.line ?? ''}`));
}

/** What the similarity step found, for `analyzeModel`. */
export interface SimilarityFound {
  mode: SimilarityMode;
  similar: SimilarIssue[];
  candidates: number;
}

/** Analyzes the model of an already-read bundle (used by tests and by `analyzeBundle`). */
export function analyzeModel(bundle: Bundle, options: Omit<AnalyzeOptions, keyof ReadOptions | 'similarity'>, found?: SimilarityFound): AnalysisResult {
  const built = buildTimeline(bundle);
  const catalogue = options.catalogue ?? shippedCatalogue();
  const ruled = runRules(options.rules, bundle, built, catalogue);
  const results = ruled.results;
  // Benign lines and errors a later success resolved, from what the bundle shows after them.
  const findings = markFindings(ruled.findings, bundle, built, catalogue);
  // Suppressions are a judgement on findings and may change the verdict (it says so);
  // --min-severity only chooses what is shown: the verdict is drawn from every finding.
  const { kept, suppressed } = applySuppressions(findings, options.suppressions ?? []);
  const withFindings = stagesWithFindings(built, kept);
  const sorted = sortFindings(kept);
  const similar = found?.similar ?? [];
  // One decision from typed inputs; what the read left out is one of them.
  const decision = decideVerdict({ timeline: withFindings, findings: sorted, results, similar, problems: bundle.problems, catalogue });
  const timeline = stagesWithVerdict(withFindings, decision);
  const minRank = SEVERITY_ORDER[options.minSeverity ?? 'info'];
  const worth = sorted.filter((f) => f.ruleId === decision.rootCause || !quietLead(f, sorted, timeline, decision));
  const shown = worth.filter((f) => f.ruleId === decision.rootCause || SEVERITY_ORDER[f.severity] <= minRank);
  // The summary speaks of the findings worth reading, whatever a display flag hides, and of
  // the suppressions that may have changed it.
  const others = worth.length - (decision.rootCause ? 1 : 0);
  const verdict: Verdict = { ...decision, summary: wordVerdict(decision, { stages: timeline.stages, findings: sorted, similar, results, others, suppressed: suppressed.length }) };
  const gatheredAt = bundle.meta.gatherId ? gatherIdTime(bundle.meta.gatherId) : undefined;
  const hosts: HostSummary[] = bundleHosts(bundle).map((h) => ({
    role: h.role,
    address: h.address,
    ...(h.hostname ? { hostname: h.hostname } : {}),
  }));
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'bootlens', version: options.version },
    bundle: {
      name: bundle.meta.name,
      format: bundle.meta.format,
      ...(bundle.meta.gatherId ? { gatherId: bundle.meta.gatherId } : {}),
      // When it was gathered, by its own clock (the gather id), never a file's date.
      ...(gatheredAt !== undefined ? { gatheredAt } : {}),
      hosts,
      layout: bundle.meta.layout,
    },
    verdict,
    stages: timeline.stages,
    findings: shown,
    suppressed,
    rules: summarizeRules(results, options.timing ?? false),
    problems: bundle.problems,
    similar,
    similarity: { mode: found?.mode ?? 'off', candidates: found?.candidates ?? 0 },
  };
}

/**
 * Reads a bundle with the rules' filters (and the similarity miner's tap) and analyzes it;
 * returns the model too.
 */
export async function readAndAnalyze(path: string, options: AnalyzeOptions): Promise<{ bundle: Bundle; result: AnalysisResult }> {
  const filters = [...TIMELINE_FILTERS, ...successFilters(options.catalogue ?? shippedCatalogue()), ...options.rules.flatMap((r) => r.filters)];
  const mode = options.similarity?.mode ?? 'off';
  const step = new SimilarityStep(options.similarity ?? { mode });
  const outer = options.observeLines;
  const observeLines: ReadOptions['observeLines'] =
    mode === 'off' ? outer : (target) => [...observersOf(outer?.(target)), ...observersOf(step.tap(target))];
  const bundle = await readBundle(path, { ...options, filters, ...(observeLines ? { observeLines } : {}) });
  const { similar, candidates } = await step.match(bundle);
  return { bundle, result: analyzeModel(bundle, options, { mode, similar, candidates }) };
}


/** Reads a bundle with the rules' filters and analyzes it. */
export async function analyzeBundle(path: string, options: AnalyzeOptions): Promise<AnalysisResult> {
  return (await readAndAnalyze(path, options)).result;
}
