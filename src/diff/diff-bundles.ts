// `bootlens diff <good> <bad>`: what changed between a good and a bad bundle, outcome first: the
// verdicts, stages whose status differs, findings only one has, operator conditions that changed
// value; conditions present in one bundle only are counted apart (a bundle gathered earlier lacks
// most of them: that is no change); then the log templates only the bad one has.
import { readAndAnalyze, type AnalysisResult } from '../analysis/analyze.js';
import type { Bundle } from '../model/types.js';
import type { Rule } from '../rules/types.js';
import type { StageStatus } from '../timeline/types.js';
import { errorWeight } from '../similarity/tokens.js';
import { TemplateCounter, type TemplateStat } from './template-counter.js';
import { byCodeUnits } from '../util/byte-order.js';

export interface BundleDiff {
  good: { name: string; verdict: AnalysisResult['verdict'] };
  bad: { name: string; verdict: AnalysisResult['verdict'] };
  stages: { id: string; good: StageStatus; bad: StageStatus }[];
  /** Templates in the bad bundle only, error-like first, then by count. */
  newTemplates: TemplateStat[];
  newTemplatesTotal: number;
  /** Conditions present in both bundles whose value changed. */
  operators: ConditionChange[];
  /** Conditions present in one bundle only (`True → -`): listed here, only counted in text. */
  conditionsInOne: ConditionChange[];
  findings: { onlyGood: string[]; onlyBad: string[] };
}

export interface ConditionChange {
  operator: string;
  condition: string;
  good?: string;
  bad?: string;
  message?: string;
}

/** Error-like, as the similarity templater weighs a template (the one place that decides it). */
function errorLike(template: string): boolean {
  return errorWeight(template, undefined) >= 0.5;
}
const MAX_NEW = 40;

function conditions(bundle: Bundle): Map<string, { status: string; message?: string }> {
  const m = new Map<string, { status: string; message?: string }>();
  for (const op of bundle.cluster?.clusterOperators ?? []) {
    for (const c of op.conditions) m.set(`${op.name}\u0000${c.type}`, { status: c.status, ...(c.message ? { message: c.message } : {}) });
  }
  return m;
}

/** Reads both bundles (each once, counting every line's template) and compares them. */
export async function diffBundles(goodPath: string, badPath: string, rules: readonly Rule[], version: string): Promise<BundleDiff> {
  const goodCounter = new TemplateCounter();
  const badCounter = new TemplateCounter();
  const good = await readAndAnalyze(goodPath, { rules, version, observeLines: goodCounter.observer });
  const bad = await readAndAnalyze(badPath, { rules, version, observeLines: badCounter.observer });

  const stages = good.result.stages
    .map((g, i) => ({ id: g.id, good: g.status, bad: bad.result.stages[i].status }))
    .filter((s) => s.good !== s.bad);

  const fresh = [...badCounter.templates.values()].filter((t) => !goodCounter.templates.has(t.template));
  fresh.sort((a, b) => Number(errorLike(b.template)) - Number(errorLike(a.template)) || b.count - a.count || byCodeUnits(a.template, b.template));

  const before = conditions(good.bundle);
  const after = conditions(bad.bundle);
  const operators: ConditionChange[] = [];
  const conditionsInOne: ConditionChange[] = [];
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const [operator, condition] = key.split('\u0000');
    const g = before.get(key);
    const b = after.get(key);
    if (g?.status === b?.status) continue;
    const row: ConditionChange = { operator, condition };
    if (g) row.good = g.status;
    if (b) row.bad = b.status;
    if (b?.message) row.message = b.message;
    (g && b ? operators : conditionsInOne).push(row);
  }
  const goodRules = new Set(good.result.findings.map((f) => f.ruleId));
  const badRules = new Set(bad.result.findings.map((f) => f.ruleId));
  return {
    good: { name: good.result.bundle.name, verdict: good.result.verdict },
    bad: { name: bad.result.bundle.name, verdict: bad.result.verdict },
    stages,
    newTemplates: fresh.slice(0, MAX_NEW),
    newTemplatesTotal: fresh.length,
    operators,
    conditionsInOne,
    findings: { onlyGood: [...goodRules].filter((r) => !badRules.has(r)).sort(), onlyBad: [...badRules].filter((r) => !goodRules.has(r)).sort() },
  };
}
