// The checked-in results the formatter tests render: valid reports of schema v1, and what the
// formatter tests assume of them (a failure at bootstrap-etcd with evidence context; a healthy run).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaValidator } from '../../src/util/schema.js';
import { failedResult, healthyResult } from './results.js';

describe('result fixtures', () => {
  const validate = schemaValidator('report-v1.schema.json');

  it.each(['failed', 'healthy'])('%s.json is a report of schema v1', (name) => {
    const doc: unknown = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/results', `${name}.json`), 'utf8'));
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });

  it('hold a failure with evidence and context, and a healthy run', async () => {
    const failed = await failedResult();
    expect(failed.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd' });
    expect(failed.findings.some((f) => f.evidence.some((e) => (e.before?.length ?? 0) > 0))).toBe(true);
    expect((await healthyResult()).verdict.status).toBe('healthy');
  });
});
