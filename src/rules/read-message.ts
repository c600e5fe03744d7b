// What rules ask of the message catalogue, worded once: the category a text names, and which of
// several lines names its cause most directly (the decisive one, not merely the last).
import type { Reading } from '../catalogue/classify.js';
import type { CategoryId } from '../taxonomy.js';
import type { RuleContext } from './types.js';

/** The category a text names: a cause's or a symptom's; `unknown` for benign, success or unknown text. */
export function categoryNamed(ctx: Pick<RuleContext, 'read'>, text: string): CategoryId {
  const r = ctx.read(text);
  return r && (r.role === 'cause' || r.role === 'symptom') ? r.category : 'unknown';
}

/**
 * Whether a reading names a cause a support engineer would act on: not a bare state (`unknown`,
 * `operator-degraded`), and not a failed connection to a target the line does not say.
 */
export function namesCause(r: Reading | undefined): r is Reading {
  if (!r || (r.role !== 'cause' && r.role !== 'symptom')) return false;
  if (r.category === 'unknown' || r.category === 'operator-degraded') return false;
  return !(r.category === 'network-connectivity' && (r.error?.target === undefined || r.error.target === 'other') && r.message === undefined);
}

/**
 * The line among `lines` that says most directly why something failed, latest first: one that
 * names a cause, else the latest the catalogue reads at all.
 */
export function mostTelling<T extends { text: string }>(ctx: Pick<RuleContext, 'read'>, lines: readonly T[]): { line: T; reading: Reading; index: number } | undefined {
  let any: { line: T; reading: Reading; index: number } | undefined;
  for (let i = lines.length - 1; i >= 0; i--) {
    const reading = ctx.read(lines[i].text);
    if (!reading || (reading.role !== 'cause' && reading.role !== 'symptom') || reading.category === 'unknown') continue;
    if (namesCause(reading)) return { line: lines[i], reading, index: i };
    any ??= { line: lines[i], reading, index: i };
  }
  return any;
}
