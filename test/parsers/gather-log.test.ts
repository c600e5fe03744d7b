import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createGatherLogScanner, type GatherLogFacts } from '../../src/parsers/gather-log.js';
import type { LogLine } from '../../src/model/types.js';

function fixtureLines(name: string): string[] {
  const text = readFileSync(new URL(`../fixtures/parsers/${name}`, import.meta.url), 'utf8');
  return text.split('\n').filter((l, i, all) => !(i === all.length - 1 && l === ''));
}

const REFERENCE = Date.UTC(2026, 10, 22, 10, 40, 41);

function scanAll(lines: string[]): { entries: LogLine[]; facts: GatherLogFacts } {
  const scanner = createGatherLogScanner({ referenceTime: REFERENCE });
  const entries = lines.map((raw, i) => scanner.scan(raw, i + 1));
  return { entries, facts: scanner.facts() };
}

describe('createGatherLogScanner: masters unreachable', () => {
  const { entries, facts } = scanAll(fixtureLines('gather-masters-unreachable.log'));

  it('returns plain lines as they are', () => {
    expect(entries[0]).toEqual({ line: 1, text: 'Gathering bootstrap systemd summary ...' });
    expect(entries).toHaveLength(37);
  });

  it('lists each master it tried once, in order', () => {
    expect(facts.mastersAttempted).toEqual(['10.0.0.5', '10.0.0.6', '10.0.0.7', 'fd00:1101::5']);
    expect(facts.noMasters).toBe(false);
  });

  it('collects ssh, scp and oc errors, and nothing else', () => {
    expect(facts.errors.map((e) => [e.line, e.text])).toEqual([
      [
        11,
        'couldn\'t get current server API group list: Get "https://localhost:6443/api?timeout=5s": dial tcp [::1]:6443: connect: connection refused',
      ],
      [12, 'The connection to the server localhost:6443 was refused - did you specify the right host or port?'],
      [13, 'error: the server doesn\'t have a resource type "clusteroperators"'],
      [14, 'Unable to connect to the server: dial tcp [::1]:6443: i/o timeout'],
      [26, 'ssh: connect to host 10.0.0.6 port 22: Connection timed out'],
      [27, 'lost connection'],
      [28, 'ssh: connect to host 10.0.0.6 port 22: Connection timed out'],
      [31, 'core@10.0.0.7: Permission denied (publickey,gssapi-keyex,gssapi-with-mic).'],
      [32, 'core@10.0.0.7: Permission denied (publickey,gssapi-keyex,gssapi-with-mic).'],
      [33, 'scp: /tmp/artifacts-20261122104041/*: No such file or directory'],
      [35, 'ssh: Could not resolve hostname master-3.ocp.example.com: Name or service not known'],
    ]);
  });

  it('gives klog lines from oc their time and level, keeping the raw line', () => {
    expect(facts.errors[0]).toEqual({
      line: 11,
      time: Date.UTC(2026, 10, 22, 10, 41, 2, 123),
      level: 'error',
      text: 'couldn\'t get current server API group list: Get "https://localhost:6443/api?timeout=5s": dial tcp [::1]:6443: connect: connection refused',
      raw: 'E1122 10:41:02.123456    8123 memcache.go:265] couldn\'t get current server API group list: Get "https://localhost:6443/api?timeout=5s": dial tcp [::1]:6443: connect: connection refused',
    });
  });

  it('ignores the rm warning every gather prints and ssh host-key notices', () => {
    expect(facts.errors.some((e) => e.text.startsWith('rm:') || e.text.startsWith('Warning: Permanently'))).toBe(false);
  });
});

describe('createGatherLogScanner: no masters', () => {
  it('sees "No masters found!"', () => {
    const { facts } = scanAll(fixtureLines('gather-no-masters.log'));
    expect(facts).toEqual({ mastersAttempted: [], noMasters: true, errors: [] });
  });
});

describe('createGatherLogScanner: other forms', () => {
  it('reads gather lines the installer re-logged at debug level', () => {
    const scanner = createGatherLogScanner();
    const a = scanner.scan('level=debug msg=Collecting info from 10.0.0.8', 1);
    const b = scanner.scan('level=debug msg=ssh: connect to host 10.0.0.8 port 22: Connection timed out', 2);
    const c = scanner.scan('time="2026-11-22T10:41:59Z" level=debug msg="core@10.0.0.9: Permission denied (publickey,gssapi-keyex,gssapi-with-mic,password)."', 3);
    scanner.scan('level=debug msg=Connection closed', 4);
    scanner.scan('level=debug msg="Warning: Permanently added \'10.0.0.7\' (ED25519) to the list of known hosts."', 5);
    expect(a).toEqual({ line: 1, text: 'Collecting info from 10.0.0.8', raw: 'level=debug msg=Collecting info from 10.0.0.8' });
    expect(b.text).toBe('ssh: connect to host 10.0.0.8 port 22: Connection timed out');
    expect(c.time).toBe(Date.UTC(2026, 10, 22, 10, 41, 59));
    expect(c.level).toBeUndefined();
    const facts = scanner.facts();
    expect(facts.mastersAttempted).toEqual(['10.0.0.8']);
    expect(facts.errors.map((e) => e.line)).toEqual([2, 3, 4]);
  });

  it('treats crictl fatal lines and sudo/shell errors as errors', () => {
    const scanner = createGatherLogScanner();
    scanner.scan(
      'time="2026-11-22T10:40:50Z" level=fatal msg="validate service connection: validate CRI v1 runtime API for endpoint \\"unix:///var/run/crio/crio.sock\\": rpc error: code = Unavailable"',
      1,
    );
    scanner.scan('sudo: ./installer-masters-gather.sh: command not found', 2);
    scanner.scan('bash: line 1: ./installer-masters-gather.sh: No such file or directory', 3);
    scanner.scan('tar: Removing leading `/\' from member names', 4);
    scanner.scan('Gathering master journals ...', 5);
    scanner.scan('Connection to 10.0.0.5 closed by remote host.', 6);
    scanner.scan('kex_exchange_identification: read: Connection reset by peer', 7);
    scanner.scan('Host key verification failed.', 8);
    const errors = scanner.facts().errors;
    // Line 4 is a notice tar prints, not a failure.
    expect(errors.map((e) => e.line)).toEqual([1, 2, 3, 6, 7, 8]);
    expect(errors[0].level).toBe('fatal');
    expect(errors[0].text).toBe(
      'validate service connection: validate CRI v1 runtime API for endpoint "unix:///var/run/crio/crio.sock": rpc error: code = Unavailable',
    );
  });

  it('counts a bracketed IPv6 address and the bare one as one master', () => {
    const scanner = createGatherLogScanner();
    scanner.scan('Collecting info from [fd00::5]', 1);
    scanner.scan('Collecting info from fd00::5', 2);
    expect(scanner.facts().mastersAttempted).toEqual(['fd00::5']);
  });

  it('caps kept errors', () => {
    const scanner = createGatherLogScanner();
    for (let i = 1; i <= 1500; i++) scanner.scan('ssh: connect to host 10.0.0.6 port 22: No route to host', i);
    expect(scanner.facts().errors).toHaveLength(1000);
  });
});
