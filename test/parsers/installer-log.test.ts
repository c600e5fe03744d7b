import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createInstallerLogScanner, looksLikeInstallerOutput, parseLogfmtLine, type InstallerLogFacts } from '../../src/parsers/installer-log.js';
import type { LogLine } from '../../src/model/types.js';

function fixtureLines(name: string): string[] {
  const text = readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');
  return text.split('\n').filter((l, i, all) => !(i === all.length - 1 && l === ''));
}

function scanAll(lines: string[]): { entries: LogLine[]; facts: InstallerLogFacts } {
  const scanner = createInstallerLogScanner();
  const entries = lines.map((raw, i) => scanner.scan(raw, i + 1));
  return { entries, facts: scanner.facts() };
}

const utc = (h: number, m: number, s: number): number => Date.UTC(2026, 10, 22, h, m, s);

describe('parseLogfmtLine', () => {
  it('reads time, level and msg of a logrus line', () => {
    const r = parseLogfmtLine(
      'time="2026-11-22T10:15:04Z" level=info msg="Waiting up to 20m0s (until 10:35AM UTC) for the Kubernetes API at https://api.ocp.example.com:6443..."',
    );
    expect(r.time).toBe(utc(10, 15, 4));
    expect(r.level).toBe('info');
    expect(r.msg).toBe('Waiting up to 20m0s (until 10:35AM UTC) for the Kubernetes API at https://api.ocp.example.com:6443...');
    expect({ ...r.fields }).toEqual({
      time: '2026-11-22T10:15:04Z',
      level: 'info',
      msg: 'Waiting up to 20m0s (until 10:35AM UTC) for the Kubernetes API at https://api.ocp.example.com:6443...',
    });
  });

  it('reads the local-time offset older releases wrote', () => {
    expect(parseLogfmtLine('time="2026-11-22T10:15:04+01:00" level=debug msg="x"').time).toBe(utc(9, 15, 4));
    expect(parseLogfmtLine('time="2026-11-22T10:15:04-05:00" level=debug msg="x"').time).toBe(utc(15, 15, 4));
  });

  it('undoes Go string escapes', () => {
    const r = parseLogfmtLine(
      String.raw`level=error msg="a \"quoted\" word\nnext\tline \\ back \u00e9 \x41 \101 \U0001F600 \q"`,
    );
    expect(r.msg).toBe('a "quoted" word\nnext\tline \\ back é A A 😀 \\q');
  });

  it('keeps extra fields', () => {
    const r = parseLogfmtLine('time="2026-11-22T10:15:04Z" level=info msg="Adding NMConnection file <enp2s0.nmconnection>" pkg=manifests');
    expect(r.msg).toBe('Adding NMConnection file <enp2s0.nmconnection>');
    expect(r.fields.pkg).toBe('manifests');
  });

  it('joins the words of an unquoted msg, as CI tools re-print gather output', () => {
    const r = parseLogfmtLine('level=debug msg=Collecting info from 10.0.0.8');
    expect(r).toEqual({ level: 'debug', msg: 'Collecting info from 10.0.0.8', fields: expect.anything() as unknown });
    expect(r.time).toBeUndefined();
    expect(parseLogfmtLine('level=info msg=Done pkg=x').fields.pkg).toBe('x');
  });

  it('reads the console form users paste', () => {
    expect(parseLogfmtLine('INFO Waiting up to 40m0s for bootstrapping to complete... ')).toMatchObject({
      level: 'info',
      msg: 'Waiting up to 40m0s for bootstrapping to complete...',
    });
    expect(parseLogfmtLine('WARNING Found override for release image. Please be warned, this is not advised').level).toBe('warning');
    expect(parseLogfmtLine('WARN[0000] Found override').level).toBe('warning');
    expect(parseLogfmtLine('FATAL Bootstrap failed to complete').level).toBe('fatal');
  });

  it('returns other lines whole, without level or time', () => {
    const r = parseLogfmtLine('goroutine 1 [running]:');
    expect(r.msg).toBe('goroutine 1 [running]:');
    expect(r.level).toBeUndefined();
    expect(r.time).toBeUndefined();
    expect(Object.keys(r.fields)).toEqual([]);
    expect(parseLogfmtLine('').msg).toBe('');
    // `a=b` after the first word is text, not a pair.
    expect(parseLogfmtLine('exit status=1').msg).toBe('exit status=1');
  });

  it('tolerates an unterminated quote and a bad time', () => {
    const r = parseLogfmtLine('time="yesterday" level=ERROR msg="cut off');
    expect(r.msg).toBe('cut off');
    expect(r.level).toBe('error');
    expect(r.time).toBeUndefined();
    expect(r.fields.time).toBe('yesterday');
    expect(parseLogfmtLine(String.raw`msg="ends in \\"`).msg).toBe('ends in \\');
    // A line cut at the length limit inside an escape: the half escape is dropped, never shown.
    expect(parseLogfmtLine('msg="ends in \\').msg).toBe('ends in ');
    expect(parseLogfmtLine(String.raw`msg="cut in \u00`).msg).toBe('cut in ');
    expect(parseLogfmtLine(String.raw`msg="cut in \x4`).msg).toBe('cut in ');
    expect(parseLogfmtLine(String.raw`msg="cut in \10`).msg).toBe('cut in ');
    // Not cut: an unknown escape in the middle stays as written.
    expect(parseLogfmtLine(String.raw`msg="C:\user and \ufffz"`).msg).toBe(String.raw`C:\user and \ufffz`);
  });

  it('stores keys such as __proto__ as plain entries', () => {
    const r = parseLogfmtLine('__proto__=polluted constructor=x msg="hi" toString=y');
    expect(Object.getPrototypeOf(r.fields)).toBeNull();
    expect(Object.keys(r.fields)).toEqual(['__proto__', 'constructor', 'msg', 'toString']);
    expect(r.fields['__proto__']).toBe('polluted');
    expect(r.msg).toBe('hi');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.toString).toBe(Object.prototype.toString);
  });
});

describe('createInstallerLogScanner: bootstrap failed (4.14)', () => {
  const { entries, facts } = scanAll(fixtureLines('installer-bootstrap-failed.log'));

  it('returns each line with its time, level, message and raw text', () => {
    expect(entries).toHaveLength(34);
    expect(entries[13]).toEqual({
      line: 14,
      time: utc(9, 49, 30),
      level: 'info',
      text: 'Waiting up to 20m0s (until 10:09AM UTC) for the Kubernetes API at https://api.ocp.example.com:6443...',
      raw: 'time="2026-11-22T09:49:30Z" level=info msg="Waiting up to 20m0s (until 10:09AM UTC) for the Kubernetes API at https://api.ocp.example.com:6443..."',
    });
    expect(entries[14].text).toBe(
      'Still waiting for the Kubernetes API: Get "https://api.ocp.example.com:6443/version": dial tcp 10.0.0.10:6443: connect: connection refused',
    );
  });

  it('finds version and release image, not the commit', () => {
    expect(facts.version).toBe('4.14.3');
    expect(facts.releaseImage).toBe(
      'quay.io/openshift-release-dev/ocp-release@sha256:e73ab4b33a9c3ff00c9f800a38d69853ca0c4dfa5a88e3df331f66df8f18ec55',
    );
  });

  it('records every wait', () => {
    expect(facts.waits).toEqual([
      { what: 'the Kubernetes API at https://api.ocp.example.com:6443', timeout: '20m0s', line: 14, time: utc(9, 49, 30), phase: 'kubernetes-api' },
      { what: 'bootstrapping to complete', timeout: '45m0s', line: 18, time: utc(9, 55, 40), phase: 'bootstrap' },
    ]);
  });

  it('records every operator condition the installer printed', () => {
    expect(facts.operatorConditions).toHaveLength(6);
    expect(facts.operatorConditions[0]).toEqual({
      operator: 'authentication',
      condition: 'Degraded',
      status: 'True',
      reason: 'APIServerDeployment_UnavailablePod::OAuthServerDeployment_PreconditionNotFulfilled',
      message:
        'APIServerDeploymentDegraded: 1 of 1 requested instances are unavailable for apiserver.openshift-oauth-apiserver ()\n' +
        'OAuthServerDeploymentDegraded: waiting for the oauth-openshift route to contain an admitted ingress: no admitted ingress for route oauth-openshift in namespace openshift-authentication',
      line: 19,
      time: utc(10, 40, 40),
    });
    expect(facts.operatorConditions.map((c) => [c.operator, c.condition, c.status, c.reason ?? null, c.line])).toEqual([
      ['authentication', 'Degraded', 'True', 'APIServerDeployment_UnavailablePod::OAuthServerDeployment_PreconditionNotFulfilled', 19],
      ['authentication', 'Available', 'False', 'APIServices_Error', 20],
      ['etcd', 'Progressing', 'True', 'NodeInstaller', 21],
      ['kube-apiserver', 'Available', 'False', 'StaticPods_ZeroNodesActive', 22],
      ['network', 'ManagementStateDegraded', 'False', null, 23],
      ['network', 'Progressing', 'True', 'Deploying', 24],
    ]);
    expect(facts.operatorConditions[1].message).toBe(
      'APIServicesAvailable: "oauth.openshift.io.v1" is not ready: an attempt failed with statusCode = 503, err = the server is currently unable to handle the request',
    );
    expect(facts.operatorConditions[4].message).toBe('');
    expect('reason' in facts.operatorConditions[4]).toBe(false);
  });

  it('records timeouts, failed waits and error/fatal lines', () => {
    expect(facts.failures.map((f) => f.line)).toEqual([16, 19, 20, 22, 30, 31, 32, 34]);
    expect(facts.failures[0].text).toContain('context deadline exceeded');
    expect(facts.failures[0].level).toBe('debug');
    expect(facts.failures.find((f) => f.line === 30)).toEqual({
      line: 30,
      time: utc(10, 42, 10),
      level: 'error',
      text: 'Bootstrap failed to complete: timed out waiting for the condition',
      raw: 'time="2026-11-22T10:42:10Z" level=error msg="Bootstrap failed to complete: timed out waiting for the condition"',
      phase: 'bootstrap',
    });
    // Each failure carries the wait it failed: the API wait's time-out, then bootstrapping.
    expect(facts.failures[0].phase).toBe('kubernetes-api');
    // Warnings and re-logged gather lines are not failures.
    expect(facts.failures.some((f) => f.level === 'warning')).toBe(false);
  });

  it('reports that neither bootstrap nor install completed', () => {
    expect(facts.bootstrapComplete).toBe(false);
    expect(facts.installComplete).toBe(false);
  });
});

describe('createInstallerLogScanner: older release', () => {
  const { facts } = scanAll(fixtureLines('installer-old-release.log'));

  it('reads the v-prefixed version and local times', () => {
    expect(facts.version).toBe('v4.3.0');
    // The override line of that release did not name the image.
    expect(facts.releaseImage).toBeUndefined();
    expect(facts.waits).toEqual([
      {
        what: 'the Kubernetes API at https://api.ocp.example.com:6443',
        timeout: '30m0s',
        line: 4,
        time: Date.UTC(2019, 9, 16, 10, 12, 5),
        phase: 'kubernetes-api',
      },
    ]);
  });

  it('records the fatal time-out only', () => {
    expect(facts.failures).toEqual([
      {
        line: 8,
        time: Date.UTC(2019, 9, 16, 10, 42, 5),
        level: 'fatal',
        text: 'Bootstrap failed to complete: waiting for Kubernetes API: context deadline exceeded',
        raw: 'time="2019-10-16T11:42:05+01:00" level=fatal msg="Bootstrap failed to complete: waiting for Kubernetes API: context deadline exceeded"',
        phase: 'kubernetes-api',
      },
    ]);
    expect(facts.operatorConditions).toEqual([]);
  });
});

describe('createInstallerLogScanner: install complete', () => {
  const lines = fixtureLines('installer-install-complete.log');
  const { entries, facts } = scanAll(lines);

  it('prefers the release image override over the built-in one', () => {
    expect(facts.version).toBe('4.15.0-0.okd-2026-11-01-123456');
    expect(facts.releaseImage).toBe(
      'registry.example.com:5000/okd/release@sha256:5fd1fe9707a9a4f53c8ccafad0cf44824a3a0b51e197f3fbc98d0884a9ddcf4f',
    );
  });

  it('records waits of every form', () => {
    expect(facts.waits.map((w) => [w.timeout, w.what, w.line])).toEqual([
      ['20m0s', 'the Kubernetes API at https://api.ocp.example.com:6443', 5],
      ['1h0m0s', 'bootstrapping to complete', 7],
      ['40m0s', 'the cluster at https://api.ocp.example.com:6443 to initialize', 10],
      ['30m0s', 'ensure each cluster operator has finished progressing', 11],
    ]);
  });

  it('sees bootstrap and install complete, and no failure', () => {
    expect(facts.bootstrapComplete).toBe(true);
    expect(facts.installComplete).toBe(true);
    expect(facts.failures).toEqual([]);
  });

  it('never keeps the kubeadmin password', () => {
    const login = entries[16];
    expect(login.text).toBe('Login to the console with user: "kubeadmin", and password: <redacted>');
    expect(login.raw).not.toContain('aB3dE');
    expect(JSON.stringify(entries)).not.toContain('aB3dE-fGh7J');
    expect(entries[14].text).toBe("To access the cluster as the system:admin user when using 'oc', run\n    export KUBECONFIG=/home/user/ocp/auth/kubeconfig");
  });

  it('redacts the password forms of older releases', () => {
    const scanner = createInstallerLogScanner();
    const a = scanner.scan('time="2019-06-01T10:00:00Z" level=info msg="Login to the console with user: kubeadmin, password: 5char-5char-5char-5char"', 1);
    const b = scanner.scan(
      `time="2019-06-01T10:00:00Z" level=info msg="The cluster is ready when 'oc login -u kubeadmin -p 5char-5char-5char-5char' succeeds (wait a few minutes)."`,
      2,
    );
    expect(a.text).toBe('Login to the console with user: kubeadmin, password: <redacted>');
    expect(b.text).toBe("The cluster is ready when 'oc login -u kubeadmin -p <redacted>' succeeds (wait a few minutes).");
    expect(JSON.stringify([a, b])).not.toContain('5char');
  });
});

describe('createInstallerLogScanner: a failed bootstrap in two lines (create.go)', () => {
  it("gives `Bootstrap failed to complete: <why>` the phase of the wait the next line names", () => {
    // openshift/installer#5185, as posted: no `Waiting up to` line before them.
    const { facts } = scanAll([
      'INFO Bootstrap gather logs captured here "/home/u/log-bundle-20210901144755.tar.gz" ',
      'ERROR Bootstrap failed to complete: Get "https://api.c1.example.com:6443/version?timeout=32s": dial tcp: lookup api.c1.example.com on 127.0.0.53:53: no such host ',
      'ERROR Failed waiting for Kubernetes API. This error usually happens when there is a problem on the bootstrap host that prevents creating a temporary control plane. ',
    ]);
    expect(facts.failures.map((f) => [f.line, f.phase])).toEqual([
      [2, 'kubernetes-api'],
      [3, 'kubernetes-api'],
    ]);
  });

  it('keeps the bootstrap phase when the next line names the bootstrap wait, and pairs only adjacent lines', () => {
    const { facts } = scanAll([
      'INFO Waiting up to 30m0s for bootstrapping to complete... ',
      'ERROR Bootstrap failed to complete: timed out waiting for the condition ',
      'ERROR Failed to wait for bootstrapping to complete. This error usually happens when there is a problem with control plane hosts that prevents the control plane operators from creating the control plane. ',
      'ERROR Bootstrap failed to complete: timed out waiting for the condition ',
      'INFO Use the following commands to gather logs from the cluster ',
      'ERROR Failed waiting for Kubernetes API. This error usually happens when there is a problem on the bootstrap host that prevents creating a temporary control plane. ',
    ]);
    expect(facts.failures.map((f) => [f.line, f.phase])).toEqual([
      [2, 'bootstrap'],
      [3, 'bootstrap'],
      [4, 'bootstrap'],
      [6, 'kubernetes-api'],
    ]);
  });
});

describe('createInstallerLogScanner: other wordings', () => {
  it('sees bootstrap completion in pasted console output', () => {
    const scanner = createInstallerLogScanner();
    scanner.scan('INFO API v1.27.6+f67aeb3 up', 1);
    const e = scanner.scan('INFO It is now safe to remove the bootstrap resources ', 2);
    expect(e).toEqual({ line: 2, level: 'info', text: 'It is now safe to remove the bootstrap resources', raw: 'INFO It is now safe to remove the bootstrap resources ' });
    expect(scanner.facts().bootstrapComplete).toBe(true);
    expect(scanner.facts().installComplete).toBe(false);
  });

  it('reads operator conditions without a reason', () => {
    const scanner = createInstallerLogScanner();
    scanner.scan('ERROR Cluster operator console Available is False: DeploymentAvailable: 0 replicas available for console deployment', 3);
    scanner.scan('level=info msg="Cluster operator insights Disabled is False with AsExpected: "', 4);
    expect(scanner.facts().operatorConditions).toEqual([
      {
        operator: 'console',
        condition: 'Available',
        status: 'False',
        message: 'DeploymentAvailable: 0 replicas available for console deployment',
        line: 3,
      },
      { operator: 'insights', condition: 'Disabled', status: 'False', reason: 'AsExpected', message: '', line: 4 },
    ]);
  });

  it('takes a release image from other wordings but never from the commit line', () => {
    const scanner = createInstallerLogScanner();
    scanner.scan('level=debug msg="Built from commit 0c63f9da0f5b2a4e2f0c8e4a1f3c2d7e8b9a0c1d"', 1);
    scanner.scan('level=warning msg="Found override for release image. Please be warned, this is not advised"', 2);
    expect(scanner.facts().releaseImage).toBeUndefined();
    scanner.scan('release image quay.io/openshift-release-dev/ocp-release@sha256:b8307ac0f3ec4ac86c3f3b52846425205022da52c16f56ec31cbe428501001d6', 3);
    expect(scanner.facts().releaseImage).toBe(
      'quay.io/openshift-release-dev/ocp-release@sha256:b8307ac0f3ec4ac86c3f3b52846425205022da52c16f56ec31cbe428501001d6',
    );
    // A specific line beats a mention.
    scanner.scan('level=debug msg="Using internal constant for release image registry.ci.openshift.org/origin/release:4.20"', 4);
    scanner.scan('level=info msg="Using the release image mirror.example.com/ocp/release:4.14.3-x86_64"', 5);
    expect(scanner.facts().releaseImage).toBe('registry.ci.openshift.org/origin/release:4.20');
  });

  it('records failed waits whatever their level', () => {
    const scanner = createInstallerLogScanner();
    scanner.scan('level=info msg="failed waiting for Kubernetes API: Get \\"https://api.x:6443/version\\": EOF"', 1);
    scanner.scan('level=info msg="Everything fine"', 2);
    scanner.scan('level=warning msg="failed to initialize the cluster: Cluster operator console is not available"', 3);
    scanner.scan('level=panic msg="runtime error"', 4);
    expect(scanner.facts().failures.map((f) => f.line)).toEqual([1, 3, 4]);
  });

  it('caps kept failures', () => {
    const scanner = createInstallerLogScanner();
    for (let i = 1; i <= 1200; i++) scanner.scan(`level=error msg="attempt ${i} failed"`, i);
    const failures = scanner.facts().failures;
    expect(failures).toHaveLength(1000);
    expect(failures[999].line).toBe(1000);
  });

  it('returns only the documented facts', () => {
    const facts = createInstallerLogScanner().facts();
    expect(facts).toEqual({ waits: [], failures: [], stillWaiting: [], analysis: [], operatorConditions: [], bootstrapComplete: false, installComplete: false });
  });
});

// The installer relays terraform's stderr line by line at error level; its console hook prints
// the level, one space and the message (empty: the level alone; indented: the indent kept).
// The lines are those of installer#6891 (test/corpus/real/cases) as posted.
const TERRAFORM_ON_CONSOLE = [
  "ERROR Error: could not inspect: could not inspect node, node is currently 'inspect failed' , last error was 'Failed to inspect hardware. Reason: unable to start inspection: [Errno 28] No space left on device: '/tmp/tmp81ondo1u/boot.iso' -> '/shared/html/redfish/boot-4190261d-e5ca-4324-af6f-90607a41730b.iso''",
  'ERROR',
  'ERROR   with ironic_node_v1.openshift-master-host[2],',
  'ERROR   on main.tf line 13, in resource "ironic_node_v1" "openshift-master-host":',
];
// installer#2736 as posted: terraform's error without the installer's level.
const TERRAFORM_BARE = [
  'Error: Error launching source instance: VcpuLimitExceeded: You have requested more vCPU capacity than your current vCPU limit of 1 allows for the instance bucket that the specified instance type belongs to. Please',
  ' visit http://aws.amazon.com/contact-us/ec2-request to request an adjustment to this limit.',
];

describe('terraform errors the installer relays', () => {
  it('reads a level alone and an indented message as the lines of the message above', () => {
    expect(parseLogfmtLine('ERROR')).toMatchObject({ level: 'error', msg: '', continues: true });
    expect(parseLogfmtLine('ERROR   with ironic_node_v1.openshift-master-host[2],')).toMatchObject({ level: 'error', msg: 'with ironic_node_v1.openshift-master-host[2],', continues: true });
    expect(parseLogfmtLine('ERROR Error: could not inspect').continues).toBeUndefined();
    // logrus' TTY form with full timestamps gives the time.
    expect(parseLogfmtLine('INFO[2024-05-06T11:55:11Z] Waiting up to 20m0s').time).toBe(Date.UTC(2024, 4, 6, 11, 55, 11));
  });

  it('takes the console form with its empty and indented lines for installer output', () => {
    expect(looksLikeInstallerOutput(`${TERRAFORM_ON_CONSOLE.join('\n')}\n`)).toBe(true);
    // logrus' text form leaves msg= out of an empty message.
    expect(looksLikeInstallerOutput('level=error msg="Error: Error creating VPC"\nlevel=error\nlevel=error msg="  on main.tf line 3, in resource \\"aws_vpc\\" \\"v\\":"\n')).toBe(true);
  });

  it('takes terraform diagnostics posted without the level for installer output, and prose for none', () => {
    expect(looksLikeInstallerOutput(`${TERRAFORM_BARE.join('\n')}\n`)).toBe(true);
    const boxed = ['╷', '│ Error: creating EC2 Instance: VcpuLimitExceeded: You have requested more vCPU capacity', '│ ', '│   with aws_instance.master[0],', '│   on main.tf line 63, in resource "aws_instance" "master":', '│   63: resource "aws_instance" "master" {', '╵'];
    expect(looksLikeInstallerOutput(`${boxed.join('\n')}\n`)).toBe(true);
    expect(looksLikeInstallerOutput('Error: these are my notes\nabout what went wrong\nand what I tried next\n')).toBe(false);
    expect(looksLikeInstallerOutput('x509: certificate has expired or is not yet valid: current time 2021-05-14T00:00:21+08:00 is before 2021-05-14T05:45:12Z\n')).toBe(false);
  });

  it('keeps one failure per terraform error, its body joined to it', () => {
    const { entries, facts } = scanAll(TERRAFORM_ON_CONSOLE);
    expect(facts.failures).toHaveLength(1);
    expect(facts.failures[0]).toMatchObject({ line: 1, level: 'error', phase: 'infrastructure' });
    expect(facts.failures[0].text).toMatch(/No space left on device[^]*\nwith ironic_node_v1\.openshift-master-host\[2\],\non main\.tf line 13/);
    // The level alone and the body are no error lines of their own.
    expect(entries.slice(1).map((e) => e.level)).toEqual([undefined, undefined, undefined]);
  });

  it('gives a terraform error posted without the level the level the installer relays it at', () => {
    const { facts } = scanAll(TERRAFORM_BARE);
    expect(facts.failures).toHaveLength(1);
    expect(facts.failures[0]).toMatchObject({ line: 1, level: 'error', phase: 'infrastructure' });
    expect(facts.failures[0].text).toContain('\nvisit http://aws.amazon.com/contact-us/ec2-request');
  });
});
