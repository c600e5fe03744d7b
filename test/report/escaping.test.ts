import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/redact/redact.js';
import { escapeHtml } from '../../src/report/escape.js';
import { HOSTILE, SECRETS, writeHostileBundle } from './hostile-bundle.js';
import { fencedBlocks } from './md-check.js';
import { findAll, parseXml } from './xml-check.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const FORMATS = ['text', 'json', 'md', 'html', 'junit'] as const;

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let bundle: string;
let rules: string;
const out: Record<string, string> = {};
beforeAll(async () => {
  ({ bundle, rules } = await writeHostileBundle());
  for (const format of FORMATS) {
    const r = run(['analyze', bundle, '--rules', rules, '--format', format]);
    expect(r.stderr, format).toBe('');
    expect(r.code, format).toBe(1);
    out[format] = r.stdout;
  }
});

describe('secrets in log lines', () => {
  it('are cited as evidence: without redaction the report holds every one', () => {
    const raw = run(['analyze', bundle, '--rules', rules, '--format', 'json', '--no-redact']).stdout;
    // The key's last body line lies outside the two lines of context, so it is never cited.
    for (const secret of [SECRETS.pullSecretAuth, SECRETS.privateKeyBody, SECRETS.bearerToken]) expect(raw, secret).toContain(secret);
  });

  for (const format of FORMATS) {
    it(`never reach the ${format} report`, () => {
      for (const secret of Object.values(SECRETS)) expect(out[format], secret).not.toContain(secret);
      // The most distinctive parts too, in case a format splits or re-encodes a value.
      for (const piece of ['S3cr3tT0ken', 'c2VjcmV0dXNlcjpTM2Ny', 'MIIEowIBAAKCAQEAs3cr3t', 'Qm9keUxpbmVUd29TZWNyZXRL']) expect(out[format], piece).not.toContain(piece);
      expect(out[format]).toContain(format === 'html' ? escapeHtml(REDACTED) : REDACTED);
    });
  }

  it('never reach an error message', () => {
    const r = run(['analyze', `https://user:S3cretPass99@example.com/${SECRETS.bearerToken}.tar.gz`, '--format', 'html']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bootlens: /);
    expect(r.stderr).not.toContain('S3cretPass99');
    expect(r.stderr).not.toContain('S3cr3tT0ken');
  });
});

describe('hostile text in log lines', () => {
  it('is kept as evidence (the JSON report holds it verbatim)', () => {
    const report = JSON.parse(out.json) as { findings: { ruleId: string; evidence: { text: string }[] }[] };
    const texts = report.findings.filter((f) => f.ruleId === 'hostile-line').flatMap((f) => f.evidence.map((e) => e.text));
    expect(texts.join('\n')).toContain(HOSTILE.script);
    expect(texts.join('\n')).toContain(HOSTILE.details);
    expect(texts.join('\n')).toContain(HOSTILE.fence);
    expect(texts.join('\n')).toContain(HOSTILE.cdataEnd);
  });

  it('carries no terminal escapes or control characters into the text report', () => {
    expect(out.text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(out.text).toContain(HOSTILE.script);
  });

  it('cannot open an element, attribute or comment in HTML', () => {
    const page = out.html;
    // Only this page's own two scripts (the data island and the filter script) and no image.
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page).not.toMatch(/<img|<script>alert|<!-- comment/);
    expect(page.match(/<details>/g)?.length).toBe(page.match(/<\/details>/g)?.length);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    // Every tag in the page is one the report writes.
    const tags = new Set([...page.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1].toLowerCase()));
    const allowed = 'html head meta title link style body section header div p code h1 h2 h3 h4 h5 span nav a figure svg g text line rect polygon figcaption i table thead tbody tr th td br form article ol ul li pre time details summary mark script footer';
    for (const t of tags) expect(allowed.split(' '), t).toContain(t);
    // The data island parses back, with no raw `<` in it.
    const island = /<script type="application\/json" id="b0-data" class="bl-data">([^<]*)<\/script>/.exec(page);
    expect(island).not.toBeNull();
    expect(() => JSON.parse(island?.[1] ?? '')).not.toThrow();
  });

  it('cannot leave its fenced block, a table cell or inline text in Markdown', () => {
    const md = out.md;
    const blocks = fencedBlocks(md);
    for (const b of blocks) {
      const longest = Math.max(0, ...b.body.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((r) => r.length))));
      expect(b.fence.length).toBeGreaterThan(Math.max(2, longest));
    }
    expect(blocks.some((b) => b.body.some((l) => l.includes(HOSTILE.script)))).toBe(true);
    expect(blocks.some((b) => b.body.some((l) => l.includes(HOSTILE.fence)))).toBe(true);
    // Outside fences and code spans, no `<`, `|`, `*` or `[` from the log is left unescaped.
    let outside = md;
    for (const b of blocks) outside = outside.replace(`${b.fence}text\n${b.body.join('\n')}\n${b.fence}`, '');
    // Code spans, as CommonMark finds them: a run not escaped by a backslash, closed by a run as long.
    outside = outside.replace(/(?<![\\`])(`+)(?!`)[\s\S]*?(?<![`\\])\1(?!`)/g, '');
    for (const line of outside.split('\n')) {
      if (line.startsWith('|') || line.startsWith('- <https://')) continue;
      expect(line, line).not.toMatch(/(?<!\\)[<|[]/);
      // The log's `**bold**` stays literal asterisks.
      if (line.includes('bold')) expect(line).toContain('\\*\\*bold\\*\\*');
    }
    expect(md).toContain('hostile line: all \\<script\\>alert(1)\\</script\\> \\</details\\>\\<img');
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('keeps JUnit well-formed: the right elements, text intact, no control characters', () => {
    const root = parseXml(out.junit);
    expect(findAll(root, 'testsuite')).toHaveLength(1);
    expect(findAll(root, 'testcase')).toHaveLength(11);
    expect(findAll(root, 'failure')).toHaveLength(1);
    // Nothing from the log became an element.
    const names = new Set(findAll(root, 'testsuites').flatMap(function all(e): string[] {
      return [e.name, ...e.children.flatMap(all)];
    }));
    expect([...names].sort()).toEqual(['failure', 'properties', 'property', 'skipped', 'system-out', 'testcase', 'testsuite', 'testsuites']);
    const failure = findAll(root, 'failure')[0];
    expect(failure.text).toContain(HOSTILE.script);
    expect(failure.text).toContain(HOSTILE.cdataEnd);
    expect(out.junit).not.toContain('\u001b');
  });
});
