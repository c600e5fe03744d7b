// Renders a triage summary as terminal text or Markdown: failures by signature, then the
// inconclusive, healthy and unreadable cases, each in a section of its own. Reads the summary
// only; every bundle string goes through the terminal escaping of format.ts (text) or the
// Markdown escaping (md).
import type { CaseList, TriageSummary } from '../triage/summary.js';
import { mdCell as markdownCell } from './escape.js';
import { fitLine, formatTime, oneLine } from './format.js';

export function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** The totals every triage format opens with: the cases, then the failures' signatures. */
export function triageTotals(s: TriageSummary): [string, string] {
  return [
    `${s.total} cases: ${s.failed} failed, ${s.inconclusive} inconclusive, ${s.healthy} healthy, ${s.unreadable.length} unreadable`,
    `${s.groups.length} distinct failure signatures; unclassified ${s.unclassified} (${pct(s.unclassifiedShare)} of analyzed)`,
  ];
}

/** What "unclassified" counts, said once for every format. */
export const UNCLASSIFIED_NOTE =
  'Unclassified: failed cases whose cause no specific rule named (none did, or only the generic last-error reading), plus inconclusive ones, as a share of the analyzed cases.';

function caseNames(list: CaseList): string {
  return `${list.examples.join(', ')}${list.count > list.examples.length ? `, … (${list.count - list.examples.length} more)` : ''}`;
}

/** Terminal text, each line at most `width` columns (Infinity: full lines). */
export function renderTriageText(s: TriageSummary, width = Infinity): string {
  const out: string[] = [...triageTotals(s), ''];
  out.push(`Failed (${s.failed}):`);
  if (s.groups.length === 0) out.push('  none');
  for (const g of s.groups) {
    const sig = g.signature;
    const rule = sig.ruleId ? ` [${oneLine(sig.ruleId, 120)}]` : '';
    out.push(`${String(g.count).padStart(5)}  ${oneLine(sig.id, 40)}  ${oneLine(sig.stage ?? '-', 120)} / ${oneLine(sig.category ?? '-', 60)}${rule}${g.unclassified ? ' (unclassified)' : ''}`);
    out.push(`       ${oneLine(sig.template || '(no evidence line)', 300)}`);
    out.push(`       seen ${formatTime(g.firstSeen)} → ${formatTime(g.lastSeen)}; e.g. ${oneLine(g.examples.join(', '), 400)}`);
  }
  if (s.inconclusiveCases.count > 0) out.push('', `Inconclusive (${s.inconclusiveCases.count}): ${oneLine(caseNames(s.inconclusiveCases), 2000)}`);
  if (s.healthyCases.count > 0) out.push('', `Healthy (${s.healthyCases.count}): ${oneLine(caseNames(s.healthyCases), 2000)}`);
  if (s.unreadable.length > 0) {
    out.push('', `Unreadable (${s.unreadable.length}):`);
    for (const u of s.unreadable) out.push(`  ${oneLine(u.bundle, 200)}: ${oneLine(u.error, 200)}`);
  }
  return out.map((l) => fitLine(l, width)).join('\n') + '\n';
}

/** Markdown for tickets and CI summaries. */
export function renderTriageMarkdown(s: TriageSummary): string {
  const out: string[] = ['# bootlens triage', '', `${markdownCell(triageTotals(s).join('; '), 1000)}.`, '', markdownCell(UNCLASSIFIED_NOTE, 1000), ''];
  out.push(`## Failed (${s.failed})`, '');
  if (s.groups.length === 0) out.push('None.');
  else {
    out.push('| count | signature | stage | category | rule | template | first seen | last seen | examples |', '|---:|---|---|---|---|---|---|---|---|');
    for (const g of s.groups) {
      const sig = g.signature;
      const rule = `${markdownCell(sig.ruleId ?? '')}${g.unclassified ? ' (unclassified)' : ''}`;
      out.push(
        `| ${g.count} | \`${sig.id}\` | ${markdownCell(sig.stage ?? '')} | ${markdownCell(sig.category ?? '')} | ${rule} | ${markdownCell(oneLine(sig.template, 160))} | ${formatTime(g.firstSeen)} | ${formatTime(g.lastSeen)} | ${markdownCell(g.examples.join(', '))} |`,
      );
    }
  }
  if (s.inconclusiveCases.count > 0) out.push('', `## Inconclusive (${s.inconclusiveCases.count})`, '', markdownCell(caseNames(s.inconclusiveCases), 4000));
  if (s.healthyCases.count > 0) out.push('', `## Healthy (${s.healthyCases.count})`, '', markdownCell(caseNames(s.healthyCases), 4000));
  if (s.unreadable.length > 0) {
    out.push('', `## Unreadable (${s.unreadable.length})`, '');
    for (const u of s.unreadable) out.push(`- ${markdownCell(u.bundle)}: ${markdownCell(oneLine(u.error, 160))}`);
  }
  return out.join('\n') + '\n';
}
