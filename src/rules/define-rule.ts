// Helpers for TypeScript rules: one typed way to declare metadata, filters and a check, and a
// classifier that names the category of an error text (shared by rules that read free text).
import type { LineFilter, LogTarget } from '../ingest/line-filter.js';
import type { Bundle, LogLine, LogSummary } from '../model/types.js';
import { hostName } from './sources.js';
import type { CategoryId } from '../taxonomy.js';
import type { CheckResult, Rule, RuleContext, RuleMeta } from './types.js';

export interface RuleDefinition {
  meta: Omit<RuleMeta, 'origin'>;
  /** Lines to keep from streamed logs: literals and optional pattern, over the logs `logs` selects. */
  keep?: { name: string; literals: string[]; pattern?: RegExp; logs: (t: LogTarget) => boolean }[];
  check(ctx: RuleContext): CheckResult;
}

/** The filter id a TypeScript rule's `keep` entry gets. */
export function keepId(ruleId: string, name: string): string {
  return `${ruleId}#${name}`;
}

/** A line a TypeScript rule's `keep` entry held, with its log and host. */
export interface KeptLine {
  log: LogSummary;
  line: LogLine;
  host: string;
}

/**
 * The lines a rule's `keep` entry held, from the journals (and optionally container and serial
 * logs) of the hosts with the given roles.
 */
export function keptLines(
  bundle: Bundle,
  ruleId: string,
  name: string,
  opts: { roles?: readonly ('bootstrap' | 'master')[]; containers?: boolean; serial?: boolean } = {},
): KeptLine[] {
  const id = keepId(ruleId, name);
  const roles = opts.roles ?? ['bootstrap', 'master'];
  const out: KeptLine[] = [];
  const add = (log: LogSummary, host: string): void => {
    for (const m of log.matched) if (m.filterIds.includes(id)) out.push({ log, line: m.entry, host });
  };
  for (const h of [...(bundle.bootstrap ? [bundle.bootstrap] : []), ...bundle.masters]) {
    if (!roles.includes(h.role)) continue;
    for (const j of Object.values(h.journals)) add(j, hostName(h));
    if (opts.containers) for (const c of h.containers) if (c.log) add(c.log, hostName(h));
  }
  if (opts.serial) for (const s of bundle.serialLogs) add(s, s.source.file.split('/').pop() ?? 'serial');
  return out;
}

/** Declares a TypeScript rule. */
export function defineRule(def: RuleDefinition): Rule {
  const filters: LineFilter[] = (def.keep ?? []).map((k) => {
    const f: LineFilter = { id: keepId(def.meta.id, k.name), appliesTo: k.logs, literals: k.literals };
    if (k.pattern) f.pattern = k.pattern;
    return f;
  });
  return { meta: { ...def.meta, origin: `src/rules/builtin/${def.meta.id}.ts` }, filters, check: def.check };
}

/** Error texts and the category they point to, most specific first. */
const CLASSIFIERS: [RegExp, CategoryId][] = [
  [/unauthorized|authentication required|401 Unauthorized|403 Forbidden|denied: requested access/i, 'registry-auth'],
  [/manifest unknown|manifest .* not found|name unknown|reading manifest .* not found/i, 'image-missing'],
  [/x509: certificate has expired or is not yet valid/i, 'certificate-expired'],
  [/x509: certificate signed by unknown authority|certificate is not trusted|tls: failed to verify/i, 'registry-tls'],
  [/proxyconnect|Proxy Authentication Required|proxy error/i, 'proxy'],
  [/no such host|server misbehaving|Temporary failure in name resolution/i, 'dns'],
  [/no space left on device|out of memory|OOM|cannot allocate memory/i, 'resource-exhaustion'],
  [/etcdserver|etcdctl failed|etcd cluster is unavailable|context deadline exceeded.*2379/i, 'etcd-health'],
  [/i\/o timeout|connection refused|no route to host|network is unreachable|connection reset/i, 'network-connectivity'],
];

/** The category an error text points to, or `unknown`. */
export function classifyError(text: string): CategoryId {
  for (const [re, category] of CLASSIFIERS) if (re.test(text)) return category;
  return 'unknown';
}
