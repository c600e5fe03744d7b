import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCertificates } from '../../src/parsers/certificates.js';

const FILE = 'log-bundle-20261122111800/rendered-assets/openshift/tls/etcd-ca-bundle.crt';
const src = { file: FILE };

let dir: string;
let caPem: string;
let caKey: string;
let leafPem: string;

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bootlens-certs-'));
  // A self-signed CA, as `req -x509` makes it (basicConstraints CA:TRUE), and a leaf it signs.
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=test', '-keyout', 'ca.key', '-out', 'ca.crt');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/O=openshift/CN=system:etcd-peer:bootstrap', '-keyout', 'leaf.key', '-out', 'leaf.csr');
  openssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-days', '1', '-set_serial', '0x1a2b3c', '-out', 'leaf.crt');
  caPem = readFileSync(join(dir, 'ca.crt'), 'utf8');
  caKey = readFileSync(join(dir, 'ca.key'), 'utf8');
  leafPem = readFileSync(join(dir, 'leaf.crt'), 'utf8');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The base64 lines of a PEM block, which must never show up in parser output. */
function secretLines(pem: string): string[] {
  return pem.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'));
}

describe('parseCertificates', () => {
  it('reads a self-signed CA field by field, checked against openssl', () => {
    const { value, problems } = parseCertificates(caPem, src);
    expect(problems).toEqual([]);
    expect(value).toHaveLength(1);
    const [ca] = value;
    expect(ca.source).toEqual({ file: FILE, line: 1 });
    expect(ca.subject).toBe('CN=test');
    expect(ca.issuer).toBe('CN=test');
    expect(ca.isCA).toBe(true);
    expect(ca.notAfter - ca.notBefore).toBe(86_400_000);
    // openssl's own reading of the date, not the clock: nothing here depends on when the test runs.
    const start = execFileSync('openssl', ['x509', '-noout', '-startdate', '-dateopt', 'iso_8601', '-in', join(dir, 'ca.crt')], { encoding: 'utf8' });
    expect(ca.notBefore).toBe(Date.parse(start.trim().split('=')[1].replace(' ', 'T')));
    const fp = execFileSync('openssl', ['x509', '-noout', '-fingerprint', '-sha256', '-in', join(dir, 'ca.crt')], { encoding: 'utf8' });
    expect(ca.fingerprint256).toBe(fp.trim().split('=')[1]);
    const serial = execFileSync('openssl', ['x509', '-noout', '-serial', '-in', join(dir, 'ca.crt')], { encoding: 'utf8' });
    expect(ca.serialNumber.toUpperCase()).toBe(serial.trim().split('=')[1].toUpperCase());
  });

  it('reads every certificate of a chain with the line of each block', () => {
    const chain = leafPem + caPem;
    const { value, problems } = parseCertificates(chain, src);
    expect(problems).toEqual([]);
    expect(value.map((c) => c.subject)).toEqual(['O=openshift, CN=system:etcd-peer:bootstrap', 'CN=test']);
    expect(value[0].issuer).toBe('CN=test');
    expect(value[0].isCA).toBe(false);
    expect(value[0].serialNumber.toUpperCase()).toBe('1A2B3C');
    expect(value[1].source.line).toBe(leafPem.trimEnd().split('\n').length + 1);
  });

  it('skips private keys and never echoes their content', () => {
    const text = caKey + caPem + '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAtruncatedkeymaterialthatmustnotleak\n';
    const { value, problems } = parseCertificates(text, src);
    expect(value.map((c) => c.subject)).toEqual(['CN=test']);
    expect(problems).toEqual([]);
    const out = JSON.stringify({ value, problems });
    for (const line of secretLines(caKey)) expect(out).not.toContain(line);
    expect(out).not.toContain('truncatedkeymaterial');
    expect(out).not.toContain('PRIVATE');
  });

  it('reads indented PEM inside YAML and CRLF files', () => {
    const yaml = 'data:\n  ca-bundle.crt: |\n' + caPem.trimEnd().split('\n').map((l) => `    ${l}`).join('\n') + '\n';
    const fromYaml = parseCertificates(yaml, src);
    expect(fromYaml.problems).toEqual([]);
    expect(fromYaml.value.map((c) => [c.subject, c.source.line])).toEqual([['CN=test', 3]]);
    const crlf = parseCertificates(caPem.replace(/\n/g, '\r\n'), src);
    expect(crlf.value[0].fingerprint256).toBe(new X509Certificate(caPem).fingerprint256);
  });

  it('reports a damaged block and a cut-off block, and keeps the good ones', () => {
    const lines = caPem.trimEnd().split('\n');
    const damaged = [lines[0], 'AAAAnotDERatallAAAA', lines[lines.length - 1]].join('\n');
    const cut = lines.slice(0, 5).join('\n');
    const text = `${damaged}\n${leafPem}${cut}\n`;
    const { value, problems } = parseCertificates(text, src);
    expect(value.map((c) => c.subject)).toEqual(['O=openshift, CN=system:etcd-peer:bootstrap']);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatchObject({ kind: 'unparseable', line: 1 });
    expect(problems[0].message).toMatch(/^unreadable certificate: /);
    expect(problems[1]).toEqual({ kind: 'unparseable', message: 'PEM CERTIFICATE block has no END line', line: 3 + leafPem.trimEnd().split('\n').length + 1 });
  });

  it('reports an empty file and a file without PEM, and ignores other PEM types', () => {
    expect(parseCertificates('', src)).toEqual({ value: [], problems: [{ kind: 'empty', message: 'certificate file is empty' }] });
    expect(parseCertificates('not a certificate\n', src)).toEqual({ value: [], problems: [{ kind: 'unparseable', message: 'no PEM block in the file' }] });
    const csr = readFileSync(join(dir, 'leaf.csr'), 'utf8');
    expect(parseCertificates(csr, src)).toEqual({ value: [], problems: [] });
  });
});
