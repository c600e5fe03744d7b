// What the bundle says of each finding after the rules ran, from the catalogue: a line every
// healthy install prints is benign (never a cause), and an error a later success resolved is
// recovered (the pull succeeded on retry, etcd became healthy, the API came up): info, never a
// cause, with the line of the success beside it.
import { classifierOf, type Classifier, type LineOrigin } from '../catalogue/classify.js';
import type { Catalogue, CatalogueEntry } from '../catalogue/types.js';
import type { Bundle, LogLine, LogSummary } from '../model/types.js';
import { bundleLogs } from '../model/walk.js';
import type { Evidence, Finding } from '../result/types.js';
import { filterId, sourceName } from '../model/source-id.js';
import type { LineFilter } from '../specs/line-filter.js';
import { requiredLiterals } from '../text/regex-source.js';
import type { Timeline } from '../timeline/types.js';

/** systemd's words for a unit that ended its work: they heal what its journal said before. */
const UNIT_SUCCEEDED = /\.(?:service|scope|mount|socket|timer|path): (?:Deactivated successfully|Succeeded)\.|systemd\[\d+\]: Finished /;

/**
 * Line filters that keep every success of the catalogue in any log, however long: healing reads
 * them after the evidence they resolve.
 */
export function successFilters(catalogue: Catalogue): LineFilter[] {
  const successes = catalogue.entries.filter((e) => e.role === 'success');
  return successes.flatMap((e) =>
    e.forms.map((f, i): LineFilter => ({ id: filterId('healing', `${e.id}.${i}`), appliesTo: () => true, literals: requiredLiterals(f.regex.source), pattern: f.regex })),
  );
}

/** Where a log's lines were printed, for entries that hold only somewhere. */
function originOf(log: LogSummary | undefined): LineOrigin | undefined {
  if (!log) return undefined;
  const host = log.sourceId.host?.role;
  return { ...(host ? { host } : {}), source: sourceName(log.sourceId) };
}

/** The lines the reader kept of a log, in order, once each. */
function keptLines(log: LogSummary): LogLine[] {
  const byLine = new Map<number, LogLine>();
  for (const l of log.head) byLine.set(l.line, l);
  for (const m of log.matched) byLine.set(m.entry.line, m.entry);
  for (const l of log.tail) byLine.set(l.line, l);
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

function evidenceOf(log: LogSummary, l: LogLine, host: string | undefined): Evidence {
  const e: Evidence = { file: log.source.file, line: l.line, text: l.raw ?? l.text };
  if (l.time !== undefined) e.time = l.time;
  if (host) e.host = host;
  return e;
}

class Marker {
  private readonly classifier: Classifier;
  private readonly logs = new Map<string, LogSummary>();
  private readonly kept = new Map<LogSummary, LogLine[]>();

  constructor(
    bundle: Bundle,
    private readonly timeline: Timeline,
    catalogue: Catalogue,
  ) {
    this.classifier = classifierOf(catalogue);
    for (const log of bundleLogs(bundle)) this.logs.set(log.source.file, log);
  }

  private lines(log: LogSummary): LogLine[] {
    let l = this.kept.get(log);
    if (!l) this.kept.set(log, (l = keptLines(log)));
    return l;
  }

  /** A line every healthy install prints, where it was printed. */
  benign(e: Evidence): boolean {
    return this.classifier.classify(e.text, originOf(this.logs.get(e.file)))?.role === 'benign';
  }

  /** The success that resolved a finding: its stage seen complete after it, or a later line of its own log. */
  recovery(f: Finding): Evidence | undefined {
    return this.stageRecovery(f) ?? this.lineRecovery(f);
  }

  /** The finding's stage ended well by its own evidence, after the finding's last line. */
  private stageRecovery(f: Finding): Evidence | undefined {
    const s = this.timeline.stages.find((x) => x.id === f.stage);
    if (!s || s.status !== 'ok' || s.implied || s.end === undefined || f.lastTime === undefined) return undefined;
    if (f.lastTime > s.end) return undefined;
    return s.evidence[0];
  }

  /**
   * A later line of the last evidence's log that heals it: a success the catalogue names as its
   * healer (the release image pulled after a failed pull, the API up after a refused wait), or its
   * unit's own success. A success of the same stage is not enough: one pod Ready heals no other.
   */
  private lineRecovery(f: Finding): Evidence | undefined {
    const last = [...f.evidence].filter((e) => e.line !== undefined && this.logs.has(e.file)).sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).pop();
    if (!last) return undefined;
    const log = this.logs.get(last.file) as LogSummary;
    const where = originOf(log);
    const reading = this.classifier.classify(last.text, where);
    const healers = new Set<string>([...(reading?.message?.entry.healedBy ?? []), ...(reading?.error?.entry.healedBy ?? [])]);
    const journal = log.sourceId.kind === 'journal' || log.sourceId.kind === 'unit-status-journal';
    // What the finding speaks of (an endpoint, an image, a pod): its rule's captures and the line's.
    const own: Record<string, string> = { ...f.captures, ...reading?.error?.captures, ...reading?.message?.captures };
    for (const l of this.lines(log)) {
      if (l.line <= (last.line ?? 0)) continue;
      const text = l.raw ?? l.text;
      if (journal && UNIT_SUCCEEDED.test(text)) return evidenceOf(log, l, last.host);
      const r = this.classifier.classify(text, where);
      if (r?.role !== 'success') continue;
      const entry = r.decisive.entry;
      // The success must speak of the same thing where both name it (one image pulled heals no other).
      const theSame = Object.entries(r.decisive.captures).every(([k, v]) => own[k] === undefined || own[k] === v);
      if (theSame && healers.has(entry.id)) return evidenceOf(log, l, last.host);
    }
    return undefined;
  }
}

/** The healers an entry names, for documentation and tests. */
export function healersOf(entry: CatalogueEntry): readonly string[] {
  return entry.healedBy;
}

/**
 * A recovered finding's words: how often it failed and the success that ended it. The rule's own
 * text speaks of a failure that lasted ("never became ready", "up to the end of its journal"),
 * which the success line contradicts.
 */
function recoveredMessage(f: Finding, success: Evidence): string {
  const counted = Number(f.captures?.count);
  const tries = Number.isInteger(counted) && counted > 0 ? counted : f.evidence.reduce((n, e) => n + (e.repeats ?? 1), 0);
  const said = success.text.replace(/\s+/g, ' ').trim();
  return `Recovered: ${tries} failed attempt${tries === 1 ? '' : 's'}, then ${success.line !== undefined ? `line ${success.line}: ` : ''}${said}`;
}

/**
 * Marks each finding: benign evidence lines, and recovered findings (severity info, the line of
 * the success kept as `recovered`). Returns new findings; the rules' own are not changed.
 */
export function markFindings(findings: readonly Finding[], bundle: Bundle, timeline: Timeline, catalogue: Catalogue): Finding[] {
  const m = new Marker(bundle, timeline, catalogue);
  return findings.map((f) => {
    const evidence = f.evidence.map((e) => (m.benign(e) ? { ...e, benign: true } : e));
    const recovered = m.recovery(f);
    const out: Finding = { ...f, evidence };
    if (recovered) {
      out.recovered = recovered;
      out.severity = 'info';
      out.message = recoveredMessage(f, recovered);
    }
    return out;
  });
}
