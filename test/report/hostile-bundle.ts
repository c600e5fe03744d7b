// A bundle whose bootkube journal carries secrets and text built to break out of HTML, Markdown and XML, plus a rule that cites it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const HOST = 'bootstrap.ocp4.example.com';
const at = (time: string, msg: string): string => `Nov 22 ${time} ${HOST} bootkube.sh[2507]: ${msg}`;

/** Distinctive parts of every secret in the bundle: none may appear in a redacted report. */
export const SECRETS = {
  pullSecretAuth: 'c2VjcmV0dXNlcjpTM2NyM3RQdWxsU2VjcmV0MTIzNDU2Nzg5MA==',
  privateKeyBody: 'MIIEowIBAAKCAQEAs3cr3tK3yB0dyL1n3zPr1v4t3K3yM4t3r14lXq9Zk2Lw8mP1',
  privateKeyTail: 'Qm9keUxpbmVUd29TZWNyZXRLZXlNYXRlcmlhbDEyMzQ1Njc4OTBhYmNkZWZnaGlq',
  bearerToken: 'sha256~S3cr3tT0kenValue0123456789abcdefXYZ',
} as const;

/** Text that must come out as text in every format. */
export const HOSTILE = {
  script: '<script>alert(1)</script>',
  details: '</details><img src=x onerror=alert(1)>',
  fence: '```` fence ``` breaker',
  pipes: '| pipes | in | cells |',
  comment: '<!-- comment',
  cdataEnd: ']]>',
  ansi: '\u001b[31mred\u001b[0m \u001b]0;title\u0007',
} as const;

/** The hostile journal lines, in order; each `HOSTILE` line is cited by the rule below. */
export function hostileLines(): string[] {
  return [
    at('10:15:10', `HOSTILE pull secret {"auths":{"quay.io":{"auth":"${SECRETS.pullSecretAuth}","email":"ops@example.com"}}}`),
    at('10:15:11', 'HOSTILE key -----BEGIN RSA PRIVATE KEY-----'),
    at('10:15:11', SECRETS.privateKeyBody),
    at('10:15:11', SECRETS.privateKeyTail),
    at('10:15:11', '-----END RSA PRIVATE KEY-----'),
    at('10:15:12', `HOSTILE token Authorization: Bearer ${SECRETS.bearerToken}`),
    at('10:15:13', `HOSTILE html ${HOSTILE.script} and ${HOSTILE.details}`),
    at('10:15:14', `HOSTILE md ${HOSTILE.fence} ${HOSTILE.pipes} ${HOSTILE.comment} **bold** [link](javascript:alert(1))`),
    at('10:15:15', `HOSTILE xml ${HOSTILE.ansi} NUL\u0000 bell\u0007 ${HOSTILE.cdataEnd} & &amp; "quotes" 'apos'`),
    // Last, so the rule's message, the verdict summary and the fix step quote all of it.
    at('10:15:16', `HOSTILE all ${HOSTILE.script} ${HOSTILE.details} ${HOSTILE.fence} ${HOSTILE.pipes} ${HOSTILE.comment} **bold** [link](javascript:alert(1)) ${HOSTILE.ansi} ${HOSTILE.cdataEnd} &amp;`),
  ];
}

/** The catalogue entry a rule citing every HOSTILE line reports; its text, and a fix step inside backticks, carry the captured text. */
export const HOSTILE_ENTRY = `program: a hostile test program
repository: openshift/installer
entries:
  - id: hostile-line
    title: A line that tries to escape its report
    role: cause
    form: 'HOSTILE (?<what>.*)'
    origin: data/data/bootstrap/files/usr/local/bin/bootkube.sh.template
    stage: bootstrap-etcd
    category: etcd-health
    severity: critical
    description: Cites hostile log text so every reporter has to escape it.
    fix:
      - 'Read the line: \`{what}\` and do not run it.'
      - Then check {what} again.
    references:
      - https://example.com/bootlens/hostile
    says: 'hostile line: {what}'
    examples:
      - line: 'HOSTILE all of it'
`;

/** A rule citing every HOSTILE line. */
export const HOSTILE_RULE = `id: hostile-line
confidence: high
sources:
  - journal: bootkube
    host: bootstrap
match:
  any:
    - message: hostile-line
`;

/** The shipped catalogue's files with HOSTILE_ENTRY beside them: a rules folder's own catalogue. */
export function catalogueWith(extra: Record<string, string>): Record<string, string> {
  const dir = join(process.cwd(), 'rules', 'catalogue');
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) files[`catalogue/${name}`] = readFileSync(join(dir, name), 'utf8');
  for (const [name, text] of Object.entries(extra)) files[`catalogue/${name}`] = text;
  return files;
}

/** Writes the hostile bundle (tar.gz) and a rules folder holding HOSTILE_RULE; returns both paths. */
export async function writeHostileBundle(): Promise<{ bundle: string; rules: string; dir: string }> {
  const dir = tempDir('bootlens-hostile-');
  const files = bundleFiles();
  const journal = files['bootstrap/journals/bootkube.log'].trimEnd().split('\n');
  // After `Waiting for etcd cluster...` so the timeline reads as before.
  journal.splice(4, 0, ...hostileLines());
  files['bootstrap/journals/bootkube.log'] = `${journal.join('\n')}\n`;
  writeTree(dir, ROOT, files);
  const bundle = await packTar(dir, ROOT, join(dir, 'hostile.tar.gz'), true);
  const rules = writeTree(dir, 'rules', { 'hostile/hostile-line.yaml': HOSTILE_RULE, ...catalogueWith({ 'hostile.yaml': HOSTILE_ENTRY }) });
  return { bundle, rules, dir };
}
