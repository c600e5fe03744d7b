// Runs every rule over the frozen model and the timeline: findings, plus a result per rule
// (fired, passed, or skipped for missing input) with its time.
import { performance } from 'node:perf_hooks';
import { classifierOf } from '../catalogue/classify.js';
import { shippedCatalogue } from '../catalogue/shipped.js';
import type { Catalogue } from '../catalogue/types.js';
import type { Bundle } from '../model/types.js';
import type { Timeline } from '../timeline/types.js';
import { fillPlaceholders } from './placeholders.js';
import { missingInputs, type RuleInputs } from './sources.js';
import type { CheckResult, Finding, Rule, RuleContext, RuleResult } from './types.js';
import { maxOf, minOf, pushAll } from '../util/arrays.js';

/** A rule together with the inputs it declared (every rule bootlens ships is one). */
export interface DeclaredRule extends Rule {
  readonly inputs: RuleInputs;
}

/**
 * A rule's check behind its declared inputs: when they are missing from the bundle the rule is
 * skipped, naming them (`skipped (missing: ...)`), and the check never runs; rules never word
 * their own skip reasons.
 */
export function checkWithInputs(inputs: RuleInputs, check: (ctx: RuleContext) => Finding[]): (ctx: RuleContext) => CheckResult {
  return (ctx) => {
    const missing = missingInputs(ctx.bundle, inputs);
    return missing ? { missing } : check(ctx);
  };
}

export function contextFor(rule: Rule, bundle: Bundle, timeline: Timeline, catalogue: Catalogue = shippedCatalogue()): RuleContext {
  const m = rule.meta;
  const classifier = classifierOf(catalogue);
  return {
    bundle,
    timeline,
    read: (text, where) => classifier.classify(text, where),
    finding(init) {
      const captures = init.captures ?? {};
      const times = init.evidence.map((e) => e.time).filter((t): t is number => t !== undefined);
      const hosts = [...new Set(init.evidence.map((e) => e.host).filter((h): h is string => !!h))];
      const f: Finding = {
        ruleId: m.id,
        title: init.title ?? m.title,
        stage: init.stage ?? m.stage,
        category: init.category ?? m.category,
        severity: init.severity ?? m.severity,
        confidence: init.confidence ?? m.confidence,
        message: init.message,
        evidence: init.evidence,
        fix: m.fix.map((step) => fillPlaceholders(step, captures)),
        references: m.references,
        hosts,
        captures,
        ...(init.symptom ? { symptom: true } : {}),
      };
      if (times.length > 0) {
        f.firstTime = minOf(times);
        f.lastTime = maxOf(times);
      }
      return f;
    },
  };
}

export interface EngineResult {
  findings: Finding[];
  results: RuleResult[];
}

/** Evaluates rules; a rule that throws gets an `error` result instead of stopping the others. */
export function runRules(rules: readonly Rule[], bundle: Bundle, timeline: Timeline, catalogue: Catalogue = shippedCatalogue()): EngineResult {
  const findings: Finding[] = [];
  const results: RuleResult[] = [];
  for (const rule of rules) {
    const start = performance.now();
    let out: ReturnType<Rule['check']>;
    try {
      out = rule.check(contextFor(rule, bundle, timeline, catalogue));
    } catch (err) {
      results.push({ ruleId: rule.meta.id, status: 'error', error: (err as Error).message, findings: 0, durationMs: performance.now() - start });
      continue;
    }
    const durationMs = performance.now() - start;
    if (Array.isArray(out)) {
      pushAll(findings, out);
      results.push({ ruleId: rule.meta.id, status: out.length > 0 ? 'fired' : 'passed', findings: out.length, durationMs });
    } else {
      results.push({ ruleId: rule.meta.id, status: 'skipped', missing: out.missing, findings: 0, durationMs });
    }
  }
  return { findings, results };
}
