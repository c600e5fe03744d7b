// Secrets in the forms people type, removed by structure (a name that says secret, a credential
// flag, an authorization header, a token prefix, a key across journal lines), on every channel:
// analyze in every format, inspect, diff, triage and its --jsonl, and what kb add writes.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSecretName, privateKeyLines, redactText, REDACTED } from '../../src/redact/redact.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { KEY_BODY, secretsBundle, TYPED_SECRETS } from '../hostile/crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
}

describe('names that say secret', () => {
  it('are told by their words, in any case style', () => {
    for (const name of ['PGPASSWORD', 'pass', 'passphrase', 'db_password', 'adminPassword', 'secretKey', 'application_credential_secret', 'X-Auth-Token', 'X-Api-Key', 'api_key', 'SSH_PRIVATE_KEY', 'REGISTRY_CREDS', 'Cookie', 'client-secret']) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['key', 'keyring', 'monkey', 'passive', 'bypass', 'tokenizer', 'author', 'X-Request-Id', 'Content-Type', 'namespace', 'message']) {
      expect(isSecretName(name), name).toBe(false);
    }
  });
});

describe('redactText', () => {
  for (const { line, secret } of TYPED_SECRETS) {
    it(`removes the secret of: ${line.slice(0, 60)}`, () => {
      const out = redactText(line);
      expect(out).not.toContain(secret);
      expect(out).toContain(REDACTED);
      expect(redactText(out)).toBe(out);
    });
  }

  it('keeps what is no secret: the user of -u user:pass, the scheme of a header, and prose about secrets', () => {
    expect(redactText('curl -u admin:Hunter2pass https://x')).toBe(`curl -u admin:${REDACTED} https://x`);
    expect(redactText('Authorization: token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789')).toBe(`Authorization: token ${REDACTED}`);
    expect(redactText('Authorization: Digest username="admin", response="6629fae49393a05397450978507c4ef1"')).toBe(`Authorization: Digest ${REDACTED}`);
    expect(redactText('"Authorization": "Bearer abcdefgh12345678", "Accept": "x"')).toBe(`"Authorization": "Bearer ${REDACTED}", "Accept": "x"`);
    for (const prose of [
      'journalctl -u kubelet.service -u crio',
      'failed to get secret: secrets "pull-secret" not found',
      'secret: the installer could not find it',
      'key="openshift-etcd/etcd-pod" reason=Failed',
      'authorization: denied',
      'token: x509: certificate signed by unknown authority',
      'X-Request-Id: 1234-abcd',
      'systemctl --user start podman',
    ]) {
      expect(redactText(prose), prose).toBe(prose);
    }
  });

  it('removes every line of a key printed one journal line per key line, the short last one too', () => {
    const head = 'Nov 22 10:15:20 bootstrap bootkube.sh[2507]: ';
    const keys = privateKeyLines();
    const lines = ['starting', '-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEAqM8R3u0sT1dNe9ZcVb2LkQ7pW5yHjX4aF6gE0iU3oP1zYxWv', 'Zm9vYmFyMQ', '-----END RSA PRIVATE KEY-----', 'done'].map((l) => keys(`${head}${l}`));
    expect(lines).toEqual([`${head}starting`, REDACTED, REDACTED, REDACTED, REDACTED, `${head}done`]);
  });
});

describe('every channel', () => {
  it('analyze (every format), inspect, diff, triage and its --jsonl print none of them; kb add writes none', () => {
    const root = tempDir('bootlens-secrets-');
    const bundle = secretsBundle(root);
    const good = writeTree(tempDir(), ROOT, bundleFiles());
    const outputs: [string, string][] = [];
    for (const format of ['json', 'text', 'md', 'html', 'junit']) outputs.push([`analyze -f ${format}`, run(['analyze', bundle, '-f', format, '--wide']).stdout]);
    outputs.push(['inspect -f json', run(['inspect', bundle, '-f', 'json']).stdout]);
    outputs.push(['inspect', run(['inspect', bundle, '--wide']).stdout]);
    outputs.push(['diff', run(['diff', good, bundle, '--wide']).stdout]);
    outputs.push(['diff -f json', run(['diff', good, bundle, '-f', 'json']).stdout]);
    const jsonl = join(tempDir(), 'triage.jsonl');
    outputs.push(['triage', run(['triage', root, '--jsonl', jsonl, '--wide', '--similarity', 'lexical']).stdout]);
    outputs.push(['triage --jsonl', readFileSync(jsonl, 'utf8')]);
    // The inspect JSON holds the unit's journal: the test can fail.
    expect(outputs[5][1]).toContain('secret-user');
    const kb = tempDir('bootlens-kb-');
    const added = run(['kb', 'add', bundle, '--id', 'typed-secrets', '--title', 'Secrets typed into a unit', '--stage', 'render', '--category', 'unknown', '--fix', 'Rotate them', '--reference', 'https://example.com/x', '--out', kb]);
    expect(added.status, added.stderr).toBe(0);
    const entry = readFileSync(join(kb, readdirSync(kb)[0]), 'utf8');
    expect(entry).toMatch(new RegExp(`etcdctl failed\\. Retrying in 5 seconds\\.\\.\\. \\(PGPASSWORD=${REDACTED}`));
    outputs.push(['kb add', entry]);
    for (const [channel, text] of outputs) {
      for (const secret of [...TYPED_SECRETS.map((t) => t.secret), ...KEY_BODY]) expect(text, `${channel}: ${secret}`).not.toContain(secret);
    }
  });
});
