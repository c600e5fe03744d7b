// Every text channel strips terminal controls and bidirectional overrides from bundle text
// (kb check printed raw escapes; Markdown kept U+202E, U+2066, U+2069 from host names), and a
// folder read opens each file once and reads it only if what it opened is a regular file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRegularFile } from '../../src/archive/dir-reader.js';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { cleanText, escapeHtml, mdCell, mdText, termText, xmlClean } from '../../src/report/escape.js';
import { formatKbCheck } from '../../src/cli/kb-command.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
/** What must not reach any output: ESC, BEL, CSI, OSC, and the bidi controls. */
const UNSAFE = /[\u001b\u0007\u009b\u009d\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'evil\u202Etxt.exe\u2066x\u2069 \u001b]0;pwned\u0007\u001b[31mred\u001b[0m';

describe('escaping', () => {
  it('leaves no control or bidi character in any format, and shows each bidi control visibly', () => {
    for (const out of [termText(HOSTILE), cleanText(HOSTILE), escapeHtml(HOSTILE), mdText(HOSTILE), mdCell(HOSTILE), xmlClean(HOSTILE)]) {
      expect(out).not.toMatch(UNSAFE);
      expect(out).toMatch(/U\+202E/);
    }
  });

  it('kb check prints bundle names, files and lines escaped', () => {
    const text = formatKbCheck({
      entries: 1,
      noisy: [{ id: 'x', bundle: `b\u001b[2J${HOSTILE}`, score: 0.9, lines: [{ file: `f\u202e.log`, line: 3, text: HOSTILE, score: 0.9, knownLine: 'k' }] }],
      unmatched: [],
      matched: [],
      unreadable: [{ bundle: `u\u0007`, message: `m\u001b[1m` }],
    });
    expect(text).not.toMatch(UNSAFE);
  });
});

describe('reports of a bundle whose host and unit names carry controls', () => {
  it('analyze (every format) and inspect hold none of them', () => {
    const files = { ...bundleFiles() };
    const host = `master\u202Eevil`;
    files[`control-plane/10.0.0.9/network/hostname.txt`] = `${host}\n`;
    files[`control-plane/10.0.0.9/journals/kubelet.log`] = `Nov 22 10:20:00 ${host} kubelet.sh[2519]: E1122 10:20:00.000000    2519 kubelet.go:1] "failed" err="${HOSTILE} connection refused"\n`;
    const bundle = writeTree(tempDir('bootlens-bidi-'), ROOT, files);
    for (const args of [['analyze', bundle, '-f', 'md'], ['analyze', bundle, '-f', 'html'], ['analyze', bundle, '-f', 'junit'], ['analyze', bundle, '--wide'], ['inspect', bundle, '--wide']]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
      expect([0, 1], args.join(' ')).toContain(r.status);
      expect(r.stdout, args.join(' ')).toContain('U+202E');
      expect(r.stdout, args.join(' ')).not.toMatch(UNSAFE);
    }
  });
});

describe('a folder read', () => {
  it('opens a file once and reads it only if what it opened is a regular file: a FIFO or a link in its place is not read', async () => {
    const dir = tempDir('bootlens-open-');
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(await openRegularFile(fifo)).toMatch(/no longer a regular file/);
    symlinkSync('/etc/hostname', join(dir, 'link'));
    expect(await openRegularFile(join(dir, 'link'))).toMatch(/replaced by a link/);
    mkdirSync(join(dir, 'sub'));
    expect(await openRegularFile(join(dir, 'sub'))).toMatch(/no longer a regular file/);
    writeFileSync(join(dir, 'file'), 'text');
    const handle = await openRegularFile(join(dir, 'file'));
    expect(typeof handle).not.toBe('string');
    if (typeof handle !== 'string') await handle.close();
  });

  it('of a bundle whose journal is a FIFO ends, the FIFO not read', async () => {
    const bundle = writeTree(tempDir('bootlens-fifo-'), ROOT, bundleFiles());
    const journal = join(bundle, 'bootstrap', 'journals', 'crio.log');
    expect(spawnSync('mkfifo', [journal]).status).toBe(0);
    const read = await readBundle(bundle);
    expect(read.bootstrap?.journals.crio).toBeUndefined();
    expect(read.bootstrap?.journals.bootkube).toBeDefined();
  });
});
