// `bootlens inspect <bundle>`: what the reader found, as tables or as the model's JSON.
import { readBundle } from '../ingest/read-bundle.js';
import { redactDeep } from '../redact/redact.js';
import { renderInspectText } from '../report/inspect-text.js';
import { EXIT_OK, UsageError } from './exit-codes.js';
import { readOptionsFrom, type LimitFlags } from './limits.js';
import { emit, textWidth, type WidthFlags } from './output.js';
import { holdYoungGeneration } from '../util/young-generation.js';

export interface InspectOptions extends LimitFlags, WidthFlags {
  format: string;
  output?: string;
  installLog?: string;
  redact: boolean;
}

export async function runInspect(bundlePath: string, opts: InspectOptions): Promise<number> {
  holdYoungGeneration();
  if (opts.format !== 'text' && opts.format !== 'json') {
    throw new UsageError(`unknown format '${opts.format}' (expected text or json)`);
  }
  const width = opts.format === 'text' ? textWidth(opts) : undefined;
  const read = await readBundle(bundlePath, { ...readOptionsFrom(opts), ...(opts.installLog ? { installLog: opts.installLog } : {}) });
  const bundle = opts.redact ? redactDeep(read) : read;
  const text = opts.format === 'json' ? `${JSON.stringify(bundle, null, 2)}\n` : renderInspectText(bundle, { ...(width !== undefined ? { width } : {}) });
  await emit(text, opts.output);
  return EXIT_OK;
}
