import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closingQuote, quotedStringAt, quotedValue, readQuoted, unescapeQuoted } from '../../src/text/quoted-string.js';

describe('unescapeQuoted', () => {
  it("undoes Go's and JSON's escapes", () => {
    expect(unescapeQuoted(String.raw`Get \"https://x/healthz\": EOF\nnext \\ \u00e9 \/ \ud83d\ude00`)).toBe('Get "https://x/healthz": EOF\nnext \\ é / 😀');
  });

  it('reads back what JSON.stringify and Go-style quoting wrote', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (s) => {
        const quoted = JSON.stringify(s);
        expect(unescapeQuoted(quoted.slice(1, -1))).toBe(s);
        expect(readQuoted(`msg=${quoted} x=1`, 4)).toEqual({ value: s, end: 4 + quoted.length });
      }),
    );
  });

  it('drops an escape the piece was cut inside, never half of it', () => {
    for (const cut of ['\\', '\\u', '\\u00', '\\U0001F6', '\\x4', '\\1', '\\10']) expect(unescapeQuoted(`a "b${cut}`), cut).toBe('a "b');
    // Not at the end: an unknown or malformed escape is kept as written.
    expect(unescapeQuoted(String.raw`C:\user \q \ux`)).toBe(String.raw`C:\user \q \ux`);
  });
});

describe('quotedStringAt', () => {
  const klog = String.raw`E1122 10:15:20.001122 2519 kubelet_node_status.go:96] "Unable to register node" err="Post \"https://api-int:6443/api/v1/nodes\": dial tcp: i/o timeout" node="m0"`;

  it('finds the closing quote of the string a place lies in, escapes included', () => {
    const inErr = klog.indexOf('Post');
    const close = quotedStringAt(klog, inErr)?.close;
    expect(klog.slice(inErr, close)).toBe(String.raw`Post \"https://api-int:6443/api/v1/nodes\": dial tcp: i/o timeout`);
    expect(klog.slice(quotedStringAt(klog, klog.indexOf('m0'))?.close)).toBe('"');
    expect(klog[quotedStringAt(klog, inErr)?.open ?? -1]).toBe('"');
  });

  it('says a place outside every string is outside', () => {
    expect(quotedStringAt(klog, klog.indexOf('kubelet_node_status'))).toBeUndefined();
    expect(quotedStringAt(klog, klog.indexOf(' node='))).toBeUndefined();
    // The opening quote itself is not inside its string.
    expect(quotedStringAt(klog, klog.indexOf('"Unable'))).toBeUndefined();
  });

  it('runs an unterminated string to the end of the line', () => {
    const cut = 'level=error msg="cut in the mid';
    expect(quotedStringAt(cut, cut.indexOf('mid'))).toEqual({ open: cut.indexOf('"'), close: cut.length });
    expect(closingQuote(cut, cut.indexOf('"'))).toBe(cut.length);
  });
});

describe('quotedValue', () => {
  it('reads a value through every quoted string it lies in: a %q error inside a klog value', () => {
    const kubelet = String.raw`E1122 10:40:02.118101    2519 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"etcd\" with ErrImagePull: \"rpc error: code = Unknown desc = reading manifest sha256:0f4c in quay.io/openshift-release-dev/ocp-v4.0-art-dev: unauthorized: access to the requested resource is not authorized\"" pod="openshift-etcd/etcd-master-0"`;
    const start = kubelet.indexOf('unauthorized:');
    const v = quotedValue(kubelet, start, kubelet.length);
    expect(v.value).toBe('unauthorized: access to the requested resource is not authorized');
    // In the line it ends before the escaped quote that closes it.
    expect(kubelet.slice(start, v.end)).toBe('unauthorized: access to the requested resource is not authorized');
  });

  it("reads a file name three quotes deep: the installer's log quoting an operator quoting the daemon", () => {
    const installer = String.raw`time="2026-11-22T12:01:10Z" level=error msg="Cluster operator machine-config Degraded is True with RequiredPoolsFailed: Node master-0 is reporting: \"unexpected on-disk state validating against rendered-master-8bd6: content mismatch for file \\\"/etc/containers/registries.conf\\\"\""`;
    const start = installer.indexOf('/etc/');
    const v = quotedValue(installer, start, installer.length);
    expect(v.value).toBe('/etc/containers/registries.conf');
    expect(installer.slice(start, v.end)).toBe('/etc/containers/registries.conf');
    // A value that starts outside the inner quotes reads to the end of the value it lies in, once unescaped.
    const detail = installer.indexOf('Node master-0');
    expect(quotedValue(installer, detail, installer.length).value).toBe(String.raw`Node master-0 is reporting: "unexpected on-disk state validating against rendered-master-8bd6: content mismatch for file \"/etc/containers/registries.conf\""`);
  });

  it('leaves a value outside quotes as written', () => {
    const plain = 'Error: initializing source docker://quay.io/x: unauthorized: access to the requested resource is not authorized';
    expect(quotedValue(plain, plain.indexOf('unauthorized'), plain.length)).toEqual({ value: plain.slice(plain.indexOf('unauthorized')), end: plain.length });
  });
});
