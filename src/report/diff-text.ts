// Renders a bundle diff as terminal text. Reads the diff only; every bundle string goes
// through the terminal escaping of format.ts.
import type { BundleDiff } from '../diff/diff-bundles.js';
import { fitLine, fitWidth, layoutWidth, oneLine } from './format.js';

export interface DiffTextOptions {
  /** Columns to fit into; `Infinity` for full lines (`--wide`). */
  width?: number;
}

export function renderDiffText(d: BundleDiff, opts: DiffTextOptions = {}): string {
  const width = layoutWidth(opts.width);
  const out: string[] = [];
  const v = (x: BundleDiff['good']['verdict']): string => (x.status === 'failed' ? `failed at ${x.stage} (${x.category})` : x.status);
  out.push(`good: ${oneLine(d.good.name, 300)}: ${v(d.good.verdict)}`, `bad:  ${oneLine(d.bad.name, 300)}: ${v(d.bad.verdict)}`, '');
  out.push(`Stages that differ (${d.stages.length}):`);
  for (const s of d.stages) out.push(`  ${s.id.padEnd(26)} ${s.good.padEnd(12)} → ${s.bad}`);
  out.push('', `Findings only in bad: ${oneLine(d.findings.onlyBad.join(', '), 2000) || 'none'}; only in good: ${oneLine(d.findings.onlyGood.join(', '), 2000) || 'none'}`);
  out.push('', `Operator conditions that changed (${d.operators.length}):`);
  for (const o of d.operators) {
    const head = `  ${oneLine(o.operator, 120)} ${oneLine(o.condition, 60)}: ${oneLine(o.good ?? '-', 20)} → ${oneLine(o.bad ?? '-', 20)}`;
    out.push(o.message ? `${head}  ${fitLine(o.message, Math.max(20, width - head.length - 2))}` : head);
  }
  out.push('', `Log templates only in bad (${d.newTemplatesTotal}, first ${d.newTemplates.length}):`);
  for (const t of d.newTemplates) out.push(`  ${String(t.count).padStart(6)}×  ${fitLine(t.template, width - 11)}`, `          e.g. ${oneLine(t.file, 300)}:${t.line}`);
  return fitWidth(out.join('\n').split('\n'), width).join('\n') + '\n';
}
