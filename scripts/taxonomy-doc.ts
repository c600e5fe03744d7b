// `node dist/scripts/taxonomy-doc.js`: writes docs/taxonomy.md from src/taxonomy.ts, the one
// source of stage and category ids (test/architecture/taxonomy.test.ts fails when they differ).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATEGORY_TABLE, RECORDED_STAGES, STAGE_TABLE } from '../src/taxonomy.js';

/** A table cell: a pipe would end the cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`.replace(/ +\|$/, ' |'))];
}

/** The text of docs/taxonomy.md. */
export function renderTaxonomyDoc(): string {
  const stages = STAGE_TABLE.map((s, i) => [String(i + 1), `\`${s.id}\``, s.title, s.installStep, s.happens, s.shownBy, s.home]);
  const categories = CATEGORY_TABLE.map((c) => [`\`${c.id}\``, c.meaning, c.typicalEvidence]);
  const recorded = RECORDED_STAGES.map((r) => [
    `\`${r.service}\``,
    r.recorded === '*' ? 'any' : `\`${r.recorded}\``,
    `\`${r.stage}\`${r.beforeApi ? ` (\`${r.beforeApi}\` while the bootstrap API never answered)` : ''}`,
    r.note ?? '',
  ]);
  return [
    '# Bootstrap stages and root-cause categories',
    '',
    '<!-- Generated from src/taxonomy.ts by `node dist/scripts/taxonomy-doc.js`: edit that module, not this file. -->',
    '',
    'The vocabulary of bootlens: the JSON report, the rules, the knowledge base, the samples and',
    'every test speak these ids and no others. A new id is added in `src/taxonomy.ts` (then this',
    'file is regenerated and the schemas\' enums updated: a test fails until they agree).',
    '',
    '## Stages, in the order an installation passes them',
    '',
    'The ten steps of the installation process map onto eleven stages that can be told apart from',
    'what a log bundle holds. "Runs on" places a stage the timeline gave no host.',
    '',
    ...table(['#', 'stage id', 'done when', 'install step', 'what happens', 'where a bundle shows it', 'runs on'], stages),
    '',
    'A verdict names the **earliest stage that did not complete**. Stages after it are',
    '`not-reached`; a stage with no evidence either way is `unknown`, never `ok`.',
    '',
    '## Root-cause categories',
    '',
    ...table(['category id', 'meaning', 'typical evidence'], categories),
    '',
    '## Service-record stages → taxonomy stages',
    '',
    'The bootstrap services record their progress as JSON (`bootstrap/services/<service>.json`).',
    "Their own stage names map onto the taxonomy like this (names from the installer's",
    '`bootkube.sh` template and its sibling scripts; the first row that matches decides). A release',
    'may add or rename stages: an unknown name is reported, not guessed. bootkube\'s service end',
    'with `success` (its journal\'s "bootkube.service complete") is `bootstrap-complete`.',
    '',
    ...table(['service', 'recorded stage', 'taxonomy stage', 'note'], recorded),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = resolve(import.meta.dirname, '..', '..', 'docs', 'taxonomy.md');
  writeFileSync(out, renderTaxonomyDoc());
  console.log(`wrote ${out}`);
}
