// Groups triage records by failure signature: counts, first and last seen, examples, and
// the share of bundles no rule could classify.
import type { Signature, TriageRecord } from './record.js';

export interface SignatureGroup {
  signature: Signature;
  count: number;
  firstSeen?: number;
  lastSeen?: number;
  examples: string[];
  ciFailureMode: string | null;
}

export interface TriageSummary {
  total: number;
  analyzed: number;
  failed: number;
  healthy: number;
  /** Failed bundles whose cause no rule named, plus inconclusive ones. */
  unclassified: number;
  unclassifiedShare: number;
  unreadable: { bundle: string; path: string; error: string }[];
  groups: SignatureGroup[];
}

const EXAMPLES = 3;

/** Summarises records; order is deterministic (count, then signature id). */
export function summarize(records: readonly TriageRecord[]): TriageSummary {
  const groups = new Map<string, SignatureGroup>();
  const unreadable: TriageSummary['unreadable'] = [];
  let failed = 0;
  let healthy = 0;
  let unclassified = 0;
  const sorted = [...records].sort((a, b) => a.path.localeCompare(b.path));
  for (const r of sorted) {
    if (r.status === 'unreadable' || !r.signature || !r.verdict) {
      unreadable.push({ bundle: r.bundle, path: r.path, error: r.error ?? 'unreadable' });
      continue;
    }
    if (r.verdict.status === 'failed') failed++;
    if (r.verdict.status === 'healthy') healthy++;
    if (r.verdict.status === 'inconclusive' || (r.verdict.status === 'failed' && !r.verdict.rootCause)) unclassified++;
    let g = groups.get(r.signature.id);
    if (!g) {
      g = { signature: r.signature, count: 0, examples: [], ciFailureMode: r.verdict.ciFailureMode ?? null };
      groups.set(r.signature.id, g);
    }
    g.count++;
    if (g.examples.length < EXAMPLES) g.examples.push(r.bundle);
    if (r.gatheredAt !== undefined) {
      g.firstSeen = Math.min(g.firstSeen ?? Infinity, r.gatheredAt);
      g.lastSeen = Math.max(g.lastSeen ?? -Infinity, r.gatheredAt);
    }
  }
  const analyzed = records.length - unreadable.length;
  return {
    total: records.length,
    analyzed,
    failed,
    healthy,
    unclassified,
    unclassifiedShare: analyzed > 0 ? Math.round((unclassified / analyzed) * 1000) / 1000 : 0,
    unreadable,
    groups: [...groups.values()].sort((a, b) => b.count - a.count || a.signature.id.localeCompare(b.signature.id)),
  };
}
