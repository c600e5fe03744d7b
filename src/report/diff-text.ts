// Renders a bundle diff as terminal text, outcome first: the two verdicts, the stages, findings
// and operator conditions that differ, then the log templates new in the bad bundle. Conditions
// present in one bundle only are one count, not a hundred `True → -` lines. Every line is broken
// between words only. Reads the diff only; every bundle string goes through the terminal
// escaping of format.ts.
import type { BundleDiff } from '../diff/diff-bundles.js';
import { fitLine, layoutWidth, oneLine, wrapWords } from './format.js';

export interface DiffTextOptions {
  /** Columns to fit into; `Infinity` for full lines (`--wide`). */
  width?: number;
}

function verdictText(v: BundleDiff['good']['verdict']): string {
  if (v.status !== 'failed') return v.status;
  return `FAILED at ${v.stage ?? '?'} (${v.category ?? 'unknown'}, confidence ${v.confidence}${v.rootCause ? `, rule ${v.rootCause}` : ''})`;
}

export function renderDiffText(d: BundleDiff, opts: DiffTextOptions = {}): string {
  const width = layoutWidth(opts.width);
  const out: string[] = [];
  const line = (text: string, lead = '', indent = `${lead}    `): void => void out.push(...wrapWords(text, width, indent, lead));
  const same = d.good.verdict.status === d.bad.verdict.status && d.good.verdict.stage === d.bad.verdict.stage && d.good.verdict.category === d.bad.verdict.category;
  line(same ? 'Outcome: the same verdict' : 'Outcome: the verdicts differ');
  line(`good ${oneLine(d.good.name, 300)}: ${verdictText(d.good.verdict)}`, '  ');
  line(`bad  ${oneLine(d.bad.name, 300)}: ${verdictText(d.bad.verdict)}`, '  ');
  out.push('');
  line(`Stages that differ (${d.stages.length})${d.stages.length === 0 ? ': none' : ':'}`);
  for (const s of d.stages) line(`${s.id.padEnd(26)} ${s.good} → ${s.bad}`, '  ');
  out.push('');
  line(`Findings only in bad (${d.findings.onlyBad.length}): ${oneLine(d.findings.onlyBad.join(', '), 2000) || 'none'}`);
  line(`Findings only in good (${d.findings.onlyGood.length}): ${oneLine(d.findings.onlyGood.join(', '), 2000) || 'none'}`);
  out.push('');
  line(`Operator conditions that changed value (${d.operators.length})${d.operators.length === 0 ? ': none' : ':'}`);
  for (const o of d.operators) {
    const head = `${oneLine(o.operator, 120)} ${oneLine(o.condition, 60)}: ${oneLine(o.good, 20)} → ${oneLine(o.bad, 20)}`;
    line(o.message ? `${head}  ${oneLine(o.message, 300)}` : head, '  ');
  }
  if (d.conditionsInOne.length > 0) {
    const onlyGood = d.conditionsInOne.filter((c) => c.bad === undefined).length;
    const onlyBad = d.conditionsInOne.length - onlyGood;
    line(`(${d.conditionsInOne.length} conditions are present in one bundle only, not changes: ${onlyGood} only in good, ${onlyBad} only in bad; --format json lists them)`, '  ', '   ');
  }
  out.push('');
  line(`Log templates only in bad (${d.newTemplatesTotal}${d.newTemplates.length < d.newTemplatesTotal ? `, first ${d.newTemplates.length}` : ''}):`);
  for (const t of d.newTemplates) {
    // A template is a log line: cut around its middle to the width, never wrapped into words.
    out.push(`  ${String(t.count).padStart(6)}×  ${Number.isFinite(width) ? fitLine(t.template, Math.max(10, width - 11)) : t.template}`);
    line(`e.g. ${oneLine(t.file, 300)}:${t.line}`, '          ', '            ');
  }
  return `${out.join('\n')}\n`;
}
