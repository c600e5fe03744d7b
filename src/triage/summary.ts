// Groups triage records: failures by signature (counts, first and last seen, examples), healthy
// and inconclusive cases apart from them, and the share of cases no specific rule classified.
import { LAST_ERROR_ID } from '../rules/builtin/last-error.js';
import type { FailureSignature, TriageRecord } from './record.js';
import { byCodeUnits } from '../util/byte-order.js';

export interface SignatureGroup {
  signature: FailureSignature;
  count: number;
  firstSeen?: number;
  lastSeen?: number;
  examples: string[];
  ciFailureMode: string | null;
  /** No specific rule named the cause: none did, or only the generic reading (`last-error`). */
  unclassified: boolean;
}

/** Cases of one verdict status that are not failures: how many, and a few by name. */
export interface CaseList {
  count: number;
  examples: string[];
}

export interface TriageSummary {
  total: number;
  analyzed: number;
  failed: number;
  healthy: number;
  inconclusive: number;
  /**
   * Failed cases whose cause no specific rule named (none, or only the generic reading; a known
   * issue that named the category counts as named), plus inconclusive ones.
   */
  unclassified: number;
  unclassifiedShare: number;
  unreadable: { bundle: string; path: string; error: string }[];
  /** Failures only, by signature. */
  groups: SignatureGroup[];
  healthyCases: CaseList;
  inconclusiveCases: CaseList;
}

const EXAMPLES = 3;
/** Healthy and inconclusive cases named in a summary; the rest are counted. */
const CASE_EXAMPLES = 10;

/**
 * Whether a failure's signature leaves it unclassified: its category unknown, or named only by
 * the generic reading (the last error of a unit, at low confidence), which any error line yields.
 */
export function isUnclassified(sig: FailureSignature): boolean {
  return sig.category === null || sig.category === 'unknown' || sig.ruleId === LAST_ERROR_ID;
}

function addCase(list: CaseList, name: string): void {
  list.count++;
  if (list.examples.length < CASE_EXAMPLES) list.examples.push(name);
}

/** Summarises records; order is deterministic (count, then signature id). */
export function summarize(records: readonly TriageRecord[]): TriageSummary {
  const groups = new Map<string, SignatureGroup>();
  const unreadable: TriageSummary['unreadable'] = [];
  const healthyCases: CaseList = { count: 0, examples: [] };
  const inconclusiveCases: CaseList = { count: 0, examples: [] };
  let unclassified = 0;
  const sorted = [...records].sort((a, b) => byCodeUnits(a.path, b.path));
  for (const r of sorted) {
    if (r.status === 'unreadable' || !r.signature || !r.verdict) {
      unreadable.push({ bundle: r.bundle, path: r.path, error: r.error ?? 'unreadable' });
      continue;
    }
    if (r.verdict.status === 'healthy') {
      addCase(healthyCases, r.bundle);
      continue;
    }
    if (r.verdict.status === 'inconclusive') {
      addCase(inconclusiveCases, r.bundle);
      unclassified++;
      continue;
    }
    let g = groups.get(r.signature.id);
    if (!g) {
      g = { signature: r.signature, count: 0, examples: [], ciFailureMode: r.verdict.ciFailureMode ?? null, unclassified: isUnclassified(r.signature) };
      groups.set(r.signature.id, g);
    }
    g.count++;
    if (g.unclassified) unclassified++;
    if (g.examples.length < EXAMPLES) g.examples.push(r.bundle);
    if (typeof r.gatheredAt === 'number') {
      g.firstSeen = Math.min(g.firstSeen ?? Infinity, r.gatheredAt);
      g.lastSeen = Math.max(g.lastSeen ?? -Infinity, r.gatheredAt);
    }
  }
  const analyzed = records.length - unreadable.length;
  const list = [...groups.values()];
  return {
    total: records.length,
    analyzed,
    failed: list.reduce((n, g) => n + g.count, 0),
    healthy: healthyCases.count,
    inconclusive: inconclusiveCases.count,
    unclassified,
    unclassifiedShare: analyzed > 0 ? Math.round((unclassified / analyzed) * 1000) / 1000 : 0,
    unreadable,
    groups: list.sort((a, b) => b.count - a.count || byCodeUnits(a.signature.id, b.signature.id)),
    healthyCases,
    inconclusiveCases,
  };
}
