// Runs `analyze` (the CLI's defaults: every shipped rule, lexical similarity) on every real case
// laid out as a bundle, and sums up how often it names the stage and category the thread
// established: a stage × category confusion summary.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeBundle } from '../../../src/analysis/analyze.js';
import { loadRules } from '../../../src/rules/load-rules.js';
import { STAGES } from '../../../src/taxonomy.js';
import type { RealCase } from './cases.js';
import { layOut, type LayoutOptions } from './layout.js';
import { reliabilityText, verdictRight } from './reliability.js';

export interface CaseOutcome {
  id: string;
  expected: RealCase['expected'];
  got: { status: string; stage: string | null; category: string | null; rootCause: string | null; knownIssue?: string; confidence?: number; basis?: string[] };
  /** The input was refused (exit 2): the message. */
  refused?: string;
  stageOk: boolean;
  categoryOk: boolean;
}

/** Analyzes one case as the CLI would. */
export async function evaluateCase(c: RealCase, rules = loadRules().rules, layout: LayoutOptions = {}): Promise<CaseOutcome> {
  const dir = mkdtempSync(join(tmpdir(), `bootlens-real-${c.id.slice(0, 40)}-`));
  try {
    const laid = await layOut(c, dir, layout);
    const base = { id: c.id, expected: c.expected };
    try {
      const r = await analyzeBundle(laid.input, {
        rules,
        similarity: { mode: 'lexical' },
        version: 'corpus',
        ...(laid.installLog && laid.installLog !== laid.input ? { installLog: laid.installLog } : {}),
      });
      const v = r.verdict;
      const got: CaseOutcome['got'] = { status: v.status, stage: v.stage, category: v.category, rootCause: v.rootCause, confidence: v.confidence, basis: v.confidenceBasis };
      if (v.knownIssue) got.knownIssue = v.knownIssue;
      const failed = c.expected.status === 'failed';
      return {
        ...base,
        got,
        stageOk: failed ? v.status === 'failed' && v.stage === c.expected.stage : v.status !== 'failed',
        categoryOk: failed ? v.status === 'failed' && v.category === c.expected.category : v.status !== 'failed',
      };
    } catch (err) {
      const message = (err as Error).message;
      return { ...base, got: { status: 'refused', stage: null, category: null, rootCause: null }, refused: message, stageOk: false, categoryOk: false };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CorpusSummary {
  failures: number;
  healthy: number;
  stageAccuracy: number;
  categoryAccuracy: number;
  healthyCalledFailed: string[];
  refused: string[];
  /** The accuracy line that ends the summary. */
  line: string;
  /** The printable summary. */
  text: string;
}

export function pct(n: number, of: number): string {
  return of === 0 ? '-' : `${((100 * n) / of).toFixed(1)} %`;
}

const SHORT: Record<string, string> = {
  'release-image': 'rel',
  'node-runtime': 'rt',
  render: 'rnd',
  'bootstrap-etcd': 'betcd',
  'bootstrap-control-plane': 'bcp',
  'masters-provision': 'mstr',
  'production-control-plane': 'pcp',
  'etcd-scaling': 'escl',
  'bootstrap-complete': 'bcmp',
  workers: 'wrk',
  'cluster-operators': 'co',
};

/** The confusion summary of a corpus run. */
export function summarize(outcomes: CaseOutcome[]): CorpusSummary {
  const failed = outcomes.filter((o) => o.expected.status === 'failed');
  const healthy = outcomes.filter((o) => o.expected.status === 'healthy');
  const stageOk = failed.filter((o) => o.stageOk).length;
  const categoryOk = failed.filter((o) => o.categoryOk).length;
  const healthyCalledFailed = healthy.filter((o) => o.got.status === 'failed').map((o) => o.id);
  const refused = outcomes.filter((o) => o.refused).map((o) => `${o.id}: ${o.refused}`);
  const out: string[] = [];
  out.push(`Real-failure corpus: ${failed.length} failures, ${healthy.length} healthy installs`);
  out.push('');
  out.push('stage                      cases  stage ok  category ok');
  for (const stage of STAGES) {
    const of = failed.filter((o) => o.expected.stage === stage);
    if (of.length === 0) continue;
    const s = of.filter((o) => o.stageOk).length;
    const c = of.filter((o) => o.categoryOk).length;
    out.push(`${stage.padEnd(26)} ${String(of.length).padStart(5)}  ${pct(s, of.length).padStart(8)}  ${pct(c, of.length).padStart(11)}`);
  }
  out.push('');
  // Rows: the thread's stage; columns: what bootlens said (`-` for not failed).
  const cols = [...STAGES, '-'];
  out.push(`expected \\ got  ${cols.map((s) => (SHORT[s] ?? s).padStart(5)).join(' ')}`);
  for (const stage of STAGES) {
    const of = failed.filter((o) => o.expected.stage === stage);
    if (of.length === 0) continue;
    const cells = cols.map((col) => {
      const n = of.filter((o) => (col === '-' ? o.got.status !== 'failed' : o.got.status === 'failed' && o.got.stage === col)).length;
      return (n === 0 ? '.' : String(n)).padStart(5);
    });
    out.push(`${(SHORT[stage] ?? stage).padEnd(15)} ${cells.join(' ')}`);
  }
  const misses = failed.filter((o) => !o.stageOk || !o.categoryOk);
  if (misses.length > 0) {
    out.push('');
    out.push('misses (expected → got):');
    for (const o of misses) {
      out.push(`  ${o.id}: ${o.expected.stage}/${o.expected.category} → ${o.got.status === 'failed' ? `${o.got.stage}/${o.got.category}` : o.got.status}${o.got.rootCause ? ` [${o.got.rootCause}]` : o.got.knownIssue ? ` [known issue ${o.got.knownIssue}]` : ''}`);
    }
  }
  if (healthyCalledFailed.length > 0) out.push('', `healthy installs called failed: ${healthyCalledFailed.join(', ')}`);
  const scored = outcomes.filter((o) => o.got.confidence !== undefined).map((o) => ({ confidence: o.got.confidence as number, right: verdictRight(o) }));
  if (scored.length > 0) out.push('', ...reliabilityText("Reliability (today's verdicts; the confidence is fitted on the same cases: npm run calibrate prints it left out source by source)", scored));
  if (refused.length > 0) out.push('', 'refused:', ...refused.map((r) => `  ${r}`));
  const stageAccuracy = failed.length ? stageOk / failed.length : 1;
  const categoryAccuracy = failed.length ? categoryOk / failed.length : 1;
  const line =
    `stage ${pct(stageOk, failed.length)} (${stageOk}/${failed.length}), category ${pct(categoryOk, failed.length)} (${categoryOk}/${failed.length}), ` +
    `healthy called failed ${healthyCalledFailed.length}/${healthy.length}, refused ${refused.length}`;
  out.push('', line);
  return { failures: failed.length, healthy: healthy.length, stageAccuracy, categoryAccuracy, healthyCalledFailed, refused, line, text: out.join('\n') };
}
