// Certificates against the log's own clock: rendered-asset certificates whose NotAfter lies
// before the bootstrap host's last log line (expired during the install) or whose NotBefore
// lies after its first one (the host clock was behind), and x509 errors whose "current time"
// disagrees with the timestamp of the very line that prints it.
import type { Bundle } from '../../model/types.js';
import type { StageId } from '../../taxonomy.js';
import type { Evidence } from '../../result/types.js';
import { defineRule, keepMatches } from '../define-rule.js';
import type { RuleSource } from '../sources.js';
import type { Finding } from '../types.js';
import { maxOf, minOf } from '../../util/arrays.js';

const ID = 'certificate-validity';
const X509 = 'x509: certificate has expired or is not yet valid';
// Go's crypto/x509: `current time 2026-11-23T10:00:00Z is after 2026-11-22T09:00:00Z`.
const CURRENT_TIME = /current time (\S+) is (after|before) (\S+)/;
const SKEW_MS = 10 * 60_000;
/** The logs whose x509 errors are read. */
const LOGS: RuleSource[] = [{ journal: '*' }, { container: '*' }, { log: 'serial' }];

function iso(t: number): string {
  return new Date(t).toISOString().replace(/\.000Z$/, 'Z');
}

/** The bootstrap host's clock range: first and last time across its journals. */
function logClock(bundle: Bundle): { first?: number; last?: number } {
  const journals = Object.values(bundle.bootstrap?.journals ?? {});
  const firsts = journals.map((j) => j.firstTime).filter((t): t is number => t !== undefined);
  const lasts = journals.map((j) => j.lastTime).filter((t): t is number => t !== undefined);
  return { first: firsts.length ? minOf(firsts) : undefined, last: lasts.length ? maxOf(lasts) : undefined };
}

function stageForSubject(subject: string): StageId {
  if (/machine-config-server|api-int|kubelet|node-bootstrapper/i.test(subject)) return 'masters-provision';
  if (/etcd/i.test(subject)) return 'bootstrap-etcd';
  return 'bootstrap-control-plane';
}


export const certificateValidity = defineRule({
  meta: {
    id: ID,
    title: 'Certificates expired or not yet valid by the hosts’ own clocks',
    stage: 'bootstrap-control-plane',
    category: 'certificate-expired',
    severity: 'error',
    confidence: 'high',
    description:
      'Compares certificate validity with the time the logs themselves show. The bootstrap certificates (kubelet bootstrap, machine-config-server) live 24 hours: ignition configs older than that give expired certificates. A NotBefore after the first log line, or an x509 error whose "current time" is far from the log line\'s own timestamp, means a host clock is wrong rather than a certificate.',
    fix: [
      'If certificates expired: regenerate the ignition configs (`openshift-install create ignition-configs` in a fresh folder) and reinstall within 24 hours of creating them.',
      'If a clock is wrong: check time sync on the hosts (`chronyc sources -v`, `timedatectl`) and the NTP servers reachable from the machine network; fix the BMC/hypervisor clock for bare metal.',
      'Compare `date -u` on the bootstrap host and the masters with a reference clock.',
    ],
    references: [
      'https://docs.openshift.com/container-platform/4.14/installing/installing_bare_metal/installing-bare-metal.html#installation-user-infra-generate-k8s-manifest-ignition_installing-bare-metal',
      'https://pkg.go.dev/crypto/x509#CertificateInvalidError',
    ],
  },
  inputs: [{ rendered: 'certificates' }, ...LOGS],
  keep: [{ name: 'x509', literals: [X509], sources: LOGS }],
  check(ctx) {
    const b = ctx.bundle;
    const certs = b.renderedAssets?.certificates ?? [];
    const lines = keepMatches(b, ID, 'x509');
    const findings: Finding[] = [];
    const clock = logClock(b);
    if (clock.last !== undefined) {
      const expired = certs.filter((c) => c.notAfter < (clock.last as number));
      if (expired.length > 0) {
        findings.push(
          ctx.finding({
            message: `${expired.length} rendered certificate(s) expired before the bootstrap host's last log line (${iso(clock.last)}): ${expired.map((c) => `${c.subject} until ${iso(c.notAfter)}`).slice(0, 3).join('; ')}`,
            evidence: expired.slice(0, 4).map((c) => ({ file: c.source.file, text: `subject ${c.subject}; NotAfter ${iso(c.notAfter)}; last log ${iso(clock.last as number)}` })),
            stage: stageForSubject(expired[0].subject),
          }),
        );
      }
    }
    if (clock.first !== undefined) {
      const future = certs.filter((c) => c.notBefore > (clock.first as number) + SKEW_MS);
      if (future.length > 0) {
        findings.push(
          ctx.finding({
            title: 'The bootstrap host clock was behind: certificates not yet valid',
            message: `${future.length} certificate(s) only become valid after the bootstrap host's first log line (${iso(clock.first)}): ${future.map((c) => `${c.subject} from ${iso(c.notBefore)}`).slice(0, 3).join('; ')}`,
            evidence: future.slice(0, 4).map((c) => ({ file: c.source.file, text: `subject ${c.subject}; NotBefore ${iso(c.notBefore)}; first log ${iso(clock.first as number)}` })),
            category: 'clock-skew',
            stage: stageForSubject(future[0].subject),
          }),
        );
      }
    }
    const expiredLines: Evidence[] = [];
    const skewLines: Evidence[] = [];
    for (const { log, line, host } of lines) {
      const m = CURRENT_TIME.exec(line.text);
      const e: Evidence = { file: log.source.file, line: line.line, text: line.raw ?? line.text, host };
      if (line.time !== undefined) e.time = line.time;
      if (!m) {
        expiredLines.push(e);
        continue;
      }
      const current = Date.parse(m[1]);
      if (line.time !== undefined && Number.isFinite(current) && Math.abs(current - line.time) > SKEW_MS) skewLines.push(e);
      else if (m[2] === 'before') skewLines.push(e);
      else expiredLines.push(e);
    }
    const stageOf = (ev: Evidence[]): StageId => (ev.some((e) => e.host !== 'bootstrap') ? 'masters-provision' : 'bootstrap-control-plane');
    if (expiredLines.length > 0) {
      findings.push(
        ctx.finding({
          title: 'x509: certificate has expired (by the host clock)',
          message: `${expiredLines.length} log line(s) report an expired certificate while the host clock agrees with the log's own time`,
          evidence: [expiredLines[0], ...expiredLines.slice(1).slice(-2)],
          stage: stageOf(expiredLines),
        }),
      );
    }
    if (skewLines.length > 0) {
      findings.push(
        ctx.finding({
          title: 'x509 "not yet valid" or a clock far from the log time: clock skew',
          message: `${skewLines.length} x509 error(s) where the process's current time disagrees with the log timestamp or precedes the certificate`,
          evidence: [skewLines[0], ...skewLines.slice(1).slice(-2)],
          category: 'clock-skew',
          stage: stageOf(skewLines),
        }),
      );
    }
    return findings;
  },
});
