// masters-unreachable quotes the lines its message speaks of: the ssh failures, not the errors
// `oc` printed while gathering resources from an API that did not answer.
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const GATHER = [
  'Gathering bootstrap systemd summary ...',
  'Gathering cluster resources ...',
  'Unable to connect to the server: dial tcp: lookup api-int.ocp4.example.com on 10.0.0.1:53: no such host',
  'Unable to connect to the server: dial tcp: lookup api-int.ocp4.example.com on 10.0.0.1:53: no such host',
  'Unable to connect to the server: dial tcp: lookup api-int.ocp4.example.com on 10.0.0.1:53: no such host',
  'Waiting for logs ...',
  'Gather remote logs',
  'Collecting info from 10.0.0.5',
  'ssh: connect to host 10.0.0.5 port 22: No route to host',
  'lost connection',
  'Collecting info from 10.0.0.6',
  'ssh: connect to host 10.0.0.6 port 22: No route to host',
  'Log bundle written to /var/home/core/log-bundle-20261122111800.tar.gz',
].join('\n') + '\n';

describe('masters-unreachable', () => {
  it('cites the ssh failures, not the resource gather\'s API errors', async () => {
    const dir = writeTree(tempDir(), ROOT, {
      'gather.log': GATHER,
      'bootstrap/journals/kubelet.log': 'Nov 22 10:13:40 bootstrap systemd[1]: Started Kubernetes Kubelet.\n',
    });
    const r = await analyzeBundle(dir, { rules: loadRules().rules.filter((x) => x.meta.id === 'masters-unreachable'), version: 'test' });
    const f = r.findings.find((x) => x.ruleId === 'masters-unreachable');
    expect(f?.message).toBe('SSH to 10.0.0.5, 10.0.0.6 failed; no master logs were gathered');
    expect(f?.evidence.map((e) => e.text)).toEqual(['ssh: connect to host 10.0.0.5 port 22: No route to host', 'lost connection', 'ssh: connect to host 10.0.0.6 port 22: No route to host']);
  });
});
