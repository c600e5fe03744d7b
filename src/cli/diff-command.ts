// `bootlens diff <good> <bad>`: what changed between a good and a bad bundle.
import { diffBundles } from '../diff/diff-bundles.js';
import { redactDeep } from '../redact/redact.js';
import { renderDiffText } from '../report/diff-text.js';
import { loadRules } from '../rules/load-rules.js';
import { EXIT_OK } from './exit-codes.js';
import { emit, textWidth, type WidthFlags } from './output.js';
import { VERSION } from './version.js';
import { holdYoungGeneration } from '../util/young-generation.js';

export interface DiffOptions extends WidthFlags {
  format: string;
  output?: string;
  rules?: string;
  redact: boolean;
}

export async function runDiff(good: string, bad: string, opts: DiffOptions): Promise<number> {
  holdYoungGeneration();
  const width = opts.format === 'json' ? undefined : textWidth(opts);
  const { rules } = loadRules(opts.rules);
  const raw = await diffBundles(good, bad, rules, VERSION);
  const d = opts.redact ? redactDeep(raw) : raw;
  await emit(opts.format === 'json' ? `${JSON.stringify(d, null, 2)}\n` : renderDiffText(d, { ...(width !== undefined ? { width } : {}) }), opts.output);
  return EXIT_OK;
}
