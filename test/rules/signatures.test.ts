// The message → category table: every entry matches its own example, and the general form of
// every entry is found in real text (the corpus of real cases, the known-issue lines, both taken
// verbatim from public threads).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { classifyError, formTests, matchSignature, SIGNATURES, type Signature } from '../../src/rules/signatures.js';
import { isCategoryId } from '../../src/taxonomy.js';
import { loadCorpus } from '../corpus/real/cases.js';

/** Every real line we hold, with where it was posted. */
function realLines(): { text: string; source: string }[] {
  const out: { text: string; source: string }[] = [];
  for (const c of loadCorpus().cases) {
    for (const t of [...c.files.map((f) => f.lines ?? ''), c.installer?.lines ?? '']) {
      for (const text of t.split('\n')) if (text.trim()) out.push({ text, source: c.source });
    }
  }
  const kb = join(process.cwd(), 'rules/known-issues');
  for (const f of readdirSync(kb).filter((x) => x.endsWith('.yaml'))) {
    const doc = yaml.load(readFileSync(join(kb, f), 'utf8')) as { lines?: string[]; references?: string[] };
    for (const text of doc.lines ?? []) out.push({ text, source: doc.references?.[0] ?? f });
  }
  for (const s of SIGNATURES) if (s.exampleFrom) out.push({ text: s.example, source: s.exampleFrom });
  return out;
}

describe('error signatures', () => {
  it('name taxonomy categories, an upstream source and a unique id', () => {
    const ids = SIGNATURES.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SIGNATURES) {
      expect(isCategoryId(s.category), s.id).toBe(true);
      expect(s.source, s.id).toMatch(/^https:\/\/github\.com\//);
    }
  });

  it.each(SIGNATURES.map((s) => [s.id, s] as const))('%s matches its own example, before any other entry', (_id, s) => {
    expect(matchSignature(s.example)?.id).toBe(s.id);
    expect(classifyError(s.example)).toBe(s.category);
  });

  it('finds the general form of every entry in real posted text', () => {
    const lines = realLines();
    expect(lines.length).toBeGreaterThan(500);
    const seen = new Map<string, string>();
    for (const l of lines) {
      const s = matchSignature(l.text);
      if (s && !seen.has(s.id)) seen.set(s.id, l.source);
    }
    const missing = SIGNATURES.filter((s) => !seen.has(s.id)).map((s) => s.id);
    expect(missing).toEqual([]);
  });

  it('rules a text out in one combined pass only when no signature could match it: the same answers as testing every regex', () => {
    // The combined forms screen a text first; the table, tried regex by regex in order, decides.
    const everyRegex = (text: string): string | undefined =>
      SIGNATURES.find((s) => s.re.test(text) && (!s.when || s.when.test(text)) && !(s.unless && s.unless.test(text)))?.id;
    const forms = formTests(SIGNATURES);
    const texts = realLines().flatMap((l) => [l.text, l.text.toUpperCase(), l.text.toLowerCase()]);
    texts.push('I1122 10:15:04.000123 2519 status_manager.go:70] "Pod is ready" pod="etcd-0"', '');
    let ruledOut = 0;
    let matched = 0;
    for (const text of texts) {
      const id = everyRegex(text);
      expect(matchSignature(text)?.id, text).toBe(id);
      if (id) matched++;
      // A text some signature matches always passes the screen; most others do not.
      if (id) expect(forms.some((re) => re.test(text)), text).toBe(true);
      else if (!forms.some((re) => re.test(text))) ruledOut++;
    }
    for (const s of SIGNATURES) expect(forms.some((re) => re.test(s.example)), s.id).toBe(true);
    expect(matched).toBeGreaterThan(texts.length / 5);
    expect(ruledOut).toBeGreaterThan(100);
    expect(forms.some((re) => re.test('I1122 10:15:04.000123 2519 status_manager.go:70] "Pod is ready" pod="etcd-0"'))).toBe(false);
  });

  it('combines forms per set of flags, and keeps a form with referred or named groups alone', () => {
    const sig = (id: string, re: RegExp): Signature => ({ id, category: 'unknown', re, source: 'https://github.com/x/y', example: '' });
    const forms = formTests([sig('a', /no such host/i), sig('b', /(dup) \1 again/), sig('c', /x509/i), sig('d', /(?<code>40[13]) Unauthorized/), sig('e', /dial tcp/)]);
    expect(forms.map((r) => r.source)).toEqual(['(?:no such host)|(?:x509)', '(?:dial tcp)', '(dup) \\1 again', '(?<code>40[13]) Unauthorized']);
    // Inside a combined regex `\1` would refer to another form's group: alone, it still matches.
    expect(forms.some((r) => r.test('dup dup again'))).toBe(true);
    expect(forms.some((r) => r.test('NO SUCH HOST'))).toBe(true);
    expect(forms.some((r) => r.test('DIAL TCP'))).toBe(false);
  });

  it('tells apart what the same words mean in different operations', () => {
    // x509 while pulling is the registry's; while fetching ignition, ignition's; on the API, the install's.
    expect(classifyError('Error: initializing source docker://quay.io/x/y@sha256:1: pinging container registry quay.io: Get "https://quay.io/v2/": x509: certificate signed by unknown authority')).toBe('registry-tls');
    expect(classifyError('ignition[483]: GET error: Get "https://api-int.okd.example.com:22623/config/master": x509: certificate signed by unknown authority')).toBe('ignition');
    expect(classifyError('Still waiting for the Kubernetes API: Get https://api.okd.test1.com:6443/version?timeout=32s: x509: certificate signed by unknown authority')).toBe('install-config');
    // A refused connection while pulling is the registry's; to the peer port, etcd's network; elsewhere, the network's.
    expect(classifyError('pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp 3.218.72.188:443: i/o timeout')).toBe('registry-unreachable');
    expect(classifyError('health check for peer d3a39059afc42461 could not connect: dial tcp 172.16.137.102:2380: i/o timeout')).toBe('network-connectivity');
    expect(classifyError('ignition[527]: GET error: Get https://api-int.okd4-snc.snc.test:22623/config/master: dial tcp 192.168.168.10:22623: i/o timeout')).toBe('network-connectivity');
    // The proxy's own name that does not resolve is DNS; the proxy refusing is the proxy.
    expect(classifyError('Get "https://quay.io/v2/": proxyconnect tcp: dial tcp: lookup proxy-01.example.com on [::1]:53: read udp [::1]:38212->[::1]:53: read: connection refused')).toBe('dns');
    expect(classifyError('Get "https://quay.io/v2/": proxyconnect tcp: dial tcp 192.168.1.10:3128: connect: connection refused')).toBe('proxy');
    // A certificate not yet valid is a clock behind; one expired is expired.
    expect(classifyError('x509: certificate has expired or is not yet valid: current time 2021-05-14T00:00:21+08:00 is before 2021-05-14T05:45:12Z')).toBe('clock-skew');
    expect(classifyError('x509: certificate has expired or is not yet valid: current time 2021-06-24T10:39:43+02:00 is after 2021-06-23T10:46:26Z')).toBe('certificate-expired');
    expect(classifyError('Waiting for bootstrapping to complete')).toBe('unknown');
  });
});
