// The sources a rule reads, named as the source registry names them (a journal unit, a
// container, the installer log, service records, resources: specs/bundle-sources.ts) and
// resolved through it: the same lookup decides which logs a rule's filters read, which logs and
// records it is given, whether an input is there, and how a missing one is named.
import type { Bundle, LogLine, LogSummary, MatchedLine, SourceId } from '../model/types.js';
import { bundleHosts, logHost } from '../model/walk.js';
import {
  hostInScope,
  logMatches,
  RULE_ROWS,
  type HostScope,
  type LogName,
  type ResourceKind,
  type RuleView,
  type SourceInstance,
  type SourceLine,
  type SourceRequest,
  type SourceRow,
} from '../specs/bundle-sources.js';
import { classifyPath, madeUpId, pathFor } from '../specs/layout.js';

export { hostName } from '../model/walk.js';
/** The resources a YAML rule reads as lines (the rule schema's enum, checked against the registry). */
export type ResourceName = ResourceKind;

export type RuleSource =
  | { journal: string; host?: HostScope }
  | { 'unit-status': string; host?: HostScope }
  | { container: string; host?: HostScope }
  | { log: LogName; host?: HostScope }
  | { service: string; stage?: string; host?: HostScope }
  | { resource: ResourceName };

/**
 * A source a TypeScript rule declares as its input: what YAML rules name, plus the structured
 * sources only code reads (the resource lists without a line form, `crictl`/`podman inspect`
 * output, `etcdctl` output, rendered certificates).
 */
export type RuleInput =
  | RuleSource
  | { resource: ResourceKind }
  | { inspect: string; host?: HostScope }
  | { etcd: 'member-list' | 'endpoint-health'; host?: HostScope }
  | { rendered: 'certificates' };

/** A registry row rules can name. */
type RuleRow = SourceRow & { rule: RuleView };

/** The row an input names and what it asks of it. */
function lookup(input: RuleInput): { row: RuleRow; request: SourceRequest } {
  const fields = input as Partial<Record<string, string>> & { host?: HostScope; stage?: string };
  for (const row of RULE_ROWS) {
    const value = fields[row.rule.key];
    if (value === undefined || (row.rule.values && !row.rule.values.includes(value))) continue;
    const request: SourceRequest = { value };
    if (fields.host !== undefined) request.host = fields.host;
    if (fields.stage !== undefined) request.stage = fields.stage;
    return { row, request };
  }
  throw new Error(`no source of the bundle is named ${JSON.stringify(input)}`);
}

/** What the bundle holds of an input: the logs, records or lists it names. */
function found(bundle: Bundle, input: RuleInput): { row: RuleRow; request: SourceRequest; items: readonly unknown[] } {
  const { row, request } = lookup(input);
  const hosts = bundleHosts(bundle).filter((h) => hostInScope(request.host, h.role));
  return { row, request, items: row.rule.find(bundle, request, hosts) };
}

/** Whether a log (by its source id) belongs to a rule source: for line filters and for resolving. */
export function sourceAppliesTo(source: RuleSource, id: SourceId): boolean {
  const { row, request } = lookup(source);
  return row.read === 'stream' && logMatches(row, request, id);
}

/** A glob made concrete: every wildcard becomes `x`. */
function concrete(glob: string): string {
  return glob.replace(/[*?]/g, 'x');
}

/** The master examples are written for. */
const EXAMPLE_MASTER = '10.0.0.5';

/** The unit, container or service an example names in place of its source's glob. */
export interface ExampleNames {
  unit?: string;
  container?: string;
  service?: string;
  /** The host the example's log comes from, when it says (else the source's host, else the bootstrap host). */
  host?: 'bootstrap' | 'master';
}

/**
 * Where the gather scripts write a file of the rule source, below `log-bundle-<ID>/`, for
 * writing examples: the registry row's path, its names made concrete (a made-up container id).
 */
export function examplePath(source: RuleSource, named: ExampleNames = {}): string {
  const { row, request } = lookup(source);
  const value = concrete(request.value);
  const container = named.container ?? value;
  const names = { unit: named.unit ?? value, service: named.service ?? value, name: container, id: madeUpId(container), console: 'master-0', runtime: 'cri-o' };
  const role = row.rule.hostScoped ? (named.host ?? (request.host === 'master' ? 'master' : 'bootstrap')) : 'bootstrap';
  return pathFor(row, names, role === 'master' ? { role: 'master', address: EXAMPLE_MASTER } : { role: 'bootstrap' });
}

/** The log an example of a streamed source is, placed where `examplePath` writes it (read back by the layout). */
export function exampleSource(source: RuleSource, named: ExampleNames = {}): SourceId {
  const { row, spec } = classifyPath(examplePath(source, named));
  if (row?.read !== 'stream' || !spec) throw new Error(`${describeSource(source)} is no streamed log`);
  return row.log(spec);
}

/** Where the gather script writes a resource list, below `log-bundle-<ID>/`. */
export function resourcePath(name: ResourceKind): string {
  return pathFor(lookup({ resource: name }).row, {});
}

/** A short label for a source, used in `skipped (missing: ...)`: the row's, after the host scope. */
export function describeSource(source: RuleInput): string {
  const { row, request } = lookup(source);
  const scope = row.rule.hostScoped && request.host && request.host !== 'any' ? `${request.host} ` : '';
  return `${scope}${row.rule.label(request)}`;
}

/** Whether the bundle holds a source: `resolveSource`'s lookup, without building lines. */
export function inputPresent(bundle: Bundle, input: RuleInput): boolean {
  return found(bundle, input).items.length > 0;
}

/** What a rule reads: any one of `anyOf` is enough to judge, and each of `allOf` is needed besides. */
export interface RuleInputs {
  anyOf: readonly RuleInput[];
  allOf?: readonly RuleInput[];
}

/**
 * The labels of the inputs a rule lacks, undefined when it can run: every one of `anyOf` when
 * none is present (a rule that declares none reads whatever there is), and each absent `allOf`.
 */
export function missingInputs(bundle: Bundle, inputs: RuleInputs): string[] | undefined {
  const missing: string[] = [];
  if (inputs.anyOf.length > 0 && !inputs.anyOf.some((i) => inputPresent(bundle, i))) missing.push(...inputs.anyOf.map(describeSource));
  for (const i of inputs.allOf ?? []) if (!inputPresent(bundle, i)) missing.push(describeSource(i));
  return missing.length > 0 ? missing : undefined;
}

/** Resolves a rule source to what the bundle holds; an empty list means the source is missing. */
export function resolveSource(bundle: Bundle, source: RuleSource): SourceInstance[] {
  const { row, request, items } = found(bundle, source);
  if (row.read === 'stream') {
    return (items as LogSummary[]).map((log) => {
      const instance: SourceInstance = { label: log.source.file, log };
      if (log.sourceId.host) instance.host = logHost(log);
      return instance;
    });
  }
  const instance = row.rule.instance;
  return instance ? items.map((item) => instance(item, request)) : [];
}

/** A log's matched lines as SourceLines (for one host label), and which of them each filter kept. */
interface MatchedIndex {
  lines: readonly SourceLine[];
  byFilter: Map<string, number[]>;
}

const MATCHED = new WeakMap<LogSummary, Map<string | undefined, MatchedIndex>>();

function matchedIndex(log: LogSummary, host: string | undefined): MatchedIndex {
  let byHost = MATCHED.get(log);
  if (!byHost) MATCHED.set(log, (byHost = new Map()));
  let index = byHost.get(host);
  if (!index) {
    // Shared by every rule that reads the log: frozen, like the model they come from.
    const lines = matchedLines(log, host).map((l) => Object.freeze(l));
    const byFilter = new Map<string, number[]>();
    lines.forEach((l, i) => {
      for (const id of l.filterIds ?? []) {
        const at = byFilter.get(id);
        if (at) at.push(i);
        else byFilter.set(id, [i]);
      }
    });
    index = { lines, byFilter };
    byHost.set(host, index);
  }
  return index;
}

/**
 * The matched lines of a streamed log that one of `filterIds` kept, in the log's order. A rule
 * is shown the lines its own filters kept, not every line every rule's filters kept (hundreds of
 * rules read the same journals); each line is made once per log.
 */
export function matchedLinesOf(log: LogSummary, host: string | undefined, filterIds: readonly string[]): readonly SourceLine[] {
  const index = matchedIndex(log, host);
  const at = new Set<number>();
  for (const id of filterIds) for (const i of index.byFilter.get(id) ?? []) at.add(i);
  return [...at].sort((a, b) => a - b).map((i) => index.lines[i]);
}

/** The kept lines of a streamed log as SourceLines. */
export function matchedLines(log: LogSummary, host: string | undefined): SourceLine[] {
  return log.matched.map((m: MatchedLine<LogLine>) => {
    const l: SourceLine = { file: log.source.file, line: m.entry.line, text: m.entry.raw ?? m.entry.text, filterIds: m.filterIds, before: m.before, after: m.after };
    if (m.entry.time !== undefined) l.time = m.entry.time;
    if (m.entry.monotonic !== undefined) l.monotonic = m.entry.monotonic;
    if (host) l.host = host;
    return l;
  });
}
