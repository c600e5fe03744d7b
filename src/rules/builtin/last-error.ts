// Generic reasoning where no specific rule fires: the last error a unit, container or service
// printed before it failed or while it never finished names the stage (from where it was
// printed: specs/source-stage.ts) and the category (from what it says: signatures.ts), the way a
// support engineer reads a bundle at a glance. Low confidence: a specific rule outranks it.
import type { Bundle, Container, Host, Journal, JournalLine, LogLine, LogSummary } from '../../model/types.js';
import { bundleHosts, bundleLogs, hostName, hostSelector, logHost } from '../../model/walk.js';
import { sourceName } from '../../model/source-id.js';
import { FATAL_LEVELS, statedLevel as levelOf } from '../../parsers/line-level.js';
import { bootkubeMarker, bootkubeRecordStage, categoryOfSource, RELEASE_IMAGE_SERVICES, sourceOfJournalLine, stageOfLine, stageOfNamespace, stageOfSource } from '../../specs/source-stage.js';
import type { StageId } from '../../taxonomy.js';
import type { Evidence } from '../../result/types.js';
import { defineRule } from '../define-rule.js';
import type { LineOrigin, Reading } from '../../catalogue/classify.js';
import { categoryNamed, namesCause } from '../read-message.js';
import { failureReading, isErrorLike } from '../error-like.js';
import type { Finding, FindingInit, RuleContext } from '../types.js';
import { pushAll } from '../../util/arrays.js';

export const LAST_ERROR_ID = 'last-error';

/** Units that run once and end; one that never ended did not finish its work. */
const ONESHOT = new Set([
  'release-image',
  'release-image-pivot',
  'node-image-pull',
  'bootstrap-pivot',
  'bootkube',
  'crio-configure',
  'machine-config-daemon-firstboot',
  'machine-config-daemon-pull',
  'ignition',
  'ignition-fetch',
  'pivot',
  'crio-wipe',
]);

/** The lines the reader kept of a log, in order, once each (head, matches, tail, systemd's). */
function keptLines(log: LogSummary): LogLine[] {
  const byLine = new Map<number, LogLine>();
  for (const l of log.head) byLine.set(l.line, l);
  for (const m of log.matched) byLine.set(m.entry.line, m.entry);
  for (const l of log.tail) byLine.set(l.line, l);
  if ('systemdLines' in log) for (const l of (log as Journal).systemdLines) byLine.set(l.line, l);
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

type UnitState = 'failed' | 'unfinished' | 'running';

/** Each bundle's hosts by role and address, made once: a search of all hosts per log was quadratic (20 000 master folders: a minute). */
const hostsByKey = new WeakMap<Bundle, Map<string, Host>>();

function hostOfLog(bundle: Bundle, log: LogSummary): Host | undefined {
  const h = log.sourceId.host;
  if (!h) return undefined;
  let byKey = hostsByKey.get(bundle);
  if (!byKey) {
    byKey = new Map();
    for (const x of bundleHosts(bundle)) {
      const key = x.role === 'bootstrap' ? 'bootstrap' : `master/${x.address}`;
      if (!byKey.has(key)) byKey.set(key, x);
    }
    hostsByKey.set(bundle, byKey);
  }
  return byKey.get(h.role === 'bootstrap' ? 'bootstrap' : `master/${h.address}`);
}

/** Each host's containers by their log, made once per host: a search per log was quadratic (100 000 empty container logs: minutes). */
const containersByLog = new WeakMap<Host, Map<LogSummary, Container>>();

function containerOfLog(host: Host, log: LogSummary): Container | undefined {
  let byLog = containersByLog.get(host);
  if (!byLog) {
    byLog = new Map();
    for (const c of host.containers) if (c.log && !byLog.has(c.log)) byLog.set(c.log, c);
    containersByLog.set(host, byLog);
  }
  return byLog.get(log);
}

/** How the log's unit or container ended, as far as the bundle tells. */
function stateOf(bundle: Bundle, log: LogSummary): UnitState {
  const name = sourceName(log.sourceId);
  const host = hostOfLog(bundle, log);
  if (log.sourceId.kind === 'journal' || log.sourceId.kind === 'unit-status-journal') {
    const outcome = (log as Journal).outcome;
    if (outcome?.status === 'failed') return 'failed';
    if (host?.failedUnits.some((u) => u.unit.replace(/\.service$/, '') === name)) return 'failed';
    const status = host?.unitStatus[name];
    if (status?.activeState === 'failed' || /^failed/.test(status?.active ?? '')) return 'failed';
    // `activating (start) since ... 17h ago`: a start that never ended.
    if (status?.activeState === 'activating' || /^activating/.test(status?.active ?? '')) return 'unfinished';
    if (outcome?.status === 'ok') return 'running';
    if (ONESHOT.has(name)) return name === 'bootkube' && bundle.bootstrap && completedBootkube(log) ? 'running' : 'unfinished';
    return 'running';
  }
  if (log.sourceId.kind === 'container' && host) {
    const c = containerOfLog(host, log);
    if (c && c.exitCode !== undefined && c.exitCode !== 0) return 'failed';
    if (c?.state === 'exited' && c.exitCode === undefined) return 'failed';
  }
  return 'running';
}

/** `systemctl status` says the unit is still starting (`activating (start) since ...`). */
function stuckStarting(bundle: Bundle, log: LogSummary): boolean {
  const status = hostOfLog(bundle, log)?.unitStatus[sourceName(log.sourceId)];
  return status?.activeState === 'activating' || /^activating/.test(status?.active ?? '');
}

function completedBootkube(log: LogSummary): boolean {
  return [...log.tail, ...log.matched.map((m) => m.entry)].some((l) => l.text.includes('bootkube.service complete'));
}

/** Errors the cause is looked for among: a log's last ones. */
const RECENT_ERRORS = 20;

/** The last bootkube marker before each line: the stage bootkube.sh was in when it printed it. */
function markersBefore(lines: readonly LogLine[]): (StageId | undefined)[] {
  const out: (StageId | undefined)[] = [];
  let previous: StageId | undefined;
  for (const l of lines) {
    out.push(previous);
    previous = bootkubeMarker(l.text) ?? previous;
  }
  return out;
}

/** Where a log's lines were printed, for the catalogue's entries that hold only somewhere. */
function originOf(log: LogSummary): LineOrigin {
  const host = log.sourceId.host?.role;
  return { ...(host ? { host } : {}), source: sourceName(log.sourceId) };
}

interface ErrorLine {
  line: LogLine;
  reading?: Reading;
  stage?: StageId;
}

/** The error a log's last words were: the latest error-like line with a named cause, else the latest. */
function lastError(ctx: RuleContext, lines: LogLine[], log: LogSummary): (ErrorLine & { lastWords: boolean }) | undefined {
  const markers = log.sourceId.unit === 'bootkube' ? markersBefore(lines) : undefined;
  const where = originOf(log);
  const read = (text: string): Reading | undefined => ctx.read(text, where);
  // The cause is usually among the last errors: read from the end, as far as the last few.
  const recent: ErrorLine[] = [];
  for (let i = lines.length - 1; i >= 0 && recent.length < RECENT_ERRORS; i--) {
    const l = lines[i];
    const text = l.text;
    const identifier = (l as JournalLine).identifier;
    // systemd's own lines say how the unit ended (its state), not why.
    if (identifier === 'systemd' || !isErrorLike(text, read)) continue;
    const reading = read(text);
    // A message every healthy install prints is never a cause, whatever its words.
    if (reading && (reading.role === 'benign' || reading.role === 'success')) continue;
    const from = sourceOfJournalLine(log.sourceId, identifier);
    const stage = stageOfLine(from, text, from.unit === 'bootkube' ? markers?.[i] : undefined);
    const e: ErrorLine = { line: l };
    if (reading) e.reading = reading;
    if (stage) e.stage = stage;
    recent.push(e);
  }
  if (recent.length === 0) return undefined;
  // Latest first: the latest one whose words name a cause, else one naming any category, else
  // the very last.
  const pick = recent.find((e) => namesCause(e.reading)) ?? recent.find((e) => e.reading && e.reading.category !== 'unknown') ?? recent[0];
  const lastLine = log.lineCount;
  return { ...pick, lastWords: lastLine - pick.line.line < 5 };
}

function evidenceOf(log: LogSummary, l: LogLine, host: string | undefined): Evidence {
  const e: Evidence = { file: log.source.file, line: l.line, text: l.raw ?? l.text };
  if (l.time !== undefined) e.time = l.time;
  if (host) e.host = host;
  return e;
}

function describe(log: LogSummary, state: UnitState, lastWords: boolean): string {
  const what = log.sourceId.kind === 'container' ? `container ${sourceName(log.sourceId)}` : log.sourceId.kind === 'serial' ? `the serial console of ${sourceName(log.sourceId)}` : `${sourceName(log.sourceId)}`;
  const where = log.sourceId.host ? ` on ${logHost(log)}` : '';
  const how = state === 'failed' ? 'failed' : state === 'unfinished' ? 'never finished' : lastWords ? 'stopped on an error' : 'logged an error';
  return `${what}${where} ${how}`;
}

/** The generic finding of one log, if its last words were an error. */
function fromLog(ctx: RuleContext, log: LogSummary): Finding | undefined {
  const base = stageOfSource(log.sourceId);
  const lines = keptLines(log);
  const state = stateOf(ctx.bundle, log);
  const err = lastError(ctx, lines, log);
  // Without an error line only systemd's own word that a start never ended is evidence.
  if (!err) return stuckStarting(ctx.bundle, log) ? unfinished(ctx, log, lines) : undefined;
  const stage = err.stage ?? base;
  if (!stage) return undefined;
  const level = levelOf(err.line.text);
  // A unit that failed or never finished, or a fatal line, decides; an error a running unit
  // logged is a lead only (long-running units log errors all the time).
  const decisive = state !== 'running' || (level !== undefined && FATAL_LEVELS.has(level));
  const init: FindingInit = {
    title: `The last error of ${sourceName(log.sourceId)}`,
    message: `${describe(log, state, err.lastWords)}: ${err.line.text.trim()}`,
    evidence: [evidenceOf(log, err.line, log.sourceId.host ? logHost(log) : undefined)],
    stage,
    category: (err.reading?.category !== 'unknown' ? err.reading?.category : undefined) ?? categoryOfSource(log.sourceId) ?? 'unknown',
    severity: decisive ? 'error' : 'warning',
    captures: { source: sourceName(log.sourceId), ...(err.reading ? { signature: err.reading.decisive.entry.id } : {}) },
  };
  return ctx.finding(init);
}

/** A unit that started and never ended, with no error to quote: its last line is the lead. */
function unfinished(ctx: RuleContext, log: LogSummary, lines: LogLine[]): Finding | undefined {
  const stage = stageOfSource(log.sourceId);
  const last = [...lines].reverse().find((l) => l.text.trim() !== '' && !/^-- /.test(l.text));
  if (!stage || !last) return undefined;
  return ctx.finding({
    title: `The last error of ${sourceName(log.sourceId)}`,
    message: `${describe(log, 'unfinished', false)}; its last line: ${last.text.trim()}`,
    evidence: [evidenceOf(log, last, log.sourceId.host ? logHost(log) : undefined)],
    stage,
    category: categoryOfSource(log.sourceId) ?? 'unknown',
    severity: 'warning',
    captures: { source: sourceName(log.sourceId) },
  });
}

/** Warning events whose message names a cause: leads, one per namespace and reason. */
function fromEvents(ctx: RuleContext): Finding[] {
  const events = ctx.bundle.cluster?.events ?? [];
  const latest = new Map<string, (typeof events)[number]>();
  for (const e of events) {
    if (e.type !== 'Warning' || !e.message || !failureReading(ctx.read(`${e.reason ?? ''}: ${e.message}`))) continue;
    const key = `${e.namespace ?? ''}/${e.reason ?? ''}`;
    const seen = latest.get(key);
    if (!seen || (e.lastTime ?? 0) >= (seen.lastTime ?? 0)) latest.set(key, e);
  }
  return [...latest.values()].map((e) => {
    const text = `${e.reason ?? ''}: ${e.message ?? ''}`;
    const evidence: Evidence = { file: e.source.file, text: `${e.namespace ? `${e.namespace}/` : ''}${e.object ?? ''} ${text}${e.count > 1 ? ` (x${e.count})` : ''}`.trim() };
    if (e.lastTime !== undefined) evidence.time = e.lastTime;
    return ctx.finding({
      title: `A warning event in ${e.namespace ?? 'the cluster'}`,
      message: `${e.kind ?? 'an object'} ${e.object ?? ''} in ${e.namespace ?? 'the cluster'}: ${text}`.replace(/\s+/g, ' '),
      evidence: [evidence],
      stage: stageOfNamespace(e.namespace),
      category: categoryNamed(ctx, text),
      severity: 'warning',
      captures: { source: 'events' },
    });
  });
}

/** Pods the API reports crash-looping or unable to start: leads, one per namespace. */
function fromPods(ctx: RuleContext): Finding[] {
  const byNamespace = new Map<string, { text: string; file: string; host?: string }>();
  for (const p of ctx.bundle.cluster?.pods ?? []) {
    for (const c of p.containers) {
      const reason = c.waitingReason ?? (c.lastTerminatedReason && c.restartCount > 0 ? c.lastTerminatedReason : undefined);
      if (!reason || !/CrashLoopBackOff|ErrImagePull|ImagePullBackOff|CreateContainerError|CreateContainerConfigError|RunContainerError|InvalidImageName|OOMKilled|Error/.test(reason)) continue;
      const text = `${p.namespace}/${p.name}${c.name ? ` ${c.name}` : ''} ${reason}${c.waitingMessage ? `: ${c.waitingMessage}` : ''}${c.restartCount ? ` (${c.restartCount} restarts)` : ''}`;
      // The pod whose words name a cause wins; else the first.
      const seen = byNamespace.get(p.namespace);
      if (!seen || (!failureReading(ctx.read(seen.text)) && failureReading(ctx.read(text)))) byNamespace.set(p.namespace, { text, file: p.source.file, ...(p.node ? { host: p.node } : {}) });
    }
  }
  return [...byNamespace.entries()].map(([namespace, pod]) =>
    ctx.finding({
      title: `Pods failing in ${namespace}`,
      message: pod.text,
      evidence: [{ file: pod.file, text: pod.text, ...(pod.host ? { host: pod.host } : {}) }],
      stage: stageOfNamespace(namespace),
      category: categoryNamed(ctx, pod.text),
      severity: 'warning',
      captures: { source: 'pods' },
    }),
  );
}

/** Service records other than those a specific rule reads: a failed run's recorded error. */
function fromServiceRecords(ctx: RuleContext): Finding[] {
  const out: Finding[] = [];
  for (const h of bundleHosts(ctx.bundle)) {
    for (const [name, record] of Object.entries(h.serviceRecords)) {
      if (name === 'bootkube' || RELEASE_IMAGE_SERVICES.includes(name)) continue;
      const run = record.runs[record.runs.length - 1];
      const failed = run?.stages.find((s) => s.result === 'failure');
      if (!run || (run.result !== 'failure' && !failed)) continue;
      const message = (failed?.errorMessage ?? run.errorMessage ?? '').split('\n').filter((l) => l.trim());
      const last = [...message].reverse().find((l) => failureReading(ctx.read(l))) ?? message[message.length - 1];
      const stage = (failed && bootkubeRecordStage(failed.name, false)) ?? stageOfSource({ kind: 'journal', host: hostSelector(h), unit: name });
      if (!stage) continue;
      const ref = failed?.source ?? run.endSource ?? run.source;
      out.push(
        ctx.finding({
          title: `The last error of ${name}`,
          message: `${name} service on ${hostName(h)} failed${failed ? ` at ${failed.name}` : ''}${last ? `: ${last}` : ''}`,
          evidence: [{ file: ref.file, ...(ref.line !== undefined ? { line: ref.line } : {}), text: last ?? `${name} failed`, host: hostName(h) }],
          stage,
          category: last ? categoryNamed(ctx, last) : 'unknown',
          severity: 'error',
          captures: { source: name },
        }),
      );
    }
  }
  return out;
}

export const lastErrorRule = defineRule({
  meta: {
    id: LAST_ERROR_ID,
    title: 'The last error of a unit that failed or never finished',
    stage: 'render',
    category: 'unknown',
    severity: 'error',
    confidence: 'low',
    description:
      "No rule was written for every message. Where a unit, a container or a service failed, never finished, or stopped on an error, its last error line is what a support engineer reads first: the log it is in names the stage (the bootstrap units, render containers and static pods, the masters' units and containers each belong to one), and its words name the category (name resolution, refused connections, untrusted or expired certificates, a refused pull secret, a missing image, a full disk, an unknown flag...). Low confidence: a rule written for the message outranks it.",
    fix: [
      'Read the unit or container named in the finding around the quoted line: `journalctl -b -u <unit>` or `sudo crictl logs <container>` / `sudo podman logs <container>` on that host.',
      'Act on what the line says: a name that does not resolve (DNS), a port that refuses (firewall, load balancer), a certificate not trusted or expired, a pull secret refused, a missing image, a full disk.',
    ],
    references: [
      'https://github.com/openshift/installer/blob/master/docs/user/troubleshootingbootstrap.md',
      'https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/installer-gather.sh',
    ],
  },
  // Reads whatever the bundle holds (every log, service records, events, pods): never skipped.
  inputs: [],
  check(ctx) {
    const out: Finding[] = [];
    for (const log of bundleLogs(ctx.bundle)) {
      if (log.sourceId.kind === 'installer' || log.sourceId.kind === 'gather') continue;
      const f = fromLog(ctx, log);
      if (f) out.push(f);
    }
    pushAll(out, fromServiceRecords(ctx), fromEvents(ctx), fromPods(ctx));
    return out;
  },
});
