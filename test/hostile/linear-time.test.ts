// Super-linear paths: every shipped regex (YAML rules, the signatures table, the
// specs', parsers' and reader's own) finishes on adversarial lines generated here from its own pieces;
// rules lint names a user rule whose regex backtracks; service records parse in linear time.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseServiceRecords } from '../../src/parsers/service-records.js';
import { redactionPatterns } from '../../src/redact/redact.js';
import { defaultRulesDir, loadRules } from '../../src/rules/load-rules.js';
import { compileMatcher, isCatastrophic } from '../../src/rules/matcher.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import { MATCH_WINDOW } from '../../src/text/match-window.js';
import { tempDir } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

interface Shipped {
  where: string;
  re: RegExp;
}

/** Regex literals of the TypeScript files of a folder, read with the compiler's own scanner. */
function regexLiterals(dir: string): Shipped[] {
  const out: Shipped[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const file = join(dir, name);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(sf);
        const end = text.lastIndexOf('/');
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        out.push({ where: `${file}:${line}`, re: new RegExp(text.slice(1, end), text.slice(end + 1).replace(/[gy]/g, '')) });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

function shippedRegexes(): Shipped[] {
  const out: Shipped[] = [];
  for (const e of shippedCatalogue().entries) {
    for (const re of [...e.forms.map((f) => f.regex), e.when, e.unless]) if (re) out.push({ where: `catalogue entry ${e.id}`, re: new RegExp(re.source, re.flags) });
  }
  out.push(...regexLiterals('src/specs'), ...regexLiterals('src/parsers'), ...regexLiterals('src/ingest'), ...regexLiterals('src/redact'), ...regexLiterals('src/report'));
  for (const re of redactionPatterns()) out.push({ where: 'src/redact pattern', re: new RegExp(re.source, re.flags.replace(/[gy]/g, '')) });
  return out;
}

/** Runs of plain characters in a regex source (`docker://`, ` in `, `Mirrors also failed: [`). */
function literalPieces(source: string): string[] {
  const pieces: string[] = [];
  let run = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\' && i + 1 < source.length) {
      const e = source[++i];
      if (/[^A-Za-z0-9]/.test(e)) run += e;
      else {
        if (run.length >= 1) pieces.push(run);
        run = '';
      }
    } else if ('^$.|?*+()[]{}'.includes(c)) {
      if (run.length >= 1) pieces.push(run);
      run = '';
    } else run += c;
  }
  if (run) pieces.push(run);
  return [...new Set(pieces)];
}

// Pumps of the attacks the checker (recheck) found on the shipped regexes before they were
// rewritten, and characters most classes hold.
const PUMPS = ['tk', 'tc', '/s', '/I', ':2379i', 'userender', 'writeb', '"msg', 'https://2', 'system:node:', ': ', ':', '\t', ' ', 'a', '0', '-', '.', '"', '\\"', '@', '/', 'A-', 'a=', '"a":"', 'a: '];
const ENDS = ['\x00', '\t', ''];

/**
 * The attack strings recheck found on the shipped regexes (rules, signatures, parsers) before
 * they were rewritten, as [prefix, pump, suffix]; every regex is fed every one of them.
 */
const CHECKER_ATTACKS: [string, string, string][] = [
  ["Waiting up to ) to W","\t","\u0000"],
  ["\"\"","\t",",\""],
  ["\ninet\n6","6","\n"],
  ["","@","\n@"],
  ["","bConsuming m","\n"],
  ["0",":","\t"],
  ["","#","\n#"],
  ["\u0000\n\u0000\n\u0000\t\u0000\t","\t","\t\u0000\n"],
  ["*\t\u0000\t-\n","\t","\t-\n-\t"],
  ["","(Result: e",""],
  ["","eyJJ-e-","\u0000"],
  ["","A+",""],
  ["","\u000b","\u0000\t"],
  ["","\n","\u0000\n"],
  ["","slookup D on N: d","\n"],
  ["U","E\u0000407\u0000F","\n"],
  ["Z","EUNAUTHORIZED0","\n"],
  ["","CEXCEEDED \u0000","\n"],
  ["","IREADING MANIFEST Y","\t"],
  ["","ETCD MEMBER Q","\n"],
  ["","CMACHINECONFIG.MACHINECONFIGURATION.OPENSHIFT.IO \"0",""],
  ["","MTU O","\n"],
  ["","EGET ERROR: ","\n"],
  ["","FKUBELET-SERVING0","\n"],
  ["","Ris not available in l","\t"],
  ["","ERROR WAITING FOR INSTANCE Z","\n"],
  ["","NAME \" \" IS I","."],
  ["","\t","\u0000\t:"],
  ["",")","\u0000)"],
  ["addrConn.createTransport failed to connect to {{",":2379i","\n"],
  ["","https://2","\n"],
  ["","\"msg\":\"prober detected unhealthy status\"\"remote-peer-id\":\"b\"b","}"],
  ["",":6443x509","\n"],
  ["","Unable to register node with API server\"","\n"],
  ["","tc","\u0000"],
  ["","openshift-sdn/n p","\u0000"],
  ["initializing source docker://i","tk","\t"],
  ["","Mirrors also failed: [reading manifest r","\t"],
  ["OpenImage: reading manifest 0 in w","/s","\t"],
  ["","Mirrors also failed: [e","]"],
  ["","dinitializing source docker://]x","\ter://a\t"],
  ["","Mirrors also failed: [dial tcp: lookup u: read udp /","\t"],
  ["initializing source docker://I","nz","\t"],
  ["","Mirrors also failed: [pinging docker registry b","\t"],
  ["initializing source docker://u","so","\t"],
  ["","Mirrors also failed: [reading manifest i in M","\t"],
  ["OpenImage: reading manifest \" in \"","/I","\t"],
  ["","writeb","\n"],
  ["creating container storage: the container name \"","userender","use"],
  ["","system:node:",""],
  ["","FailedCreate: :: reconciler failed to Create machine: do not have sufficient A","\n"],
];

/** The reader cuts lines at 64 KiB: the longest line any regex can be given. */
const LONGEST_LINE = 64 * 1024;

/**
 * Lines built from the regex's own pieces, of MATCH_WINDOW characters (what a rule's regex sees
 * at most), and the checker's attacks at `attackLength`.
 */
function adversarialLines(source: string, attackLength: number): string[] {
  const pieces = literalPieces(source);
  const prefix = pieces[0] ?? '';
  const fill = (head: string, pump: string, end: string, length = MATCH_WINDOW): string => head + (pump || 'a').repeat(Math.max(1, Math.floor((length - head.length - end.length) / (pump || 'a').length))) + end;
  const lines: string[] = [];
  for (const p of [...pieces.slice(0, 8), ...PUMPS]) for (const end of ENDS.slice(0, 2)) lines.push(fill(prefix, p, end));
  // The whole skeleton repeated: each repetition opens the pattern again (mirror lists).
  lines.push(fill('', pieces.join(' '), ENDS[0]), fill('', pieces.join(''), ENDS[1]), fill('', pieces.join('a'), ENDS[2]));
  for (const [head, pump, end] of CHECKER_ATTACKS) lines.push(fill(head, pump, end, attackLength));
  return lines;
}

describe('every shipped regex runs in linear time', () => {
  const all = shippedRegexes();

  it('finds the rules, catalogue, specs and parsers regexes', () => {
    expect(all.filter((s) => s.where.startsWith('catalogue entry ')).length).toBeGreaterThan(50);
    expect(all.filter((s) => s.where.startsWith('src/parsers')).length).toBeGreaterThan(80);
    expect(all.filter((s) => s.where.startsWith('src/specs')).length).toBeGreaterThan(20);
    expect(all.filter((s) => s.where.startsWith('src/redact')).length).toBeGreaterThan(30);
  });

  it('each finishes every adversarial line in bounded time', () => {
    const slow: string[] = [];
    for (const { where, re } of all) {
      // The catalogue's regexes (the rules' own) get the checker's attacks at the longest line the
      // reader hands over (the were 60 KB); so does the redactor, which reads whole lines;
      // the parsers' regexes at MATCH_WINDOW.
      const lines = adversarialLines(re.source, where.startsWith('catalogue entry ') || where.startsWith('src/redact') ? LONGEST_LINE : MATCH_WINDOW);
      let worst = 0;
      for (const line of lines) {
        const start = performance.now();
        re.test(line);
        worst = Math.max(worst, performance.now() - start);
      }
      // Generous, so a loaded CI machine cannot fail it: a linear regex scans one of these lines
      // in about a millisecond; the quadratic ones this replaced took seconds (9 s on 60 KB).
      if (worst > 1000) slow.push(`${where} /${re.source.slice(0, 80)}/ ${Math.round(worst)} ms`);
    }
    expect(slow).toEqual([]);
  });

  it('the issue\'s attack lines finish through the rules\' matchers on 60 KB lines', () => {
    const attacks = [
      'Error: initializing source docker://i' + 'tk'.repeat(30_000) + '\t',
      'tc'.repeat(30_000) + '\x00',
      'Error: OpenImage: reading manifest " in "' + '/I'.repeat(30_000) + '\t',
      'Mirrors also failed: [reading manifest r'.repeat(1_500) + '\t',
      'creating container storage: the container name "' + 'userender'.repeat(6_500) + 'use',
    ];
    const matchers = loadRules().rules.flatMap((r) => r.filters).filter((f) => f.pattern !== undefined).map((f) => compileMatcher({ regex: (f.pattern as RegExp).source, flags: (f.pattern as RegExp).flags }));
    const start = performance.now();
    let fired = 0;
    for (const line of attacks) for (const m of matchers) if (m.test(line)) fired++;
    expect(fired).toBe(0);
    expect(performance.now() - start).toBeLessThan(3000);
  });

  it('the load guard reads a crafted source in one pass', () => {
    expect(isCatastrophic('(a+)+b')).toBe(true);
    expect(isCatastrophic('(?:x|y)*z')).toBe(false);
    const crafted = '(\\'.repeat(50_000) + '(*\\'.repeat(50_000);
    const start = performance.now();
    isCatastrophic(crafted);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});

describe('rules lint runs the ReDoS checker', () => {
  it('fails on a user rule whose message regex backtracks super-linearly, naming the entry and the attack', () => {
    // A user's rules folder with its own catalogue: the shipped rule and the one entry it reports.
    const entry = shippedCatalogue().byId.get('bootstrap-unit-oom-killed');
    const catalogueText = (regex: string): string =>
      `program: systemd and the kernel\nrepository: torvalds/linux\nentries:\n${yaml.dump([{ id: entry?.id, title: entry?.title, role: entry?.role, form: regex, origin: entry?.forms[0].origin, stage: entry?.stage, category: entry?.category, severity: entry?.severity, fix: entry?.fix, says: entry?.says, examples: entry?.examples.map((x) => ({ line: x.line })) }], { lineWidth: -1 }).replace(/^/gm, '  ')}`;
    const folder = (regex: string): string => {
      const dir = tempDir('bootlens-lint-');
      mkdirSync(join(dir, 'node-runtime'));
      mkdirSync(join(dir, 'catalogue'));
      copyFileSync(join(defaultRulesDir(), 'node-runtime', 'bootstrap-unit-oom-killed.yaml'), join(dir, 'node-runtime', 'bootstrap-unit-oom-killed.yaml'));
      writeFileSync(join(dir, 'catalogue', 'oom.yaml'), catalogueText(regex));
      return dir;
    };
    const shippedForm = entry?.forms[0].regex.source ?? '';
    const good = spawnSync(process.execPath, [CLI, 'rules', 'lint', '--rules', folder(shippedForm)], { encoding: 'utf8', timeout: 120_000 });
    expect(good.stdout, good.stderr).toContain('no problems');
    expect(good.status).toBe(0);
    // The form the entry had before: the unit name may start anywhere in a word.
    const before = shippedForm.replace('(?<![\\w@.-])(?<unit>', '(?<unit>');
    expect(before).not.toBe(shippedForm);
    const r = spawnSync(process.execPath, [CLI, 'rules', 'lint', '--rules', folder(before)], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(1);
    const line = r.stdout.split('\n').find((l) => l.includes('backtracks super-linearly'));
    expect(line).toMatch(/catalogue entry bootstrap-unit-oom-killed: regex .* backtracks super-linearly \(.*polynomial.*\) on input like .*\.repeat\(\d+\)/);
  });
});

describe('service records are parsed in linear time', () => {
  it('200k stage ends without a start become 200k stages', () => {
    const entries = Array.from({ length: 200_000 }, (_, i) => `{"timestamp":"2026-11-22T10:15:04Z","phase":"stage end","stage":"wait-for-etcd","result":"${i % 2 ? 'success' : 'failure'}"}`);
    const text = `[\n${entries.join(',\n')}\n]\n`;
    const start = performance.now();
    const r = parseServiceRecords(text, { file: 'bootstrap/services/bootkube.json' }, 'bootkube');
    const ms = performance.now() - start;
    expect(r.value.entries).toHaveLength(200_000);
    expect(r.value.runs).toHaveLength(1);
    expect(r.value.runs[0].stages).toHaveLength(200_000);
    expect(r.value.runs[0].stages[199_999].result).toBe('success');
    // Quadratic, this took about a minute; linear, well under a second.
    expect(ms).toBeLessThan(15_000);
  });

  it('an end still closes the newest open stage of its name', () => {
    const text = JSON.stringify([
      { phase: 'stage start', stage: 'a' },
      { phase: 'stage start', stage: 'b' },
      { phase: 'stage start', stage: 'a' },
      { phase: 'stage end', stage: 'a', result: 'failure' },
      { phase: 'stage end', stage: 'a', result: 'success' },
      { phase: 'stage end', stage: 'a', result: 'success' },
    ]);
    const stages = parseServiceRecords(text, { file: 'x.json' }, 'x').value.runs[0].stages;
    expect(stages.map((s) => [s.name, s.result ?? '-'])).toEqual([
      ['a', 'success'],
      ['b', '-'],
      ['a', 'failure'],
      ['a', 'success'],
    ]);
  });
});
