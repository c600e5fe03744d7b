// `npm run reports`: writes reports/<scenario>.md and .html from a few sample bundles, so a visitor sees bootlens's output without installing it.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyzeBundle } from '../src/analysis/analyze.js';
import { VERSION } from '../src/cli/version.js';
import { redactDeep } from '../src/redact/redact.js';
import { renderHtml } from '../src/report/html.js';
import { renderMarkdownReport } from '../src/report/markdown.js';
import { mdCell, mdCode } from '../src/report/escape.js';
import { verdictHeadline } from '../src/report/summary.js';
import { loadRules } from '../src/rules/load-rules.js';
import { packageRoot } from '../src/util/package-root.js';

/** A sample: its scenario folder's name and its bundle. */
export interface Sample {
  scenario: string;
  bundle: string;
}

export interface MakeReportsOptions {
  /** Folder of `<scenario>/log-bundle-*.tar.gz` samples. */
  samplesDir: string;
  /** Where the reports go (created when missing). */
  outDir: string;
  /** Scenarios to report on; default: the first `count`, sorted by name. */
  scenarios?: string[];
  count?: number;
  /** Rules folder; default: the shipped rules. */
  rulesDir?: string;
  version?: string;
}

const BUNDLE = /^log-bundle-.*\.(?:tar\.gz|tgz|tar|zip)$/;
/** What this script writes, so it only ever removes its own old reports. */
const OWN_MD = /^# bootlens: /;
const OWN_HTML = /<meta name="generator" content="bootlens /;

/** Every scenario folder holding a bundle, sorted by scenario; its first bundle by name. */
export function findSamples(samplesDir: string): Sample[] {
  if (!existsSync(samplesDir)) return [];
  const out: Sample[] = [];
  for (const scenario of readdirSync(samplesDir).sort()) {
    const dir = join(samplesDir, scenario);
    if (!statSync(dir).isDirectory()) continue;
    const bundle = readdirSync(dir).sort().find((f) => BUNDLE.test(f));
    if (bundle) out.push({ scenario, bundle: join(dir, bundle) });
  }
  return out;
}

function isOwnReport(file: string): boolean {
  const head = readFileSync(file, 'utf8').slice(0, 2000);
  return file.endsWith('.md') ? OWN_MD.test(head) : OWN_HTML.test(head);
}

/** Analyzes the chosen samples (secrets redacted) and writes their reports and an index; returns the files written. */
export async function makeReports(opts: MakeReportsOptions): Promise<string[]> {
  const all = findSamples(opts.samplesDir);
  if (all.length === 0) throw new Error(`no sample bundles under ${opts.samplesDir}/<scenario>/ (npm run samples writes them)`);
  const chosen = opts.scenarios?.length
    ? opts.scenarios.map((name) => {
        const s = all.find((x) => x.scenario === name);
        if (!s) throw new Error(`no sample '${name}'; there are: ${all.map((x) => x.scenario).join(', ')}`);
        return s;
      })
    : all.slice(0, opts.count ?? 3);
  const { rules } = loadRules(opts.rulesDir);
  mkdirSync(opts.outDir, { recursive: true });
  const written: string[] = [];
  const rows: string[] = [];
  for (const s of chosen) {
    // Exactly what `bootlens analyze <bundle> --format md|html` prints: shipped rules, redacted.
    // As `bootlens analyze` runs by default: with lexical similarity.
    const result = redactDeep(await analyzeBundle(s.bundle, { rules, version: opts.version ?? VERSION, similarity: { mode: 'lexical' } }));
    const md = join(opts.outDir, `${s.scenario}.md`);
    const page = join(opts.outDir, `${s.scenario}.html`);
    writeFileSync(md, renderMarkdownReport([result]));
    writeFileSync(page, renderHtml(result));
    written.push(md, page);
    rows.push(`| ${mdCell(s.scenario)} | ${mdCode(basename(s.bundle))} | ${mdCell(verdictHeadline(result))} | [${s.scenario}.md](${encodeURI(`${s.scenario}.md`)}) | [${s.scenario}.html](${encodeURI(`${s.scenario}.html`)}) |`);
  }
  // Reports of samples no longer chosen would go stale: remove this script's own old output only.
  for (const f of readdirSync(opts.outDir)) {
    const full = join(opts.outDir, f);
    if (/\.(md|html)$/.test(f) && f !== 'README.md' && !written.includes(full) && isOwnReport(full)) rmSync(full);
  }
  const index = join(opts.outDir, 'README.md');
  writeFileSync(
    index,
    [
      '# Sample reports',
      '',
      'What `bootlens analyze <bundle> --format md` and `--format html` print for a few of the sample bundles',
      'in [`samples/`](../samples/), secrets redacted. `npm run reports` writes them again; the output is',
      'deterministic, so a diff shows what a change to the rules or the reporters did. The HTML reports are',
      'single files with no network access: download one and open it in a browser.',
      '',
      '| Scenario | Bundle | Verdict | Markdown | HTML |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
  written.push(index);
  return written;
}

async function main(argv: string[]): Promise<number> {
  const root = packageRoot();
  try {
    const written = await makeReports({ samplesDir: join(root, 'samples'), outDir: join(root, 'reports'), scenarios: argv });
    for (const f of written) process.stdout.write(`wrote ${f.slice(root.length + 1)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`make-reports: ${(err as Error).message}\n`);
    return 1;
  }
}

// Run as a script (`node dist/scripts/make-reports.js [scenario...]`), not when a test imports it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

