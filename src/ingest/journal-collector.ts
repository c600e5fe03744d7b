// Reads a `journalctl` text file: boot and empty markers, continuation lines, hostnames and
// systemd's own lines about the unit, on top of the bounded log summary.
import type { Journal, JournalBoot, JournalLine, SourceId, SourceRef } from '../model/types.js';
import { unitOutcome } from '../parsers/systemd.js';
import { isJournalContinuation, isJournalMarker, parseJournalLine, parseJournalMarker } from '../parsers/journal-text.js';
import { detach } from '../text/lines.js';
import type { GroupedLiteral } from '../text/literal-search.js';
import type { ActiveFilters } from './line-filter.js';
import { GROUP_OWN, LogCollector, type LogLimits } from './log-collector.js';

const MAX_HOSTNAMES = 16;
const MARKER_PREFIX: GroupedLiteral = { text: '-- ', groups: GROUP_OWN };
/** How far into a line the journal header (time, host, identifier) can reach. */
const HEADER_SPAN = 160;

function notEntryStart(raw: string): boolean {
  return isJournalContinuation(raw) || isJournalMarker(raw);
}

export class JournalCollector extends LogCollector<JournalLine> {
  private readonly boots: JournalBoot[] = [];
  private noEntries = false;
  private readonly hostnames = new Set<string>();
  private readonly systemdLines: JournalLine[] = [];
  // The last entry header, for continuation lines; two fields, not an object per line.
  private lastHeaderRaw: string | undefined;
  private lastHeaderLine = 0;
  private lastHeaderParsed: JournalLine | undefined;
  /** ` <hostname> ` of the previous header and where it stood: most lines repeat both. */
  private hostToken = '';
  private hostAt = -1;

  private readonly unit: string;

  constructor(
    source: SourceRef,
    sourceId: SourceId,
    filters: ActiveFilters,
    limits: LogLimits,
    private readonly referenceTime: number | undefined,
  ) {
    super(source, sourceId, filters, limits, (raw, line) => this.parseEntry(raw, line));
    this.unit = sourceId.unit ?? '';
  }

  private parseEntry(raw: string, line: number): JournalLine {
    const entry = parseJournalLine(raw, line, this.referenceTime) ?? { line, text: raw };
    if (this.boots.length > 0) entry.boot = this.boots.length - 1;
    return entry;
  }

  protected override observe(raw: string, lineNo: number): void {
    if (isJournalMarker(raw)) {
      const marker = parseJournalMarker(raw);
      if (marker?.type === 'boot') {
        const boot: JournalBoot = { line: lineNo };
        if (marker.id) boot.id = marker.id;
        this.boots.push(boot);
      } else if (marker?.type === 'no-entries') {
        this.noEntries = true;
      }
      return;
    }
    if (isJournalContinuation(raw)) return;
    this.lastHeaderRaw = raw;
    this.lastHeaderLine = lineNo;
    this.lastHeaderParsed = undefined;
    // systemd's lines about the unit say how it started, exited and failed: keep them all.
    // The identifier sits in the header, so only its first part is searched.
    if (this.systemdLines.length < this.limits.systemdLines && raw.lastIndexOf(' systemd[', HEADER_SPAN) >= 0) {
      const entry = this.keep(raw, lineNo, false);
      if (entry.identifier === 'systemd') this.systemdLines.push(entry);
    }
    if (this.hostnames.size < MAX_HOSTNAMES) {
      const host = this.hostnameOf(raw, lineNo);
      if (host) this.hostnames.add(host);
    }
  }

  private hostnameOf(raw: string, lineNo: number): string | undefined {
    // Parsing every header is costly and a new hostname is rare: first the previous line's
    // hostname at the same place, then any known one in the header, then a real parse.
    if (this.hostAt >= 0 && raw.startsWith(this.hostToken, this.hostAt)) return undefined;
    for (const h of this.hostnames) {
      const token = ` ${h} `;
      const at = raw.lastIndexOf(token, HEADER_SPAN);
      if (at >= 0) {
        this.hostToken = token;
        this.hostAt = at;
        return undefined;
      }
    }
    const entry = parseJournalLine(raw, lineNo, this.referenceTime);
    return entry?.hostname ? detach(entry.hostname) : undefined;
  }

  /** Continuation lines and markers: neither starts an entry. */
  override get continues(): (raw: string) => boolean {
    return notEntryStart;
  }

  /** systemd's lines about the unit. */
  protected override anchors(): string[] {
    return [' systemd['];
  }

  /** Boot and no-entries markers. */
  override get linePrefix(): GroupedLiteral {
    return MARKER_PREFIX;
  }

  protected override keepInHead(raw: string): boolean {
    return !isJournalMarker(raw);
  }

  protected override keepMatched(raw: string, lineNo: number, truncated: boolean): JournalLine {
    if (!isJournalContinuation(raw) || this.lastHeaderRaw === undefined) return this.keep(raw, lineNo, truncated);
    // A continuation line is cited by its own line but dated by its entry's header.
    this.lastHeaderParsed ??= this.keep(this.lastHeaderRaw, this.lastHeaderLine, false);
    const header = this.lastHeaderParsed;
    const entry: JournalLine = { line: lineNo, text: raw.trim(), raw };
    if (truncated) entry.truncated = true;
    if (header.time !== undefined) entry.time = header.time;
    if (header.hostname) entry.hostname = header.hostname;
    if (header.identifier) entry.identifier = header.identifier;
    if (header.pid !== undefined) entry.pid = header.pid;
    if (header.boot !== undefined) entry.boot = header.boot;
    return entry;
  }

  protected override buildTail(): JournalLine[] {
    const out: JournalLine[] = [];
    for (const r of this.tailLines()) {
      if (isJournalMarker(r.raw)) continue;
      const prev = out[out.length - 1];
      if (isJournalContinuation(r.raw) && prev) {
        (prev.continuation ??= []).push(r.raw.trim());
        continue;
      }
      out.push(this.keep(r.raw, r.line, r.truncated));
    }
    return out;
  }

  /** The journal; call once, after the last line. */
  journal(): Journal {
    const base = this.summary();
    const journal: Journal = {
      ...base,
      kind: this.kind as Journal['kind'],
      format: 'journal',
      unit: this.unit,
      boots: this.boots,
      noEntries: this.noEntries,
      hostnames: [...this.hostnames],
      systemdLines: this.systemdLines,
    };
    const outcome = unitOutcome(this.systemdLines);
    if (outcome) journal.outcome = outcome;
    // The last header may lie before the kept tail when the tail is all continuation lines.
    if (journal.lastTime === undefined && this.lastHeaderRaw !== undefined) {
      const t = parseJournalLine(this.lastHeaderRaw, this.lastHeaderLine, this.referenceTime)?.time;
      if (t !== undefined) journal.lastTime = t;
    }
    return journal;
  }
}
