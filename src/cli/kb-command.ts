// `bootlens kb add` and `bootlens kb check`: the command-line side of the knowledge base's own
// modules (src/knowledge/): options in, one-line errors and text out.
import { addEntry, KbOptionError, type KbAddOptions, type KbAddResult } from '../knowledge/add-entry.js';
import { checkEntries, type KbCheckOptions, type KbCheckResult } from '../knowledge/check-entries.js';
import { termText } from '../report/escape.js';
import { UsageError } from './exit-codes.js';

export type { KbAddOptions, KbAddResult, KbLineSource, KbReadOptions } from '../knowledge/add-entry.js';
export type { KbCheckMatch, KbCheckOptions, KbCheckResult } from '../knowledge/check-entries.js';
export { kbCheckFailed } from '../knowledge/check-entries.js';

async function asUsage<T>(work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    throw err instanceof KbOptionError ? new UsageError(err.message) : err;
  });
}

/** `kb add`: writes the entry; bad options are usage errors. */
export function runKbAdd(options: KbAddOptions): Promise<KbAddResult> {
  return asUsage(addEntry(options));
}

/** `kb check`. */
export function runKbCheck(options: KbCheckOptions): Promise<KbCheckResult> {
  return asUsage(checkEntries(options));
}

/** The check as text for a terminal: bundle names, files and lines escaped like every text report. */
export function formatKbCheck(result: KbCheckResult): string {
  const out: string[] = [`${result.entries} knowledge-base entries checked.`];
  if (result.noisy.length === 0) out.push('No entry matches a healthy bundle.');
  else {
    out.push('', `Entries matching healthy bundles (noise: make their lines more specific or remove them):`);
    for (const m of result.noisy) {
      out.push(`  ${m.id}  score ${m.score.toFixed(2)}  ${termText(m.bundle)}`);
      for (const l of m.lines.slice(0, 2)) out.push(`      ${termText(l.file)}:${l.line}  ${termText(l.text.slice(0, 160))}`);
    }
  }
  if (result.unmatched.length > 0) {
    out.push('', 'Entries matching none of the failed bundles:');
    for (const id of result.unmatched) out.push(`  ${id}`);
  }
  for (const u of result.unreadable) out.push(`Could not read ${termText(u.bundle)}: ${termText(u.message)}`);
  return `${out.join('\n')}\n`;
}
