// `npm run result-fixtures`: writes test/fixtures/results/*.json, the analysis results the
// formatter tests render, from the fixture bundles by the real code. Run it when the result
// model changes on purpose, and read the diff.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeFailed, analyzeHealthy } from '../test/report/results.js';

const dir = join(process.cwd(), 'test/fixtures/results');
for (const [name, make] of [['failed', analyzeFailed], ['healthy', analyzeHealthy]] as const) {
  const result = await make();
  // Paths of the temporary folders the bundles were written to change every run.
  const stable = JSON.parse(JSON.stringify(result).replace(/\/tmp\/bootlens-[^"/]*\//g, '/tmp/'));
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(stable, null, 2)}\n`);
  console.log(`test/fixtures/results/${name}.json: ${result.verdict.status}${result.verdict.stage ? ` at ${result.verdict.stage}` : ''}`);
}
