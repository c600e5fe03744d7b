// Suppressions (`--ignore FILE`): known false positives silenced by rule id, optionally only
// on some hosts or for some messages, always with a reason that the report keeps.
import { readFileSync } from 'node:fs';
import { parseYamlDocument, YamlError, type YamlDocument } from '../parsers/yaml-document.js';
import type { Finding } from '../rules/types.js';
import { compileGlob } from '../util/glob.js';

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

/** `file:line: ` for an error message, the line when known. */
function at(file: string, line: number | undefined): string {
  return line === undefined ? `${file}: ` : `${file}:${line}: `;
}

/** Reads a suppression file: a YAML list, or `{ suppressions: [...] }`. */
export function loadSuppressions(file: string): Suppression[] {
  let doc: YamlDocument;
  try {
    doc = parseYamlDocument(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if (err instanceof YamlError) throw new SuppressionError(`${at(file, err.line)}${err.reason}`);
    throw new SuppressionError(`${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const value = doc.value;
  const nested = !Array.isArray(value);
  const list = nested ? (value as { suppressions?: unknown } | null)?.suppressions : value;
  if (!Array.isArray(list)) throw new SuppressionError(`${file}: expected a list of { rule, reason, host?, message? }`);
  return list.map((item, i) => {
    const s = item as Partial<Suppression> | null;
    const where = at(file, doc.lineAt(nested ? `/suppressions/${i}` : `/${i}`));
    if (typeof s?.rule !== 'string' || typeof s.reason !== 'string' || !s.reason.trim()) {
      throw new SuppressionError(`${where}entry ${i + 1} needs a rule id and a reason`);
    }
    if (s.message !== undefined) {
      try {
        new RegExp(s.message);
      } catch (err) {
        throw new SuppressionError(`${where}entry ${i + 1}: bad message regex: ${(err as Error).message}`);
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
    const re = compileGlob(s.host);
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
