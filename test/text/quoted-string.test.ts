import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closingQuote, quotedStringEnd, readQuoted, unescapeQuoted } from '../../src/text/quoted-string.js';

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

describe('quotedStringEnd', () => {
  const klog = String.raw`E1122 10:15:20.001122 2519 kubelet_node_status.go:96] "Unable to register node" err="Post \"https://api-int:6443/api/v1/nodes\": dial tcp: i/o timeout" node="m0"`;

  it('finds the closing quote of the string a place lies in, escapes included', () => {
    const inErr = klog.indexOf('Post');
    const close = quotedStringEnd(klog, inErr) as number;
    expect(klog.slice(inErr, close)).toBe(String.raw`Post \"https://api-int:6443/api/v1/nodes\": dial tcp: i/o timeout`);
    expect(klog.slice(quotedStringEnd(klog, klog.indexOf('m0')))).toBe('"');
  });

  it('says a place outside every string is outside', () => {
    expect(quotedStringEnd(klog, klog.indexOf('kubelet_node_status'))).toBeUndefined();
    expect(quotedStringEnd(klog, klog.indexOf(' node='))).toBeUndefined();
    // The opening quote itself is not inside its string.
    expect(quotedStringEnd(klog, klog.indexOf('"Unable'))).toBeUndefined();
  });

  it('runs an unterminated string to the end of the line', () => {
    const cut = 'level=error msg="cut in the mid';
    expect(quotedStringEnd(cut, cut.indexOf('mid'))).toBe(cut.length);
    expect(closingQuote(cut, cut.indexOf('"'))).toBe(cut.length);
  });
});
