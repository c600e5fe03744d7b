// The reader's limits as command-line flags (`--max-bytes 2G`, ...), each with the default the
// reader uses when the flag is absent.
import { availableParallelism } from 'node:os';
import { Option, type Command } from 'commander';
import { DEFAULT_READ_LIMITS } from '../archive/walk-bundle.js';
import type { ReadOptions } from '../ingest/read-bundle.js';
import { DEFAULT_STRUCTURED_LIMITS } from '../ingest/structured-limits.js';
import { UsageError } from './exit-codes.js';
import { nameTable } from '../util/name-table.js';

const UNITS = nameTable<number>({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 });

/** `64M` → 67108864; plain numbers are bytes (or a count). */
export function parseSize(value: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(value.trim());
  if (!m) throw new UsageError(`${flag} expects a number with an optional K/M/G/T suffix, not '${value}'`);
  const n = Math.floor(Number(m[1]) * (UNITS[m[2].toLowerCase()] ?? 1));
  if (n < 1) throw new UsageError(`${flag} must be at least 1`);
  return n;
}

/**
 * Worker threads a machine with `cores` cores is given at most: a worker holds a bundle's model
 * and its own heap, so workers beyond the cores add memory (256 on two cores: 3.2 GB) and no speed.
 */
export function maxJobs(cores: number = availableParallelism()): number {
  return Math.max(2, cores * 2);
}

/** `--jobs N` read: a whole number from 1 to maxJobs(); anything else is a usage error. */
export function parseJobs(value: string, cores: number = availableParallelism()): number {
  const max = maxJobs(cores);
  const n = /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new UsageError(`--jobs must be a whole number from 1 to ${max} (${cores} core${cores === 1 ? '' : 's'} here: more workers only add memory), not '${value}'`);
  }
  return n;
}

export interface LimitFlags {
  maxBytes?: string;
  maxEntries?: string;
  maxEntryBytes?: string;
  maxDepth?: string;
  maxLineLength?: string;
  maxYamlBytes?: string;
  maxYamlAliases?: string;
  maxYamlNodes?: string;
  maxJsonDepth?: string;
  maxJsonNodes?: string;
}

function human(n: number): string {
  for (const [u, f] of [['G', 1024 ** 3], ['M', 1024 ** 2], ['K', 1024]] as const) if (n % f === 0 && n >= f) return `${n / f}${u}`;
  return String(n);
}

/** Adds the limit flags to a command. */
export function addLimitOptions(cmd: Command): Command {
  const d = DEFAULT_READ_LIMITS;
  const s = DEFAULT_STRUCTURED_LIMITS;
  return cmd
    .addOption(new Option('--max-bytes <size>', `stop reading past this many uncompressed bytes (default ${human(d.maxTotalBytes)})`))
    .addOption(new Option('--max-entries <n>', `stop past this many files (and past as many folders) in the bundle (default ${d.maxEntries})`))
    .addOption(new Option('--max-entry-bytes <size>', `read at most this much of one entry (default ${human(d.maxEntryBytes)})`))
    .addOption(new Option('--max-depth <n>', `archives nested deeper are not read (default ${d.maxDepth})`))
    .addOption(new Option('--max-line-length <n>', 'longer lines are cut and marked (default 64K)'))
    .addOption(new Option('--max-yaml-bytes <size>', `larger YAML files are not parsed (default ${human(s.maxYamlBytes)})`))
    .addOption(new Option('--max-yaml-aliases <n>', `YAML with more aliases is not parsed (default ${s.maxYamlAliases})`))
    .addOption(new Option('--max-yaml-nodes <n>', `YAML with more nodes, aliases followed, is not parsed (default ${s.maxYamlNodes})`))
    .addOption(new Option('--max-json-depth <n>', `deeper JSON is not parsed (default ${s.maxJsonDepth})`))
    .addOption(new Option('--max-json-nodes <n>', `JSON with more values is not parsed (default ${s.maxJsonNodes})`));
}

/** The ReadOptions the flags ask for. */
export function readOptionsFrom(f: LimitFlags): Pick<ReadOptions, 'limits' | 'maxLineLength' | 'structuredLimits'> {
  const out: Pick<ReadOptions, 'limits' | 'maxLineLength' | 'structuredLimits'> = { limits: {}, structuredLimits: {} };
  const limits = out.limits as NonNullable<ReadOptions['limits']>;
  const structured = out.structuredLimits as NonNullable<ReadOptions['structuredLimits']>;
  if (f.maxBytes) limits.maxTotalBytes = parseSize(f.maxBytes, '--max-bytes');
  if (f.maxEntries) limits.maxEntries = parseSize(f.maxEntries, '--max-entries');
  if (f.maxEntryBytes) limits.maxEntryBytes = parseSize(f.maxEntryBytes, '--max-entry-bytes');
  if (f.maxDepth) limits.maxDepth = parseSize(f.maxDepth, '--max-depth');
  if (f.maxLineLength) out.maxLineLength = parseSize(f.maxLineLength, '--max-line-length');
  if (f.maxYamlBytes) structured.maxYamlBytes = parseSize(f.maxYamlBytes, '--max-yaml-bytes');
  if (f.maxYamlAliases) structured.maxYamlAliases = parseSize(f.maxYamlAliases, '--max-yaml-aliases');
  if (f.maxYamlNodes) structured.maxYamlNodes = parseSize(f.maxYamlNodes, '--max-yaml-nodes');
  if (f.maxJsonDepth) structured.maxJsonDepth = parseSize(f.maxJsonDepth, '--max-json-depth');
  if (f.maxJsonNodes) structured.maxJsonNodes = parseSize(f.maxJsonNodes, '--max-json-nodes');
  return out;
}
