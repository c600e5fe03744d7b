// Renders a triage summary as terminal text or Markdown. Reads the summary only; every bundle
// string goes through the terminal escaping of format.ts (text) or the Markdown escaping (md).
import type { TriageSummary } from '../triage/summary.js';
import { mdCell as markdownCell } from './escape.js';
import { fitLine, formatTime, oneLine } from './format.js';

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** Terminal text, each line at most `width` columns (Infinity: full lines). */
export function renderTriageText(s: TriageSummary, width = Infinity): string {
  const out: string[] = [];
  out.push(`${s.total} bundles: ${s.failed} failed, ${s.healthy} healthy, ${s.unreadable.length} unreadable; ${s.groups.length} distinct signatures; unclassified ${s.unclassified} (${pct(s.unclassifiedShare)} of analyzed)`);
  out.push('');
  for (const g of s.groups) {
    const sig = g.signature;
    out.push(`${String(g.count).padStart(5)}  ${oneLine(sig.id, 40)}  ${oneLine(sig.stage ?? sig.template, 120)} / ${oneLine(sig.category ?? '-', 60)}${sig.ruleId ? ` [${oneLine(sig.ruleId, 120)}]` : ''}`);
    if (sig.stage) out.push(`       ${oneLine(sig.template, 120)}`);
    out.push(`       seen ${formatTime(g.firstSeen)} → ${formatTime(g.lastSeen)}; e.g. ${oneLine(g.examples.join(', '), 400)}`);
  }
  if (s.unreadable.length > 0) {
    out.push('', `Unreadable (${s.unreadable.length}):`);
    for (const u of s.unreadable) out.push(`  ${oneLine(u.bundle, 200)}: ${oneLine(u.error, 120)}`);
  }
  return out.map((l) => fitLine(l, width)).join('\n') + '\n';
}

/** Markdown for tickets and CI summaries. */
export function renderTriageMarkdown(s: TriageSummary): string {
  const out: string[] = [];
  out.push('# bootlens triage', '');
  out.push(`**${s.total}** bundles: ${s.failed} failed, ${s.healthy} healthy, ${s.unreadable.length} unreadable. **${s.groups.length}** distinct signatures. Unclassified: ${s.unclassified} (${pct(s.unclassifiedShare)} of analyzed).`, '');
  out.push('| count | signature | stage | category | rule | template | first seen | last seen | examples |', '|---:|---|---|---|---|---|---|---|---|');
  for (const g of s.groups) {
    const sig = g.signature;
    out.push(
      `| ${g.count} | \`${sig.id}\` | ${markdownCell(sig.stage ?? sig.template)} | ${markdownCell(sig.category ?? '')} | ${markdownCell(sig.ruleId ?? '')} | ${markdownCell(oneLine(sig.template, 160))} | ${formatTime(g.firstSeen)} | ${formatTime(g.lastSeen)} | ${markdownCell(g.examples.join(', '))} |`,
    );
  }
  if (s.unreadable.length > 0) {
    out.push('', '## Unreadable', '');
    for (const u of s.unreadable) out.push(`- ${markdownCell(u.bundle)}: ${markdownCell(oneLine(u.error, 160))}`);
  }
  return out.join('\n') + '\n';
}
