// The Indexed Job manifest against the Kubernetes OpenAPI schema of batch/v1 Job (compiled by the
// kubernetes-models package; offline), and its stated requirements beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { Job } from 'kubernetes-models/batch/v1';
import { describe, expect, it } from 'vitest';

const DIR = join(process.cwd(), 'deploy', 'k8s');
const text = readFileSync(join(DIR, 'triage-indexed-job.yaml'), 'utf8');

/** The schema's complaint about a manifest, or '' when it conforms. */
function complaint(doc: unknown): string {
  try {
    new Job(doc as ConstructorParameters<typeof Job>[0]).validate();
    return '';
  } catch (err) {
    return String((err as Error).message);
  }
}

function edited(edit: (job: { spec: Record<string, unknown> & { template: { spec: { containers: Record<string, unknown>[] } } } }) => void): unknown {
  const job = yaml.load(text) as Parameters<typeof edit>[0];
  edit(job);
  return job;
}

describe('deploy/k8s/triage-indexed-job.yaml', () => {
  it('is a batch/v1 Job the Kubernetes OpenAPI schema accepts', () => {
    const doc = yaml.load(text) as { apiVersion: string; kind: string; spec: { backoffLimitPerIndex: number; completionMode: string } };
    expect(doc).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', spec: { completionMode: 'Indexed', backoffLimitPerIndex: 1 } });
    expect(complaint(doc)).toBe('');
  });

  it('the schema refuses what a cluster would: a wrong type, a value outside an enum, a container without a name', () => {
    expect(complaint(edited((j) => void (j.spec.parallelism = 'eight')))).toMatch(/parallelism/);
    expect(complaint(edited((j) => void (j.spec.completionMode = 'Sometimes')))).toMatch(/completionMode/);
    expect(complaint(edited((j) => void (j.spec.backoffLimitPerIndex = '1')))).toMatch(/backoffLimitPerIndex/);
    expect(complaint(edited((j) => void delete j.spec.template.spec.containers[0].name))).toMatch(/name/);
  });

  it('states the Kubernetes version and the volume access modes it needs, beside it', () => {
    const readme = readFileSync(join(DIR, 'README.md'), 'utf8');
    expect(text).toMatch(/Kubernetes 1\.29 or later for `backoffLimitPerIndex`/);
    expect(text).toMatch(/ReadWriteMany results volume/);
    expect(readme).toMatch(/Kubernetes 1\.29 or later/);
    expect(readme).toMatch(/`ReadWriteMany` volume for results/);
  });
});
