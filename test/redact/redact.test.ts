import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactDeep, redactLines, redactText, REDACTED } from '../../src/redact/redact.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

/** Each case: text holding a secret, and the secret itself, which must be gone. */
const SECRETS: { name: string; text: string; secret: string; keep?: string }[] = [
  {
    name: 'pull secret auths on one line',
    text: '{"auths":{"quay.io":{"auth":"b3BlbnNoaWZ0LXJlbGVhc2UtZGV2K29jbTpBQkNERUZH","email":"me@example.com"},"registry.redhat.io":{"auth":"cmVkaGF0OnMzY3JldA=="}}}',
    secret: 'b3BlbnNoaWZ0LXJlbGVhc2UtZGV2K29jbTpBQkNERUZH',
    keep: '"email":"me@example.com"',
  },
  { name: 'second registry of the same pull secret', text: '{"auths":{"a":{"auth":"x"},"registry.redhat.io":{"auth":"cmVkaGF0OnMzY3JldA=="}}}', secret: 'cmVkaGF0OnMzY3JldA==' },
  {
    name: 'pull secret escaped inside a logged string',
    text: 'msg="install-config: {\\"auths\\":{\\"quay.io\\":{\\"auth\\":\\"cXVheTpTM2NyM3Q=\\"}}}"',
    secret: 'cXVheTpTM2NyM3Q=',
    keep: 'quay.io',
  },
  {
    name: 'OpenSSH private key',
    text: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----',
    secret: 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ',
    keep: 'BEGIN OPENSSH PRIVATE KEY',
  },
  {
    name: 'EC private key',
    text: 'key: |\n  -----BEGIN EC PRIVATE KEY-----\n  MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5nGkxyz\n  -----END EC PRIVATE KEY-----\nnext: 1',
    secret: 'MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5nGkxyz',
    keep: 'next: 1',
  },
  { name: 'private key cut off by a truncated line', text: '-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn', secret: 'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn' },
  {
    name: 'kubeconfig client-key-data',
    text: '    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB',
    secret: 'LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB',
    keep: 'client-key-data:',
  },
  {
    name: 'kubeconfig client-certificate-data',
    text: '    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURaekNDQWsrZ0F3',
    secret: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURaekNDQWsrZ0F3',
  },
  { name: 'kubeconfig token', text: '    token: sha256~AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd', secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' },
  {
    name: 'OpenShift OAuth bearer token',
    text: 'GET /apis HTTP/1.1 Authorization: Bearer sha256~AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd',
    secret: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd',
    keep: 'Authorization: Bearer',
  },
  {
    name: 'service-account JWT',
    text: 'curl -H "Authorization: Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6IjEyMyJ9.eyJpc3MiOiJrdWJlcm5ldGVzIn0.c2lnbmF0dXJlc2lnbmF0dXJl"',
    secret: 'eyJpc3MiOiJrdWJlcm5ldGVzIn0',
  },
  { name: 'basic auth header', text: 'Authorization: Basic dXNlcjpwYXNzd29yZA==', secret: 'dXNlcjpwYXNzd29yZA==' },
  { name: 'password in a proxy URL', text: 'httpsProxy: http://proxyuser:S3cr3t!pass@10.0.0.1:3128/', secret: 'S3cr3t!pass', keep: 'proxyuser' },
  { name: 'password in a registry URL', text: 'pulling https://user:pass1234@registry.example.com/v2/', secret: 'pass1234', keep: 'registry.example.com' },
  { name: 'AWS access key id', text: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE', secret: 'AKIAIOSFODNN7EXAMPLE' },
  { name: 'AWS secret access key', text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  { name: 'AWS secret as JSON', text: '{"AccessKeyId":"ASIAIOSFODNN7EXAMPLE","SecretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}', secret: 'wJalrXUtnFEMI' },
  { name: 'S3 presigned URL', text: 'GET https://b.s3.amazonaws.com/bootstrap.ign?X-Amz-Credential=AKIAX%2F2026&X-Amz-Signature=0123abcd4567ef', secret: '0123abcd4567ef', keep: 'bootstrap.ign' },
  {
    name: 'Azure clientSecret in osServicePrincipal.json',
    text: '{"subscriptionId":"s","clientId":"c","clientSecret":"Xy7~Q8abcdEFGHijkl.mnop_qrs","tenantId":"t"}',
    secret: 'Xy7~Q8abcdEFGHijkl.mnop_qrs',
    keep: '"tenantId":"t"',
  },
  { name: 'Azure clientSecret in YAML', text: 'clientSecret: Xy7~Q8abcdEFGHijkl.mnop_qrs', secret: 'Xy7~Q8abcdEFGHijkl' },
  {
    name: 'GCP service-account private_key',
    text: '{"type": "service_account", "private_key_id": "abc123", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n", "client_email": "x@p.iam.gserviceaccount.com"}',
    secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
    keep: 'x@p.iam.gserviceaccount.com',
  },
  {
    name: 'kubeadmin password from the installer log',
    text: 'level=info msg="Login to the console with user: \\"kubeadmin\\", and password: \\"ABCDE-fghij-KLMNO-pqrst\\""',
    secret: 'ABCDE-fghij-KLMNO-pqrst',
    keep: 'kubeadmin',
  },
  { name: 'oc login -p', text: 'oc login -u kubeadmin -p ABCDE-fghij-KLMNO-pqrst https://api.example.com:6443', secret: 'ABCDE-fghij-KLMNO-pqrst', keep: 'https://api.example.com:6443' },
];

describe('redactText', () => {
  for (const c of SECRETS) {
    it(`removes ${c.name}`, () => {
      const out = redactText(c.text);
      expect(out).not.toContain(c.secret);
      expect(out).toContain(REDACTED);
      if (c.keep) expect(out).toContain(c.keep);
    });
  }

  it('leaves the mark alone, whoever wrote it (the installer-log parser redacts too)', () => {
    for (const text of [`password: ${REDACTED}`, `Login to the console with user: kubeadmin, password: ${REDACTED}`, `oc login -u kubeadmin -p ${REDACTED}`, `Bearer ${REDACTED}`]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it('leaves ordinary log text alone, including the words password, token, auth and Basic', () => {
    const plain = [
      'Enter the password for the registry',
      'password authentication failed for user "core"',
      'invalid username or password',
      'error getting token: Unauthorized',
      'token: unauthorized',
      'auth: failed',
      'failed to get token: x509: certificate signed by unknown authority',
      'Basic authentication failed',
      'mkdir -p /var/lib/etcd && ssh -p 22 core@10.0.0.5',
      'Pulling quay.io/openshift-release-dev/ocp-release@sha256:3333333333333333333333333333333333333333333333333333333333333333...',
      'container a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778 exited with code 1',
      '/var/lib/kubelet/pods/0123abcd-1111-2222-3333-444455556666/volumes/kubernetes.io~projected/kube-api-access-abcde',
      'certificate-authority-data: LS0tLS1CRUdJTiBDRVJU',
      'Nov 22 10:16:01 bootstrap.ocp4.example.com bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...',
      'https://api-int.ocp4.example.com:6443/api/v1/nodes',
    ];
    for (const line of plain) expect(redactText(line), line).toBe(line);
  });

  it('is idempotent', () => {
    for (const c of SECRETS) expect(redactText(redactText(c.text))).toBe(redactText(c.text));
  });
});

describe('redactLines', () => {
  it('removes a private key printed across journal lines, body lines included', () => {
    const lines = [
      'Nov 22 10:15:11 b x[1]: -----BEGIN RSA PRIVATE KEY-----',
      'Nov 22 10:15:11 b x[1]: MIIEowIBAAKCAQEAs3cr3t',
      'Nov 22 10:15:11 b x[1]: AB==',
      'Nov 22 10:15:11 b x[1]: -----END RSA PRIVATE KEY----- done',
      'Nov 22 10:15:12 b x[1]: next',
    ];
    const out = redactLines(lines);
    expect(out.join('\n')).not.toMatch(/MIIEow|AB==/);
    expect(out[3]).toMatch(/END RSA PRIVATE KEY----- done$/);
    expect(out[4]).toBe(lines[4]);
  });
});

describe('redactDeep', () => {
  it('treats evidence before, text and after as one excerpt', () => {
    const e = {
      file: 'bootstrap/journals/bootkube.log',
      before: ['Nov 22 b x[1]: start', 'Nov 22 b x[1]: -----BEGIN EC PRIVATE KEY-----'],
      text: 'Nov 22 b x[1]: MHcCAQEEIBkg4LVWM9nuwNSk3yByxZp',
      after: ['Nov 22 b x[1]: -----END EC PRIVATE KEY-----', 'Nov 22 b x[1]: after'],
      line: 12,
    };
    const out = redactDeep(e);
    expect(JSON.stringify(out)).not.toContain('MHcCAQEEIBkg4LVWM9nuwNSk3yByxZp');
    expect(out.before[0]).toBe(e.before[0]);
    expect(out.after[1]).toBe(e.after[1]);
    expect(out.line).toBe(12);
  });

  it('redacts every string of a nested value and keeps other values', () => {
    const out = redactDeep({ a: [{ b: 'Authorization: Bearer sha256~AbCdEfGhIjKlMnOpQrStUvWxYz0123' }], n: 3, ok: true, none: null });
    expect(JSON.stringify(out)).not.toContain('AbCdEfGhIjKlMnOpQrStUvWxYz0123');
    expect(out).toMatchObject({ n: 3, ok: true, none: null });
  });
});

describe('credentials in URLs, key=value and quoted dict forms', () => {
  const cases: { name: string; text: string; secret: string; keep: string }[] = [
    { name: 'password=value', text: 'error: login failed: password=hunter2 user=core', secret: 'hunter2', keep: 'user=core' },
    { name: 'an environment variable ending in _PASSWORD, quoted', text: "export OS_PASSWORD='s3cr3t pass' OS_USERNAME=admin", secret: 's3cr3t pass', keep: 'OS_USERNAME=admin' },
    { name: 'a token as the whole user part of a URL', text: 'git clone https://ghp_AbCdEf0123456789xyzToken@github.com/org/repo', secret: 'ghp_AbCdEf0123456789xyzToken', keep: 'github.com/org/repo' },
    { name: "a short value of 'auth' in a Python dict", text: "{'auth': 'dTpw', 'email': 'me@example.com'}", secret: 'dTpw', keep: "'email': 'me@example.com'" },
    { name: 'a password holding an @, up to the last @ of the host part', text: 'proxy http://user:p@ss@proxy.example.com:3128/', secret: 'ss@proxy', keep: 'proxy.example.com:3128' },
  ];
  for (const c of cases) {
    it(`removes ${c.name}`, () => {
      const out = redactText(c.text);
      expect(out).not.toContain(c.secret);
      expect(out).toContain(REDACTED);
      expect(out).toContain(c.keep);
      expect(redactText(out)).toBe(out);
    });
  }

  it('leaves user names in URLs and prose about keys alone', () => {
    for (const line of ['ssh://git@github.com/org/repo', 'failed to parse key -----END RSA PRIVATE KEY-----', 'core@10.0.0.5: Permission denied (publickey)']) {
      expect(redactText(line), line).toBe(line);
    }
  });
});

describe('private keys by their body', () => {
  it('removes the body before an END line whose BEGIN is in another string', () => {
    const out = redactText('"key": "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\\nKUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQ==\\n-----END RSA PRIVATE KEY-----\\n"');
    expect(out).not.toMatch(/MIIBOg|KUpRKf/);
    expect(out).toContain('-----END RSA PRIVATE KEY-----');
  });

  it('removes the short last line of a key from evidence context when its BEGIN line is outside the excerpt', () => {
    const e = {
      file: 'bootstrap/journals/bootkube.log',
      line: 40,
      before: ['Nov 22 10:15:11 b x[1]: qM8R3u0sT1dNe9ZcVb2LkQ7pW5yHjX4aF6gE0iU3oP1', 'Nov 22 10:15:11 b x[1]: AB=='],
      text: 'Nov 22 10:15:11 b x[1]: -----END RSA PRIVATE KEY-----',
      after: ['Nov 22 10:15:12 b x[1]: error: bootkube failed'],
    };
    const out = redactDeep(e);
    expect(JSON.stringify(out)).not.toMatch(/qM8R3u0sT1dNe9|AB==/);
    expect(out.text).toBe(e.text);
    expect(out.after).toEqual(e.after);
  });

  it("reads the model's log lines down as one excerpt, text and raw alike", () => {
    const body = ['MIIEowIBAAKCAQEAs3cr3tKeyBody', 'Zm9v'];
    const lines = ['-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----', 'done'].map((text, i) => ({ line: i + 1, text, raw: `Nov 22 10:15:11 b x[1]: ${text}` }));
    const out = redactDeep({ lines });
    expect(JSON.stringify(out)).not.toMatch(/MIIEow|Zm9v/);
    expect(out.lines[4]).toMatchObject({ line: 5, text: 'done', raw: 'Nov 22 10:15:11 b x[1]: done' });
  });

  it('removes a body line that stands alone, such as a template of one in diff', () => {
    expect(redactText('Nov 22 10:15:11 b x[1]: KyjScL6suEFiaOYF5aKVvXvkqAI=')).toBe(`Nov 22 10:15:11 b x[1]: ${REDACTED}`);
  });
});

describe('every channel is redacted (real CLI)', () => {
  // A key printed by a unit into its journal: 64-character body lines and a short last line.
  const BODY = ['MIIEowIBAAKCAQEAqM8R3u0sT1dNe9ZcVb2LkQ7pW5yHjX4aF6gE0iU3oP1zYxWv', 'Tq2Lm9Nc4Bv7Xz1Kp0Rs8Dw3Fy6Gh5Jk2Qa9We4Rt7Yu1Io3Pl6As8Df0Gh2Jk5L', 'KyjScL6suE+aOYF5a=='];
  const cli = join(process.cwd(), 'dist/src/cli/main.js');
  const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

  it('inspect --format json and diff print no line of a private key, nor password=', async () => {
    const dir = tempDir();
    const files = bundleFiles();
    writeTree(join(dir, 'good'), ROOT, files);
    const header = 'Nov 22 10:15:20 bootstrap.ocp4.example.com bootkube.sh[2507]: ';
    const leak = ['-----BEGIN RSA PRIVATE KEY-----', ...BODY, '-----END RSA PRIVATE KEY-----', 'error: login failed: password=hunter2'].map((l) => `${header}${l}`).join('\n');
    writeTree(join(dir, 'bad'), ROOT, { ...files, 'bootstrap/journals/bootkube.log': `${files['bootstrap/journals/bootkube.log']}${leak}\n` });
    const good = await packTar(join(dir, 'good'), ROOT, join(dir, 'good.tar.gz'), true);
    const bad = await packTar(join(dir, 'bad'), ROOT, join(dir, 'bad.tar.gz'), true);
    for (const args of [['inspect', bad, '--format', 'json'], ['diff', good, bad, '--format', 'json'], ['diff', good, bad, '--wide'], ['analyze', bad, '--format', 'json']]) {
      const r = run(args);
      expect(r.status, r.stderr).not.toBe(2);
      for (const secret of [...BODY.map((b) => b.slice(0, 12)), 'hunter2']) expect(r.stdout, `${args.join(' ')}: ${secret}`).not.toContain(secret);
    }
    // --no-redact shows it: the check above can fail.
    expect(run(['inspect', bad, '--format', 'json', '--no-redact']).stdout).toContain('hunter2');
  });
});
