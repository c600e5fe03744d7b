// Renders a bundle diff as terminal text. Reads the diff only.
import type { BundleDiff } from '../diff/diff-bundles.js';
import { oneLine } from './format.js';

export function renderDiffText(d: BundleDiff): string {
  const out: string[] = [];
  const v = (x: BundleDiff['good']['verdict']): string => (x.status === 'failed' ? `failed at ${x.stage} (${x.category})` : x.status);
  out.push(`good: ${d.good.name}: ${v(d.good.verdict)}`, `bad:  ${d.bad.name}: ${v(d.bad.verdict)}`, '');
  out.push(`Stages that differ (${d.stages.length}):`);
  for (const s of d.stages) out.push(`  ${s.id.padEnd(26)} ${s.good.padEnd(12)} → ${s.bad}`);
  out.push('', `Findings only in bad: ${d.findings.onlyBad.join(', ') || 'none'}; only in good: ${d.findings.onlyGood.join(', ') || 'none'}`);
  out.push('', `Operator conditions that changed (${d.operators.length}):`);
  for (const o of d.operators) out.push(`  ${o.operator} ${o.condition}: ${o.good ?? '-'} → ${o.bad ?? '-'}${o.message ? `  ${oneLine(o.message, 100)}` : ''}`);
  out.push('', `Log templates only in bad (${d.newTemplatesTotal}, first ${d.newTemplates.length}):`);
  for (const t of d.newTemplates) out.push(`  ${String(t.count).padStart(6)}×  ${oneLine(t.template, 140)}`, `          e.g. ${t.file}:${t.line}`);
  return out.join('\n') + '\n';
}
