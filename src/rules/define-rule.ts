// Helpers for TypeScript rules: one typed way to declare metadata, filters and a check, and the
// lines each of a rule's `keep` entries matched (its keep matches).
import type { LineFilter } from '../specs/line-filter.js';
import type { Bundle, HostRole, LogLine, LogSummary } from '../model/types.js';
import { bundleLogs, logHost } from '../model/walk.js';
import { filterId } from '../model/source-id.js';
import { checkWithInputs, type DeclaredRule } from './engine.js';
import { sourceAppliesTo, type RuleInput, type RuleSource } from './sources.js';
import type { Finding, RuleContext, RuleMeta } from './types.js';

export interface RuleDefinition {
  meta: Omit<RuleMeta, 'origin'>;
  /**
   * The sources the check judges from: with none of them in the bundle the rule is skipped,
   * naming them. Empty: the rule reads whatever the bundle holds and is never skipped.
   */
  inputs: RuleInput[];
  /** Sources the check cannot do without besides one of `inputs`: each one is needed. */
  requires?: RuleInput[];
  /** Lines to keep from streamed logs: literals and optional pattern, over the logs of `sources`. */
  keep?: { name: string; literals: string[]; pattern?: RegExp; sources: RuleSource[] }[];
  /** Runs only when the declared inputs are there. */
  check(ctx: RuleContext): Finding[];
}

/** The filter id a TypeScript rule's `keep` entry gets. */
export function keepId(ruleId: string, name: string): string {
  return filterId(ruleId, name);
}

/** A line a TypeScript rule's `keep` entry matched, with its log and host. */
export interface KeepMatch {
  log: LogSummary;
  line: LogLine;
  host: string;
}

/** The lines a rule's `keep` entry matched, from the logs of the hosts with the given roles (all logs by default). */
export function keepMatches(bundle: Bundle, ruleId: string, name: string, roles?: readonly HostRole[]): KeepMatch[] {
  const id = keepId(ruleId, name);
  const out: KeepMatch[] = [];
  for (const log of bundleLogs(bundle)) {
    const role = log.sourceId.host?.role;
    if (roles && (!role || !roles.includes(role))) continue;
    for (const m of log.matched) if (m.filterIds.includes(id)) out.push({ log, line: m.entry, host: logHost(log) });
  }
  return out;
}

/** Declares a TypeScript rule. */
export function defineRule(def: RuleDefinition): DeclaredRule {
  const filters: LineFilter[] = (def.keep ?? []).map((k) => {
    const f: LineFilter = { id: keepId(def.meta.id, k.name), appliesTo: (id) => k.sources.some((s) => sourceAppliesTo(s, id)), literals: k.literals };
    if (k.pattern) f.pattern = k.pattern;
    return f;
  });
  const inputs = { anyOf: def.inputs, ...(def.requires ? { allOf: def.requires } : {}) };
  return { meta: { ...def.meta, origin: `src/rules/builtin/${def.meta.id}.ts` }, filters, inputs, check: checkWithInputs(inputs, (ctx) => def.check(ctx)) };
}
