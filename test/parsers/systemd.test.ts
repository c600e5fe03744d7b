import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFailedUnits, parseUnitStatus } from '../../src/parsers/systemd.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');

const LIST_FILE = 'log-bundle-20261122111800/failed-units.txt';
const STATUS_FILE = 'log-bundle-20261122111800/unit-status/bootkube.service.txt';
const REF = Date.UTC(2026, 10, 22, 11, 18, 0);

describe('parseFailedUnits', () => {
  it('reads the POSIX table with its legend and count', () => {
    const { value, problems } = parseFailedUnits(fixture('systemd-failed-units-posix.txt'), { file: LIST_FILE });
    expect(problems).toEqual([]);
    expect(value).toEqual([
      { unit: 'bootkube.service', load: 'loaded', active: 'failed', sub: 'failed', description: 'Bootstrap a Kubernetes cluster', source: { file: LIST_FILE, line: 2 } },
      {
        unit: 'release-image-pivot.service',
        load: 'loaded',
        active: 'failed',
        sub: 'failed',
        description: 'Pivot bootstrap to the OpenShift Release Image',
        source: { file: LIST_FILE, line: 3 },
      },
      { unit: 'systemd-sysctl.service', load: 'not-found', active: 'failed', sub: 'failed', description: 'systemd-sysctl.service', source: { file: LIST_FILE, line: 4 } },
    ]);
  });

  it('reads the UTF-8 form with ● markers and CRLF', () => {
    const text = [
      '  UNIT              LOAD   ACTIVE SUB    DESCRIPTION',
      '● crio.service      loaded failed failed Container Runtime Interface for OCI (CRI-O)',
      '● kubelet.service   loaded failed failed Kubernetes Kubelet',
      '',
      'LOAD   = Reflects whether the unit definition was properly loaded.',
      '2 loaded units listed.',
    ].join('\r\n');
    const { value, problems } = parseFailedUnits(text, { file: LIST_FILE });
    expect(problems).toEqual([]);
    expect(value.map((u) => [u.unit, u.description, u.source.line])).toEqual([
      ['crio.service', 'Container Runtime Interface for OCI (CRI-O)', 2],
      ['kubelet.service', 'Kubernetes Kubelet', 3],
    ]);
  });

  it('reads the newer Legend: form', () => {
    const text = [
      '  UNIT             LOAD   ACTIVE SUB    DESCRIPTION',
      '* bootkube.service loaded failed failed Bootstrap a Kubernetes cluster',
      '',
      'Legend: LOAD   -> Reflects whether the unit definition was properly loaded.',
      '        ACTIVE -> The high-level unit activation state, i.e. generalization of SUB.',
      '        SUB    -> The low-level unit activation state, values depend on unit type.',
      '',
      '1 loaded units listed.',
    ].join('\n');
    expect(parseFailedUnits(text, { file: LIST_FILE }).value.map((u) => u.unit)).toEqual(['bootkube.service']);
  });

  it('reads "0 loaded units listed." as no failed unit, without a problem', () => {
    const text = '  UNIT LOAD ACTIVE SUB DESCRIPTION\n0 loaded units listed. Pass --all to see loaded but inactive units, too.\nTo show all installed unit files use \'systemctl list-unit-files\'.\n';
    expect(parseFailedUnits(text, { file: LIST_FILE })).toEqual({ value: [], problems: [] });
    expect(parseFailedUnits('0 loaded units listed.\n', { file: LIST_FILE })).toEqual({ value: [], problems: [] });
  });

  it('reads marked rows without a header (--no-legend) and a row without a description', () => {
    const { value, problems } = parseFailedUnits('* bootkube.service loaded failed failed\n', { file: LIST_FILE });
    expect(problems).toEqual([]);
    expect(value).toEqual([{ unit: 'bootkube.service', load: 'loaded', active: 'failed', sub: 'failed', source: { file: LIST_FILE, line: 1 } }]);
  });

  it('reports a row with missing columns at its line, keeps the rest', () => {
    const text = '  UNIT LOAD ACTIVE SUB DESCRIPTION\n* bootkube.service loaded\n* crio.service loaded failed failed CRI-O\n\n2 loaded units listed.\n';
    const { value, problems } = parseFailedUnits(text, { file: LIST_FILE });
    expect(value.map((u) => u.unit)).toEqual(['crio.service']);
    expect(problems).toEqual([{ kind: 'unparseable', message: 'not a unit row: * bootkube.service loaded', line: 2 }]);
  });

  it('reports error text and empty files', () => {
    expect(parseFailedUnits('System has not been booted with systemd as init system (PID 1). Can\'t operate.\nFailed to connect to bus: Host is down\n', { file: LIST_FILE })).toEqual({
      value: [],
      problems: [{ kind: 'unparseable', message: "not systemctl list-units output: System has not been booted with systemd as init system (PID 1). Can't operate.", line: 1 }],
    });
    expect(parseFailedUnits('', { file: LIST_FILE })).toEqual({ value: [], problems: [{ kind: 'empty', message: 'failed-units output is empty' }] });
  });
});

describe('parseUnitStatus', () => {
  it('reads the header of a failed unit field by field', () => {
    const { value, problems } = parseUnitStatus(fixture('systemd-status-bootkube.txt'), { file: STATUS_FILE }, 'bootkube.service', REF);
    expect(problems).toEqual([]);
    expect(value.unit).toBe('bootkube.service');
    expect(value.source).toEqual({ file: STATUS_FILE });
    expect(value.description).toBe('Bootstrap a Kubernetes cluster');
    expect(value.loaded).toBe('loaded (/etc/systemd/system/bootkube.service; static)');
    expect(value.active).toBe('failed (Result: exit-code) since Sun 2026-11-22 11:16:02 UTC; 2min 1s ago');
    expect(value.activeState).toBe('failed');
    expect(value.result).toBe('exit-code');
    expect(value.since).toBe(Date.UTC(2026, 10, 22, 11, 16, 2));
    expect(value.mainPid).toBe(2507);
    expect(value.exitStatus).toBe('1/FAILURE');
  });

  it('reads the journal lines below the header through the journal line parser', () => {
    const { value } = parseUnitStatus(fixture('systemd-status-bootkube.txt'), { file: STATUS_FILE }, 'bootkube.service', REF);
    expect(value.journal).toHaveLength(5);
    const [first, second, , , last] = value.journal;
    expect(first.line).toBe(9);
    expect(first.identifier).toBe('bootkube.sh');
    expect(first.pid).toBe(2507);
    expect(first.hostname).toBe('bootstrap.ocp4.example.com');
    expect(first.time).toBe(Date.UTC(2026, 10, 22, 11, 15, 56));
    expect(first.continuation).toEqual(['"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}']);
    expect(second).toMatchObject({ line: 11, text: 'etcdctl failed. Retrying in 5 seconds...' });
    expect(last).toMatchObject({ line: 14, identifier: 'systemd', pid: 1, text: 'bootkube.service: Consumed 1min 12.340s CPU time.' });
  });

  it('reads the older ● form of an auto-restarting unit', () => {
    const text = [
      '● bootkube.service - Bootstrap a Kubernetes cluster',
      '   Loaded: loaded (/etc/systemd/system/bootkube.service; static; vendor preset: disabled)',
      '   Active: activating (auto-restart) (Result: exit-code) since Sun 2026-11-22 11:16:07 UTC; 3s ago',
      '  Process: 2507 ExecStart=/usr/local/bin/bootkube.sh (code=exited, status=1/FAILURE)',
      ' Main PID: 2507 (code=exited, status=1/FAILURE)',
      '',
      'Nov 22 11:16:07 bootstrap systemd[1]: bootkube.service: Service RestartSec=5s expired, scheduling restart.',
    ].join('\r\n');
    const { value } = parseUnitStatus(text, { file: STATUS_FILE }, 'bootkube.service', REF);
    expect(value.activeState).toBe('activating');
    expect(value.result).toBe('exit-code');
    expect(value.loaded).toBe('loaded (/etc/systemd/system/bootkube.service; static; vendor preset: disabled)');
    expect(value.since).toBe(Date.UTC(2026, 10, 22, 11, 16, 7));
    expect(value.journal.map((j) => j.line)).toEqual([7]);
  });

  it('takes the exit status from a failed ExecStartPre when there is no main process', () => {
    const text = [
      '× release-image.service - Download the OpenShift Release Image',
      '     Loaded: loaded (/etc/systemd/system/release-image.service; static)',
      '     Active: failed (Result: exit-code) since Sun 2026-11-22 10:14:00 +0100; 1h ago',
      '    Process: 1822 ExecStartPre=/usr/local/bin/release-image-download.sh (code=exited, status=125)',
      '        CPU: 312ms',
    ].join('\n');
    const { value } = parseUnitStatus(text, { file: STATUS_FILE }, 'release-image.service', REF);
    expect(value.mainPid).toBeUndefined();
    expect(value.exitStatus).toBe('125');
    expect(value.since).toBe(Date.UTC(2026, 10, 22, 9, 14, 0));
    expect(value.journal).toEqual([]);
  });

  it('reads a running unit with a CGroup tree and a killed main process of another', () => {
    const running = [
      '● kubelet.service - Kubernetes Kubelet',
      '     Loaded: loaded (/etc/systemd/system/kubelet.service; enabled; preset: disabled)',
      '     Active: active (running) since Sun 2026-11-22 10:15:10 CET; 1h ago',
      '   Main PID: 2519 (kubelet)',
      '      Tasks: 18 (limit: 100352)',
      '     CGroup: /system.slice/kubelet.service',
      '             └─2519 /usr/bin/kubelet --config=/etc/kubernetes/kubelet.conf',
    ].join('\n');
    const r = parseUnitStatus(running, { file: STATUS_FILE }, 'kubelet.service', REF).value;
    expect(r).toMatchObject({ activeState: 'active', mainPid: 2519, description: 'Kubernetes Kubelet' });
    expect(r.exitStatus).toBeUndefined();
    expect(r.result).toBeUndefined();
    // CET cannot be resolved without tz data of the host.
    expect(r.since).toBeUndefined();

    const killed = '× crio.service - CRI-O\n     Active: failed (Result: signal) since Sun 2026-11-22 10:15:10 UTC; 1h ago\n   Main PID: 1700 (code=killed, signal=KILL)\n';
    const k = parseUnitStatus(killed, { file: STATUS_FILE }, 'crio.service', REF).value;
    expect(k).toMatchObject({ result: 'signal', mainPid: 1700 });
    expect(k.exitStatus).toBeUndefined();
  });

  it('skips hints and keeps lines before the title out', () => {
    const text = [
      'Warning: The unit file, source configuration file or drop-ins of bootkube.service changed on disk.',
      '× bootkube.service - Bootstrap a Kubernetes cluster',
      '     Active: failed (Result: exit-code) since Sun 2026-11-22 11:16:02 UTC; 2min ago',
      '',
      'Nov 22 11:16:02 bootstrap systemd[1]: bootkube.service: Failed with result \'exit-code\'.',
      'Hint: Some lines were ellipsized, use -l to show in full.',
    ].join('\n');
    const { value } = parseUnitStatus(text, { file: STATUS_FILE }, 'bootkube.service', REF);
    expect(value.activeState).toBe('failed');
    expect(value.journal).toHaveLength(1);
    expect(value.journal[0].continuation).toBeUndefined();
  });

  it('reports "could not be found" and empty output', () => {
    expect(parseUnitStatus('Unit bootkube.service could not be found.\n', { file: STATUS_FILE }, 'bootkube.service')).toEqual({
      value: { unit: 'bootkube.service', source: { file: STATUS_FILE }, journal: [] },
      problems: [{ kind: 'unparseable', message: 'not systemctl status output: Unit bootkube.service could not be found.', line: 1 }],
    });
    expect(parseUnitStatus('', { file: STATUS_FILE }, 'bootkube.service').problems).toEqual([{ kind: 'empty', message: 'unit status output is empty' }]);
  });
});
