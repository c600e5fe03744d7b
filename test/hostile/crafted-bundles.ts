// Small hostile bundles made by the tests that use them (issue 29's red-team cases): each is a
// real bundle folder, packed where a case needs an archive.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleFiles, GATHER_ID, ROOT, writeTree } from '../support/fixture-bundle.js';
import { rawTar, type RawEntry } from '../support/raw-tar.js';

/** The names every plain object already has: a bundle may call a unit, a host or an operator that. */
export const PROTO_NAMES = ['constructor', '__proto__', 'toString'] as const;

const HEX = 'a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';

function failingRecord(stage: string): string {
  return [
    '[',
    '{"timestamp":"2026-11-22T10:13:50Z","phase":"service start","__proto__":{"polluted":true}},',
    `{"timestamp":"2026-11-22T10:14:00Z","phase":"stage start","stage":"${stage}"},`,
    `{"timestamp":"2026-11-22T10:14:40Z","phase":"stage end","stage":"${stage}","result":"failure","errorMessage":"error: ${stage} failed: connection refused"},`,
    '{"timestamp":"2026-11-22T10:14:41Z","phase":"service end","result":"failure"}',
    ']',
  ].join('\n');
}

/**
 * A bundle where every name a table is looked up by — units, services, unit-status files, journal
 * identifiers, containers and their CRI state, a master's folder, operators, pods, namespaces,
 * nodes, CSRs, JSON keys — is `constructor`, `__proto__` or `toString`, beside the fixture's own.
 */
export function protoNamesBundle(root: string): string {
  const files: Record<string, string> = { ...bundleFiles() };
  for (const name of PROTO_NAMES) {
    files[`bootstrap/journals/${name}.log`] = [
      `Nov 22 10:14:00 bootstrap systemd[1]: Starting ${name}.service...`,
      `Nov 22 10:14:10 bootstrap ${name}[4242]: error: ${name} could not reach https://api-int.example.com:6443: connection refused`,
      `Nov 22 10:14:11 bootstrap systemd[1]: ${name}.service: Failed with result 'exit-code'.`,
      '',
    ].join('\n');
    files[`bootstrap/services/${name}.json`] = failingRecord(name);
    files[`bootstrap/unit-status/${name}.service.txt`] = `× ${name}.service - ${name}\n     Loaded: loaded\n     Active: failed (Result: exit-code) since Sun 2026-11-22 10:14:11 UTC; 1h ago\n`;
    files[`bootstrap/unit-status/${name}.service.log`] = files[`bootstrap/journals/${name}.log`];
    files[`bootstrap/containers/${name}-${HEX.slice(0, 20)}${PROTO_NAMES.indexOf(name)}.log`] = `${name}: error: failed to start: exit status 1\n`;
    files[`bootstrap/containers/${name}-${HEX.slice(0, 20)}${PROTO_NAMES.indexOf(name)}.inspect`] = JSON.stringify({
      status: { id: `${HEX.slice(0, 20)}${PROTO_NAMES.indexOf(name)}`, metadata: { name, attempt: 2 }, state: name, exitCode: 1, reason: name, labels: { [name]: name, 'io.kubernetes.pod.namespace': name } },
    });
    files[`control-plane/${name}/journals/kubelet.log`] = `Nov 22 10:20:00 ${name} kubelet.sh[2519]: E1122 10:20:00.000000    2519 kubelet.go:1] "${name}" err="connection refused"\n`;
    files[`control-plane/${name}/journals/${name}.log`] = `Nov 22 10:20:00 ${name} ${name}[1]: error: ${name} failed\n`;
    files[`control-plane/${name}/failed-units.txt`] = `  UNIT LOAD ACTIVE SUB DESCRIPTION\n* ${name}.service loaded failed failed ${name}\n1 loaded units listed.\n`;
    files[`bootstrap/network/${name}`] = `${name}\n`;
  }
  const operator = (name: string): object => ({
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name },
    status: { conditions: [{ type: 'Degraded', status: 'True', reason: name, message: `${name} is degraded`, lastTransitionTime: '2026-11-22T10:50:00Z' }] },
  });
  files['resources/clusteroperators.json'] = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: PROTO_NAMES.map(operator) });
  files['resources/pods.json'] = JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: PROTO_NAMES.map((name) => ({
      metadata: { name, namespace: name },
      spec: { nodeName: name },
      status: { phase: 'Pending', containerStatuses: [{ name, restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff', message: name } } }] },
    })),
  });
  files['resources/nodes.json'] = JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: PROTO_NAMES.map((name) => ({ metadata: { name, labels: { [name]: '' } }, status: { conditions: [{ type: name, status: 'False' }, { type: 'Ready', status: 'False', reason: name }] } })),
  });
  files['resources/csr.json'] = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: PROTO_NAMES.map((name) => ({ metadata: { name }, spec: { signerName: name, username: name }, status: {} })) });
  return writeTree(root, ROOT, files);
}

/** The fixture bundle under another gather id (`log-bundle-<id>`). */
export function bundleWithGatherId(root: string, gatherId: string): string {
  return writeTree(root, ROOT.replace(GATHER_ID, gatherId), bundleFiles());
}

/**
 * A static pod manifest of about 200 KB whose one container, its arguments 200 KB, is repeated
 * by `copies` aliases (under the alias limit): `copies` × 200 KB once the model copies each
 * container. `anchor` names the anchors (`$m` was not counted as one).
 */
export function aliasBombManifest(anchor = 'c', copies = 60): string {
  const arg = JSON.stringify('--x='.padEnd(1000, 'x'));
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: etcd-bootstrap-member',
    '  namespace: openshift-etcd',
    'spec:',
    '  containers:',
    `  - &${anchor}`,
    '    name: etcd',
    '    image: quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2222222222222222222222222222222222222222222222222222222222222222',
    `    args: [${Array.from({ length: 200 }, () => arg).join(', ')}]`,
    ...Array.from({ length: copies }, () => `  - *${anchor}`),
    '',
  ].join('\n');
}

/** The fixture bundle with its etcd static pod manifest replaced by `manifest`. */
export function manifestBundle(root: string, manifest: string): string {
  return writeTree(root, ROOT, { ...bundleFiles(), 'rendered-assets/openshift/etcd-bootstrap/bootstrap-manifests/etcd-member-pod.yaml': manifest });
}

/**
 * A tar.gz of the fixture bundle plus `count` container logs of one line (`line`, empty by
 * default) on the bootstrap host: every walk over containers or logs must be linear in them.
 */
export function manyContainersBundle(count: number, line = ''): Buffer {
  const entries: RawEntry[] = Object.entries(bundleFiles()).map(([path, content]) => ({ path: `${ROOT}/${path}`, content }));
  for (let i = 0; i < count; i++) {
    const id = i.toString(16).padStart(12, '0');
    entries.push({ path: `${ROOT}/bootstrap/containers/c${i}-${id}.log`, content: line });
  }
  return gzipSync(rawTar(entries));
}

/** A journal line a backtracking user rule (`hangingRulesDir`) never finishes with. */
export const HANGING_LINE = `Nov 22 10:15:05 bootstrap bootkube.sh[2507]: x${'a'.repeat(60)}b`;

/** The fixture bundle with `HANGING_LINE` in bootkube's journal. */
export function hangingBundle(root: string, name = ROOT): string {
  const files = bundleFiles();
  return writeTree(root, name, { ...files, 'bootstrap/journals/bootkube.log': `${files['bootstrap/journals/bootkube.log']}${HANGING_LINE}\n` });
}

/** A user catalogue file (`program`, `repository` and the entries' YAML) for a rules folder's own catalogue. */
export function userCatalogue(entries: string): string {
  return `program: a user's rules\nrepository: example/user-rules\nentries:\n${entries}`;
}

/** A user catalogue entry matching `regex` on bootkube's journal, and its finding text. */
export function userEntry(id: string, regex: string, says = 'a run of a', fix = 'Lint user rules before using them.', example = 'xaaa'): string {
  return `  - id: ${id}
    title: A user rule under test
    role: cause
    form: ${JSON.stringify(regex)}
    origin: user-rules/${id}.yaml
    stage: render
    category: unknown
    severity: error
    fix:
      - ${JSON.stringify(fix)}
    references:
      - https://example.com/user-rule
    says: ${JSON.stringify(says)}
    examples:
      - line: ${JSON.stringify(example)}
`;
}

/** A user rule that reports the catalogue entry of its own id, on bootkube's journal, with a firing and a near-miss example. */
export function userRule(id: string): string {
  return `id: ${id}
confidence: high
sources:
  - journal: bootkube
match:
  any:
    - message: ${id}
examples:
  positive:
    - unit: bootkube
      lines:
        - 'Nov 22 10:16:01 bootstrap bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...'
  negative:
    - unit: bootkube
      lines:
        - 'Nov 22 10:16:01 bootstrap bootkube.sh[2507]: etcdctl answered.'
`;
}

/**
 * A rules folder: the shipped rules and catalogue, and one user rule whose regex passes every
 * load-time check and backtracks exponentially on `HANGING_LINE` (`rules lint` refuses it;
 * analyze does not lint).
 */
export function hangingRulesDir(root: string): string {
  const dir = join(root, 'rules');
  cpSync(join(process.cwd(), 'rules'), dir, { recursive: true });
  writeFileSync(join(dir, 'user-hanging.yaml'), userRule('user-hanging'));
  writeFileSync(join(dir, 'catalogue', 'user-hanging.yaml'), userCatalogue(userEntry('user-hanging', 'x(a|a)*$')));
  return dir;
}

/** Secrets in the forms people type, each a `[name, secret]` the redactor must remove from a line holding it. */
export const TYPED_SECRETS: readonly { line: string; secret: string }[] = [
  { line: 'curl -u admin:Hunter2pass https://registry.example.com/v2/ failed', secret: 'Hunter2pass' },
  { line: 'curl --user admin:Hunter3pass https://registry.example.com/v2/ failed', secret: 'Hunter3pass' },
  { line: 'skopeo copy --src-creds admin:Hunter4pass docker://a docker://b: error', secret: 'Hunter4pass' },
  { line: 'skopeo inspect --creds=admin:Hunter5pass docker://quay.io/x: error', secret: 'Hunter5pass' },
  { line: 'PGPASSWORD=Hunter6pass psql -h db failed', secret: 'Hunter6pass' },
  { line: 'mount failed: pass=Hunter7pass', secret: 'Hunter7pass' },
  { line: 'unlock failed: passphrase=Hunter8pass', secret: 'Hunter8pass' },
  { line: 'GET /v2/ failed: Authorization: token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' },
  { line: 'clone failed with the token ghp_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210 in the URL', secret: 'ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210' },
  { line: 'openstack auth failed: application_credential_secret: Sup3rS3cretValue9', secret: 'Sup3rS3cretValue9' },
  { line: 'keystone error: X-Auth-Token: gAAAAABk-tailOfTheToken_abc123', secret: 'tailOfTheToken_abc123' },
  { line: 'vsphere error: {"adminPassword": "Hunter9pass"}', secret: 'Hunter9pass' },
  { line: 's3 error: {"secretKey": "wJalrXUtnFEMIK7MDENG"}', secret: 'wJalrXUtnFEMIK7MDENG' },
  { line: 'config error: secret: s3cr3tValue42', secret: 's3cr3tValue42' },
];

/** A private key's body, its last line short and unpadded, as a unit printing a key writes it. */
export const KEY_BODY = ['MIIEowIBAAKCAQEAqM8R3u0sT1dNe9ZcVb2LkQ7pW5yHjX4aF6gE0iU3oP1zYxWv', 'Zm9vYmFyMQ'] as const;

/**
 * The fixture bundle with a unit whose journal prints every one of `TYPED_SECRETS` and a private
 * key one line per journal line (`KEY_BODY`), and bootkube's
 * failing etcdctl lines (the root cause's evidence, which kb add takes) ending in one of them.
 */
export function secretsBundle(root: string): string {
  const files = bundleFiles();
  const key = ['-----BEGIN RSA PRIVATE KEY-----', ...KEY_BODY, '-----END RSA PRIVATE KEY-----'].map((l) => `Nov 22 10:14:00 bootstrap.ocp4.example.com secret-user.sh[3100]: ${l}`);
  const journal = [...key, ...TYPED_SECRETS.map((s, i) => `Nov 22 10:14:${String(10 + i).padStart(2, '0')} bootstrap.ocp4.example.com secret-user.sh[3100]: error: ${s.line}`)].join('\n');
  // In every file that prints it (the journal, the unit's status and its journal copy).
  const withSecret = Object.fromEntries(Object.entries(files).map(([path, text]) => [path, text.replaceAll('etcdctl failed. Retrying in 5 seconds...', `etcdctl failed. Retrying in 5 seconds... (${TYPED_SECRETS[4].line})`)]));
  return writeTree(root, ROOT, { ...withSecret, 'bootstrap/journals/secret-user.log': `${journal}\n` });
}

/** Host and unit names with terminal escapes and bidirectional overrides, in the fixture bundle. */
export function controlNamesBundle(root: string): string {
  const files = { ...bundleFiles() };
  const host = 'master\u202Eevil\u001b]0;pwned\u0007';
  files['control-plane/10.0.0.9/network/hostname.txt'] = `${host}\n`;
  files['control-plane/10.0.0.9/journals/kubelet.log'] = `Nov 22 10:20:00 ${host} kubelet.sh[2519]: E1122 10:20:00.000000    2519 kubelet.go:1] "failed" err="\u001b[2J\u2066x\u2069 connection refused"\n`;
  return writeTree(root, ROOT, files);
}

/** One case of a hostile folder: its name, and whether it is a bundle that must analyze as the fixture does. */
export interface FolderCase {
  name: string;
  good: boolean;
}

/**
 * A triage folder of good bundles (the fixture's etcd failure) with every small hostile bundle of
 * this round among them: Object's member names, an alias bomb, too many JSON values, typed
 * secrets, a gather id of year 0099, control characters in names, a FIFO for a journal, a line
 * that hangs a user rule (`hangingRulesDir`), and 5 000 container logs.
 */
export function hostileFolder(dir: string): FolderCase[] {
  const cases: FolderCase[] = [];
  const add = (name: string, good: boolean, make: (root: string) => void): void => {
    make(join(dir, name));
    cases.push({ name, good });
  };
  add('a-good', true, (r) => writeTree(r, ROOT, bundleFiles()));
  add('b-proto-names', false, (r) => protoNamesBundle(r));
  add('c-alias-bomb', false, (r) => manifestBundle(r, aliasBombManifest('$m', 63)));
  add('d-json-values', false, (r) => writeTree(r, ROOT, { ...bundleFiles(), 'bootstrap/services/bootkube.json': `[${Array(4_100_000).fill('{}').join(',')}]` }));
  add('e-good', true, (r) => writeTree(r, ROOT, bundleFiles()));
  add('f-secrets', false, (r) => secretsBundle(r));
  add('g-year-0099', false, (r) => bundleWithGatherId(r, '00991122111800'));
  add('h-control-names', false, (r) => controlNamesBundle(r));
  add('i-fifo-journal', false, (r) => {
    const bundle = writeTree(r, ROOT, bundleFiles());
    spawnSync('mkfifo', [join(bundle, 'bootstrap', 'journals', 'crio.log')]);
  });
  add('j-hangs-user-rule', false, (r) => hangingBundle(r));
  mkdirSync(join(dir, 'k-many-containers'), { recursive: true });
  writeFileSync(join(dir, 'k-many-containers', 'bundle.tar.gz'), manyContainersBundle(5_000));
  cases.push({ name: 'k-many-containers', good: false });
  add('l-good', true, (r) => writeTree(r, ROOT, bundleFiles()));
  return cases;
}
