// Removes secrets from any text before it is shown: pull-secret auths, bearer tokens, PEM
// private keys (by armour and by body), kubeconfig client data, credentials in URLs,
// `key=value` and quoted dict forms, cloud keys. The one redaction every output channel uses
// (analyze, inspect, diff, triage and its merge, kb add, error lines).

/** What a secret is replaced by, everywhere bootlens removes one (parsers included). */
export const REDACTED = '<redacted>';
/** A value that is already the mark is left as it is. */
const NOT_MARK = `(?!${REDACTED})`;

interface Pattern {
  re: RegExp;
  replace: string;
}

/** JSON keys whose string value is a secret (pull secrets, kubeconfigs, cloud credentials). */
const SECRET_KEYS = [
  'auth',
  'password',
  'identitytoken',
  'registrytoken',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'secret',
  'client-key-data',
  'client-certificate-data',
  'pullSecret',
  'clientSecret',
  'client_secret',
  'aws_secret_access_key',
  'secretAccessKey',
  'sessionToken',
  'apiKey',
  'api_key',
].join('|');

/** A token-like value: has a digit or symbol, or is long; `unauthorized`, `failed`, `expired` are not secrets. */
const TOKENISH = String.raw`(?=[^\s'",}]*[\d+/=~_]|[^\s'",}]{20,})`;

const PATTERNS: Pattern[] = [
  // PEM private keys, whole block (also a block cut short by a truncated file or line), including
  // RSA/EC/OPENSSH/ENCRYPTED keys and PGP key blocks.
  {
    re: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
    replace: `-----BEGIN $1PRIVATE KEY$2----- ${REDACTED} -----END $1PRIVATE KEY$2-----`,
  },
  // The body of a private key whose BEGIN line is elsewhere (another line, another string):
  // the base64 run, across line breaks and escaped `\n`, just before its END line.
  {
    re: /(?<![A-Za-z0-9+/=\\\r\n\t])[A-Za-z0-9+/=\\\r\n\t]{4,}(?=[ \t]*-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)/g,
    replace: `${REDACTED} `,
  },
  // Pull secret / docker config / kubeconfig / cloud credentials as JSON: "auth": "base64", ...
  { re: new RegExp(String.raw`("(?:${SECRET_KEYS})"\s*:\s*")(?:[^"\\]|\\.)*(")`, 'gi'), replace: `$1${REDACTED}$2` },
  // The same keys as a Python or Ruby dict prints them, in single quotes, however short the value: 'auth': 'x'.
  { re: new RegExp(String.raw`('(?:${SECRET_KEYS})'\s*(?::|=>)\s*')(?:[^'\\]|\\.)*(')`, 'gi'), replace: `$1${REDACTED}$2` },
  // The same JSON escaped inside another string (a pull secret in a logged install-config): \"auth\":\"...\".
  { re: new RegExp(String.raw`(\\"(?:${SECRET_KEYS})\\"\s*:\s*\\")(?:[^"\\]|\\[^"])*(\\")`, 'gi'), replace: `$1${REDACTED}$2` },
  // YAML forms of the same keys (kubeconfig, install-config).
  {
    re: new RegExp(String.raw`\b((?:client-key-data|client-certificate-data|token|password|pullSecret|auth|clientSecret|client_secret)\s*:\s*)${NOT_MARK}['"]?${TOKENISH}[^\s'"]{8,}['"]?`, 'g'),
    replace: `$1${REDACTED}`,
  },
  // The installer's kubeadmin line, quotes escaped inside logfmt: `password: \"abcde-...\"`.
  { re: new RegExp(String.raw`(password:\s*(?:\\?["'])?)${NOT_MARK}[^"'\\\s]{4,}`, 'gi'), replace: `$1${REDACTED}` },
  // `oc login -u kubeadmin -p <password>`, `podman login -p`, and `--password=<password>`; a bare
  // `-p` elsewhere (`mkdir -p`, `ssh -p 22`) is not a password.
  { re: new RegExp(String.raw`(\blogin\b[^\n]*?\s-p\s*)${NOT_MARK}\S+`, 'g'), replace: `$1${REDACTED}` },
  { re: new RegExp(String.raw`(--password[= ])${NOT_MARK}\S+`, 'g'), replace: `$1${REDACTED}` },
  { re: new RegExp(String.raw`(--token[= ])${NOT_MARK}\S+`, 'g'), replace: `$1${REDACTED}` },
  // HTTP authorization headers and bearer tokens (`Basic authentication failed` is prose, not a credential).
  { re: new RegExp(String.raw`\b(Bearer|Basic)\s+(?![a-z]+\b)${NOT_MARK}[A-Za-z0-9._~+/=-]{8,}`, 'g'), replace: `$1 ${REDACTED}` },
  { re: new RegExp(String.raw`\b(authorization\s*[:=]\s*)(?!(?:Bearer|Basic)\s)(?![a-z]+\b)${NOT_MARK}[^\s,;"]+`, 'gi'), replace: `$1${REDACTED}` },
  // Kubernetes service-account and OpenShift OAuth tokens.
  { re: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, replace: REDACTED },
  { re: /\bsha256~[A-Za-z0-9_-]{20,}/g, replace: REDACTED },
  // user:password@ in URLs; the password runs to the last @ of the authority (`p@ss@host`).
  { re: new RegExp(String.raw`\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)${NOT_MARK}[^\s/?#]*@`, 'gi'), replace: `$1${REDACTED}@` },
  // A token as the whole user part of a URL (`https://ghp_...@github.com`): token-like, so `git@` stays.
  {
    re: new RegExp(String.raw`\b([a-z][a-z0-9+.-]*:\/\/)${NOT_MARK}(?=[^\s:/@]*(?:\d[^\s:/@]*[A-Za-z]|[A-Za-z][^\s:/@]*\d))[^\s:/@]{16,}@`, 'gi'),
    replace: `$1${REDACTED}@`,
  },
  // key=value settings and environment variables (password=..., DB_PASSWORD=..., api_key=...).
  {
    re: new RegExp(String.raw`(?<![A-Za-z0-9_])((?:[A-Za-z0-9]{1,30}[_.-]){0,3}(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth)\s*=\s*)${NOT_MARK}(?:"[^"\n]*"|'[^'\n]*'|[^\s'"&;,]+)`, 'gi'),
    replace: `$1${REDACTED}`,
  },
  // Signed URLs (ignition from S3 or Azure blobs): the signature and credential query values.
  { re: /([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|sig|signature|access_token|token)=)[^&\s"'#]+/gi, replace: `$1${REDACTED}` },
  // Cloud credentials.
  { re: /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: REDACTED },
  { re: new RegExp(String.raw`\b((?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY|aws_session_token|AWS_SESSION_TOKEN|client_secret|clientSecret|AZURE_CLIENT_SECRET|api[_-]?key)\s*[=:]\s*)['"]?${NOT_MARK}[^\s'",}]+`, 'g'), replace: `$1${REDACTED}` },
  // A long base64 run with mixed case and digits, alone: the body line of a key or certificate,
  // a kubeconfig blob, an auth value under a key we do not know. Hex digests and ids never
  // mix cases, so they stay.
  { re: /(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]{0,200}[A-Z])(?=[A-Za-z0-9+/]{0,200}[a-z])(?=[A-Za-z0-9+/]{0,200}\d)[A-Za-z0-9+/]{64,}={0,2}/g, replace: REDACTED },
  // A shorter such run that is all a line says (after a journal header or a `key:`): a body line
  // of a key or certificate seen without its armour, such as the last, shorter one (24 characters,
  // or 8 with base64 padding; a last line shorter and unpadded is caught only beside its END line).
  { re: /(?<![^\s:])(?=[A-Za-z0-9+/]{0,200}[A-Z])(?=[A-Za-z0-9+/]{0,200}[a-z])(?=[A-Za-z0-9+/]{0,200}\d)(?:[A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9+/]{8,23}={1,2})(?=[ \t]*$)/gm, replace: REDACTED },
];

/** Text with every secret pattern replaced by `REDACTED`. */
export function redactText(text: string): string {
  let out = text;
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    if (p.re.test(out)) {
      p.re.lastIndex = 0;
      out = out.replace(p.re, p.replace);
    }
  }
  return out;
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;

/** What a body line of a key says after its header: base64 and nothing else. */
const PEM_BODY = /(?:^|[\s:])[A-Za-z0-9+/]{2,}={0,2}\s*$/;

/**
 * Consecutive lines (a journal excerpt, evidence with its context), redacted as a whole: a
 * private key printed across lines is cut from its BEGIN line through its END line, not only
 * where one line holds both; an END line whose BEGIN lies before the excerpt takes the body
 * lines above it with it, however short the last of them is.
 */
export function redactLines(lines: readonly string[]): string[] {
  let inKey = false;
  const out: string[] = [];
  for (const line of lines) {
    if (inKey) {
      const end = PEM_END.exec(line);
      if (!end) {
        out.push(REDACTED);
        continue;
      }
      inKey = false;
      out.push(redactText(`${REDACTED} ${line.slice(end.index)}`));
      continue;
    }
    const begin = PEM_BEGIN.exec(line);
    if (begin && !PEM_END.test(line.slice(begin.index))) inKey = true;
    else if (!begin && PEM_END.test(line)) {
      // The BEGIN line was outside: the lines above that look like body lines are the key's.
      for (let i = out.length - 1; i >= 0 && out[i] !== REDACTED && PEM_BODY.test(lines[i]) && !PEM_BEGIN.test(lines[i]); i--) out[i] = REDACTED;
    }
    out.push(redactText(line));
  }
  return out;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

/** Log lines of one log (the model's `LogLine`s): a line number and text, no context of their own. */
function isLogLines(v: readonly unknown[]): v is Record<string, unknown>[] {
  return (
    v.length > 1 &&
    v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && typeof (x as Record<string, unknown>).text === 'string' && typeof (x as Record<string, unknown>).line === 'number' && !('before' in x) && !('after' in x))
  );
}

/** Lines of one log, each field read down the lines as one excerpt (a key printed across lines). */
function redactLogLines(items: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const out = items.map((item) => redactDeep(item));
  for (const key of ['text', 'raw']) {
    const at: number[] = [];
    const values: string[] = [];
    items.forEach((item, i) => {
      const v = item[key];
      if (typeof v === 'string') {
        at.push(i);
        values.push(v);
      }
    });
    redactLines(values).forEach((v, j) => {
      out[at[j]][key] = v;
    });
  }
  return out;
}

/** A copy of a JSON-like value with every string redacted. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (isStringArray(value)) return redactLines(value) as T;
  if (Array.isArray(value) && isLogLines(value)) return redactLogLines(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    // Null prototype: a key named `__proto__` from a bundle stays a plain key.
    const out = Object.create(null) as Record<string, unknown>;
    const src = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(src)) out[k] = redactDeep(v);
    // Evidence: the lines before, the line, the lines after are one excerpt of one log.
    if (typeof src.text === 'string' && (isStringArray(src.before) || isStringArray(src.after))) {
      const before = isStringArray(src.before) ? src.before : [];
      const after = isStringArray(src.after) ? src.after : [];
      const all = redactLines([...before, src.text, ...after]);
      if (isStringArray(src.before)) out.before = all.slice(0, before.length);
      out.text = all[before.length];
      if (isStringArray(src.after)) out.after = all.slice(before.length + 1);
    }
    return out as T;
  }
  return value;
}
