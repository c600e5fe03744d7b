// systemd's own words: unit descriptions, the lines it logs about a unit (in the style of the
// release's systemd: 239 on RHEL 8 hosts, 252 on RHEL 9), `systemctl list-units --state=failed`
// and `systemctl status --full` text.
import type { Journal } from './journal.js';
import { systemdLong, systemdSpan, type Micros } from './time.js';

export const DESCRIPTIONS: Record<string, string> = {
  'release-image': 'Download the OpenShift Release Image',
  'release-image-pivot': 'Pivot bootstrap to the OpenShift Release Image',
  'crio-configure': 'Configure CRI-O to use the pause image',
  crio: 'Container Runtime Interface for OCI (CRI-O)',
  kubelet: 'Kubernetes Kubelet',
  bootkube: 'Bootstrap a Kubernetes cluster',
  'approve-csr': 'Approve CSRs during bootstrap phase',
  progress: 'Report the completion of the cluster bootstrap process',
  ironic: 'Baremetal Deployment Ironic Services',
  'master-bmh-update': 'Update master BareMetalHosts with introspection data',
  'machine-config-daemon-host': 'Machine Config Daemon Initial',
  'machine-config-daemon-firstboot': 'Machine Config Daemon Firstboot',
  'machine-config-daemon-pull': 'Machine Config Daemon Pull',
  'node-valid-hostname': 'Wait for a non-localhost hostname',
  'ovs-configuration': 'Configures OVS with proper host networking configuration',
};

/** systemd 252 names the unit before its description; 239 does not. */
export class Systemd {
  constructor(readonly modern: boolean) {}

  private label(unit: string): string {
    const d = DESCRIPTIONS[unit] ?? unit;
    return this.modern ? `${unit}.service - ${d}` : d;
  }

  starting(j: Journal, t: Micros, unit: string): void {
    j.add(t, 'systemd', `Starting ${this.label(unit)}...`, 1);
  }

  started(j: Journal, t: Micros, unit: string): void {
    j.add(t, 'systemd', `Started ${this.label(unit)}.`, 1);
  }

  /** A oneshot unit finished (systemd 252: `Finished`; 239: `Started`). */
  finished(j: Journal, t: Micros, unit: string): void {
    j.add(t, 'systemd', this.modern ? `Finished ${this.label(unit)}.` : `Started ${this.label(unit)}.`, 1);
  }

  succeeded(j: Journal, t: Micros, unit: string, cpu?: string): void {
    j.add(t, 'systemd', this.modern ? `${unit}.service: Deactivated successfully.` : `${unit}.service: Succeeded.`, 1);
    if (this.modern && cpu) j.add(t, 'systemd', `${unit}.service: Consumed ${cpu} CPU time.`, 1);
  }

  /** Main process exited non-zero, unit failed; with Restart=, systemd schedules a restart. */
  failed(j: Journal, t: Micros, unit: string, status: number, opts: { restart?: boolean; counter?: number; cpu?: string; control?: boolean } = {}): void {
    const statusText = status === 1 ? '1/FAILURE' : status === 125 ? '125/n/a' : status === 137 ? '137/n/a' : `${status}/n/a`;
    j.add(t, 'systemd', `${unit}.service: ${opts.control ? 'Control' : 'Main'} process exited, code=exited, status=${statusText}`, 1);
    j.add(t, 'systemd', `${unit}.service: Failed with result 'exit-code'.`, 1);
    if (this.modern && opts.cpu) j.add(t, 'systemd', `${unit}.service: Consumed ${opts.cpu} CPU time.`, 1);
    if (opts.restart) {
      const at = t + 5_000_000;
      j.add(at, 'systemd', `${unit}.service: Scheduled restart job, restart counter is at ${opts.counter ?? 1}.`, 1);
      if (this.modern) j.add(at, 'systemd', `Stopped ${this.label(unit)}.`, 1);
    }
  }

  /** A unit that never started because a required one failed. */
  dependencyFailed(j: Journal, t: Micros, unit: string): void {
    j.add(t, 'systemd', `Dependency failed for ${this.label(unit)}.`, 1);
    j.add(t, 'systemd', `${unit}.service: Job ${unit}.service/start failed with result 'dependency'.`, 1);
  }
}

/** `LANG=POSIX systemctl list-units --state=failed`. */
export function failedUnitsText(units: { unit: string; description: string }[]): string {
  if (units.length === 0) {
    return '  UNIT LOAD ACTIVE SUB DESCRIPTION\n0 loaded units listed.\n';
  }
  const names = units.map((u) => `${u.unit}.service`);
  const w = Math.max(4, ...names.map((n) => n.length));
  const lines = ['  ' + 'UNIT'.padEnd(w) + ' LOAD   ACTIVE SUB    DESCRIPTION'];
  units.forEach((u, i) => lines.push(`* ${names[i].padEnd(w)} loaded failed failed ${u.description}`));
  lines.push('');
  lines.push('LOAD   = Reflects whether the unit definition was properly loaded.');
  lines.push('ACTIVE = The high-level unit activation state, i.e. generalization of SUB.');
  lines.push('SUB    = The low-level unit activation state, values depend on unit type.');
  lines.push(`${units.length} loaded unit${units.length === 1 ? '' : 's'} listed.`);
  return `${lines.join('\n')}\n`;
}

/** `systemctl status --full <unit>` of a failed unit, with its last journal lines. */
export function statusText(opts: {
  modern: boolean;
  unit: string;
  path: string;
  since: Micros;
  now: Micros;
  pid: number;
  exec: string;
  status: number;
  cpu: string;
  tail: string[];
  enabled?: string;
}): string {
  const d = DESCRIPTIONS[opts.unit] ?? opts.unit;
  const statusText = opts.status === 1 ? '1/FAILURE' : `${opts.status}/n/a`;
  const bullet = opts.modern ? '×' : '●';
  const lines = [
    `${bullet} ${opts.unit}.service - ${d}`,
    `     Loaded: loaded (${opts.path}; ${opts.enabled ?? 'static'})`,
    `     Active: failed (Result: exit-code) since ${systemdLong(opts.since)}; ${systemdSpan(opts.now - opts.since)} ago`,
    `    Process: ${opts.pid} ExecStart=${opts.exec} (code=exited, status=${statusText})`,
    `   Main PID: ${opts.pid} (code=exited, status=${statusText})`,
  ];
  if (opts.modern) lines.push(`        CPU: ${opts.cpu}`);
  lines.push('');
  lines.push(...opts.tail);
  return `${lines.join('\n')}\n`;
}
