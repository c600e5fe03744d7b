// Suppressions (`--ignore FILE`): known false positives silenced by rule id, optionally only
// on some hosts or for some messages, always with a reason that the report keeps.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { Finding } from '../rules/types.js';
import { globToRegExp } from '../rules/sources.js';

export interface Suppression {
  rule: string;
  /** Host glob (`10.0.0.*`, `bootstrap`). */
  host?: string;
  /** Regex the finding's message must match. */
  message?: string;
  reason: string;
}

/** A suppression file that cannot be used; the CLI prints it and exits 2. */
export class SuppressionError extends Error {}

/** Reads a suppression file: a YAML list, or `{ suppressions: [...] }`. */
export function loadSuppressions(file: string): Suppression[] {
  let doc: unknown;
  try {
    doc = yaml.load(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SuppressionError(`${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { suppressions?: unknown })?.suppressions;
  if (!Array.isArray(list)) throw new SuppressionError(`${file}: expected a list of { rule, reason, host?, message? }`);
  return list.map((item, i) => {
    const s = item as Partial<Suppression>;
    if (typeof s?.rule !== 'string' || typeof s.reason !== 'string' || !s.reason.trim()) {
      throw new SuppressionError(`${file}: entry ${i + 1} needs a rule id and a reason`);
    }
    if (s.message !== undefined) {
      try {
        new RegExp(s.message);
      } catch (err) {
        throw new SuppressionError(`${file}: entry ${i + 1}: bad message regex: ${(err as Error).message}`);
      }
    }
    const out: Suppression = { rule: s.rule, reason: s.reason };
    if (typeof s.host === 'string') out.host = s.host;
    if (typeof s.message === 'string') out.message = s.message;
    return out;
  });
}

function matches(s: Suppression, f: Finding): boolean {
  if (s.rule !== f.ruleId) return false;
  if (s.host) {
    const re = globToRegExp(s.host);
    if (!f.hosts.some((h) => re.test(h))) return false;
  }
  if (s.message && !new RegExp(s.message).test(f.message)) return false;
  return true;
}

/** Splits findings into kept and suppressed (with the reason). */
export function applySuppressions(findings: Finding[], suppressions: readonly Suppression[]): { kept: Finding[]; suppressed: { finding: Finding; reason: string }[] } {
  const kept: Finding[] = [];
  const suppressed: { finding: Finding; reason: string }[] = [];
  for (const f of findings) {
    const s = suppressions.find((x) => matches(x, f));
    if (s) suppressed.push({ finding: f, reason: s.reason });
    else kept.push(f);
  }
  return { kept, suppressed };
}
