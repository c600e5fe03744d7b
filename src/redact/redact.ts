// Removes secrets from any text before it is shown: pull-secret auths, bearer tokens, PEM
// private keys, kubeconfig client data, passwords in URLs, cloud keys.

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
  // Pull secret / docker config / kubeconfig / cloud credentials as JSON: "auth": "base64", ...
  { re: new RegExp(String.raw`("(?:${SECRET_KEYS})"\s*:\s*")(?:[^"\\]|\\.)*(")`, 'gi'), replace: `$1${REDACTED}$2` },
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
  // user:password@ in URLs.
  { re: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, replace: `$1${REDACTED}@` },
  // Signed URLs (ignition from S3 or Azure blobs): the signature and credential query values.
  { re: /([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|sig|signature|access_token|token)=)[^&\s"'#]+/gi, replace: `$1${REDACTED}` },
  // Cloud credentials.
  { re: /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: REDACTED },
  { re: new RegExp(String.raw`\b((?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY|aws_session_token|AWS_SESSION_TOKEN|client_secret|clientSecret|AZURE_CLIENT_SECRET|api[_-]?key)\s*[=:]\s*)['"]?${NOT_MARK}[^\s'",}]+`, 'g'), replace: `$1${REDACTED}` },
  // A long base64 run with mixed case and digits, alone: the body line of a key or certificate,
  // a kubeconfig blob, an auth value under a key we do not know. Hex digests and ids never
  // mix cases, so they stay.
  { re: /(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]{0,200}[A-Z])(?=[A-Za-z0-9+/]{0,200}[a-z])(?=[A-Za-z0-9+/]{0,200}\d)[A-Za-z0-9+/]{64,}={0,2}/g, replace: REDACTED },
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

/**
 * Consecutive lines (a journal excerpt, evidence with its context), redacted as a whole: a
 * private key printed across lines is cut from its BEGIN line through its END line, not only
 * where one line holds both.
 */
export function redactLines(lines: readonly string[]): string[] {
  let inKey = false;
  return lines.map((line) => {
    if (inKey) {
      const end = PEM_END.exec(line);
      if (!end) return REDACTED;
      inKey = false;
      return redactText(`${REDACTED} ${line.slice(end.index)}`);
    }
    const begin = PEM_BEGIN.exec(line);
    if (begin && !PEM_END.test(line.slice(begin.index))) inKey = true;
    return redactText(line);
  });
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

/** A copy of a JSON-like value with every string redacted. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (isStringArray(value)) return redactLines(value) as T;
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
