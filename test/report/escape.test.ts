import { describe, expect, it } from 'vitest';
import { cdata, escapeHtml, escapeXml, html, jsonForScript, mdCell, mdCode, mdFence, mdRich, mdText, safeUrl, SafeHtml } from '../../src/report/escape.js';
import { parseXml } from './xml-check.js';

describe('html tagged template', () => {
  it('escapes every interpolation, nested lists included, and keeps SafeHtml as is', () => {
    const evil = '</details><img src=x onerror=alert(1)>';
    const inner = html`<b>${evil}</b>`;
    const out = html`<p title="${'" onmouseover="x'}">${evil}${[evil, inner]}${null}${undefined}${false}${0}</p>`.toString();
    expect(out).not.toContain('<img');
    expect(out).not.toContain('" onmouseover');
    expect(out).toContain('<b>&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;</b>');
    expect(out.endsWith('0</p>')).toBe(true);
  });

  it('drops ANSI sequences and control characters', () => {
    expect(escapeHtml('\u001b[31mred\u001b[0m\u0000x')).toBe('red x');
  });

  it('only wraps constant markup with SafeHtml.trusted', () => {
    expect(html`${SafeHtml.trusted('<br>')}`.toString()).toBe('<br>');
  });
});

describe('JSON data island', () => {
  it('writes no <, >, & or line separators and parses back to the same value', () => {
    const value = { a: '</script><!-- <script>alert(1)</script>', b: 'x\u2028y\u2029z & w' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('safeUrl', () => {
  it('keeps http(s) links and refuses others', () => {
    expect(safeUrl('https://docs.openshift.com/x#y')).toBe('https://docs.openshift.com/x#y');
    for (const bad of ['javascript:alert(1)', 'data:text/html,<b>', '//evil.example', 'https://a.example/"onmouseover=x', 'file:///etc/passwd']) expect(safeUrl(bad), bad).toBeUndefined();
  });
});

describe('Markdown helpers', () => {
  it('makes a fence longer than any backtick run in the content', () => {
    const content = 'a ``` b\n````` c\n```';
    const block = mdFence(content);
    const fence = block.split('\n')[0].replace(/text$/, '');
    expect(fence).toBe('``````');
    expect(block.endsWith(`\n${fence}`)).toBe(true);
    expect(mdFence('plain').startsWith('```text\n')).toBe(true);
  });

  it('escapes inline markup, HTML, pipes and line breaks', () => {
    const out = mdText('<script>x</script> | **b** [l](u) `c` $m$ @team\n# h');
    expect(out).toBe('\\<script\\>x\\</script\\> \\| \\*\\*b\\*\\* \\[l\\](u) \\`c\\` \\$m\\$ \\@team # h');
    expect(mdText('# heading')).toBe('\\# heading');
    expect(mdText('1. item')).toBe('1\\. item');
    expect(mdCell('a | b\nc')).toBe('a \\| b c');
  });

  it('delimits code spans by their content', () => {
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('`x`')).toBe('`` `x` ``');
  });

  it('keeps rule-authored code spans and escapes the rest', () => {
    expect(mdRich('Run `oc get csr` then <approve> *it*')).toBe('Run `oc get csr` then \\<approve\\> \\*it\\*');
    // A log's backtick runs pair with nothing: all of it stays escaped text.
    expect(mdRich('Read `x ```` fence ``` y` now')).toBe('Read \\`x \\`\\`\\`\\` fence \\`\\`\\` y\\` now');
  });
});

describe('XML helpers', () => {
  it('escapes text and attributes, strips ANSI and control characters', () => {
    const text = 'a < b & "c" \u001b[31mred\u001b[0m \u0000\u0007 ]]>';
    const doc = `<r a="${escapeXml(text)}">${escapeXml(text)}</r>`;
    const root = parseXml(doc);
    expect(root.attrs.a).toBe('a < b & "c" red  ]]>');
    expect(root.text).toBe('a < b & "c" red  ]]>');
  });

  it('splits ]]> across CDATA sections', () => {
    const root = parseXml(`<r>${cdata('x ]]> <script> ]]]]> y')}</r>`);
    expect(root.text).toBe('x ]]> <script> ]]]]> y');
  });
});
