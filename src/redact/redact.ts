// Removes secrets from any text before it is shown, by structure as well as by pattern: a value
// whose name says it is secret (`PGPASSWORD=`, `"adminPassword":`, `application_credential_secret:`,
// `X-Auth-Token:`), credentials on command lines (`-u user:pass`, `--creds`), authorization headers
// of every scheme, tokens with known prefixes (`ghp_`, `glpat-`, `xoxb-`), PEM private keys (by
// armour and by body, across lines), kubeconfig client data, credentials in URLs, cloud keys. The
// one redaction every output channel uses (analyze, inspect, diff, triage and its merge, kb add,
// error lines).

/** What a secret is replaced by, everywhere bootlens removes one (parsers included). */
export const REDACTED = '<redacted>';
/** A value that is already the mark is left as it is. */
const NOT_MARK = `(?!${REDACTED})`;

interface Pattern {
  re: RegExp;
  replace: string | ((match: string, ...groups: string[]) => string);
}

/** Words of a name that say its value is a secret (`pg_password`, `secretKey`, `X-Auth-Token`). */
const SECRET_WORDS = new Set([
  'pass',
  'passwd',
  'password',
  'passphrase',
  'pwd',
  'secret',
  'token',
  'cred',
  'creds',
  'credential',
  'credentials',
  'apikey',
  'auth',
  'cookie',
]);
/** A name's last word that says so after another word: `api_key`, `secretKey`, `X-Api-Key`, `SSH_PRIVATE_KEY` (a bare `key` is a lookup key). */
const SECRET_LAST_WORDS = new Set(['key', 'sig', 'signature']);
/** Upper-case names that hold a secret word anywhere (`PGPASSWORD`, `MYSQL_ROOT_PWD`, `REGISTRYTOKEN`). */
const UPPER_SECRET = /PASS|PWD|SECRET|TOKEN|CRED|KEY|AUTH/;

/** Whether a setting, field, variable or header name says its value is a secret. */
export function isSecretName(name: string): boolean {
  if (/^[A-Z][A-Z0-9_]*$/.test(name) && UPPER_SECRET.test(name)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.\-]+/)
    .filter(Boolean);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  return words.length > 1 && SECRET_LAST_WORDS.has(words[words.length - 1]);
}

/** A value of a setting: quoted (whatever it holds) or a bare run. */
const SETTING_VALUE = String.raw`(?:"[^"\n]*"|'[^'\n]*'|[^\s'"&;,]+)`;

/** `value` with its quotes kept and its content replaced by the mark (already the mark: as it is). */
function markValue(value: string): string {
  const q = value[0] === '"' || value[0] === "'" ? value[0] : '';
  const inner = q ? value.slice(1, -1) : value;
  if (inner === '' || inner === REDACTED) return value;
  return `${q}${REDACTED}${q}`;
}

/** A bare value that looks like a credential, not a word of prose (`failed`, `secrets`, `x509:` of `token: x509: certificate...`). */
function tokenLike(value: string): boolean {
  return !/[:.]$/.test(value) && (/[\d+/=~_]/.test(value) || value.length >= 20);
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
    // Spaces only before the END line: a tab is part of the run, and `[ \t]*` there rescanned a
    // run of tabs from every place it backed up to (quadratic on 64 KiB of tabs).
    re: /(?<![A-Za-z0-9+/=\\\r\n\t])[A-Za-z0-9+/=\\\r\n\t]{4,}(?= *-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)/g,
    replace: `${REDACTED} `,
  },
  // Tokens with the prefixes their issuers give them: GitHub (ghp_, gho_, ghu_, ghs_, ghr_,
  // github_pat_), GitLab (glpat-), Slack (xox?-), Google API keys (AIza), npm, PyPI, Docker Hub,
  // Hugging Face, Stripe. Found anywhere, prose included.
  {
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255}|glpat-[A-Za-z0-9_-]{20,}|xox[abeoprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{50,}|dckr_pat_[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}|[sr]k_(?:live|test)_[0-9A-Za-z]{16,})\b/g,
    replace: REDACTED,
  },
  // Authorization headers of any scheme (Bearer, Basic, Digest, Negotiate, token, AWS4-HMAC-SHA256,
  // ...): a scheme's parameters (`username="x", response="..."`, `Credential=..., Signature=...`)
  // all, to the end of the header's value (its quote or bracket, else the line); a single token
  // (Bearer, Basic, token) itself, and what the log says after it stays (`: unauthorized`).
  {
    re: /\b((?:Proxy-)?Authorization\b["']?[ \t]*[:=][ \t]*(\[?)[ \t]*(["']?)[ \t]*)([A-Za-z][\w.-]*[ \t]+)?([^\n]*)/gi,
    replace: (m: string, head: string, bracket: string, quote: string, scheme: string | undefined, rest: string): string => {
      const end = quote ? rest.indexOf(quote) : bracket ? rest.indexOf(']') : -1;
      const value = end >= 0 ? rest.slice(0, end) : rest;
      // Nothing, or the mark already; a lone word is prose (`authorization: denied`), not credentials.
      if (value.trim() === '' || value.startsWith(REDACTED) || (!scheme && /^[a-z]+\b/.test(value))) return m;
      // Parameters: `name="…"` or `name=value,` (base64's `==` padding is no parameter).
      const token = /^[A-Za-z][\w-]*=(?:"|[^\s=,]+,)/.test(value) ? undefined : /^[A-Za-z0-9._~+/=-]+/.exec(value)?.[0];
      if (token) return `${head}${scheme ?? ''}${REDACTED}${rest.slice(token.length)}`;
      return `${head}${scheme ?? ''}${REDACTED}${end >= 0 ? rest.slice(end) : ''}`;
    },
  },
  // Other headers whose name says they carry a credential (X-Auth-Token, X-Api-Key, Private-Token,
  // X-Registry-Auth, Cookie): the whole value, dashes included.
  {
    // At most five words: `A-A-A-…` without a colon made an unbounded name backtrack quadratically.
    re: /\b((?:[A-Z][A-Za-z0-9]*-){1,4}[A-Z][A-Za-z0-9]*|Cookie)([ \t]*:[ \t]*)([^\s"',;\]]+)/g,
    replace: (m: string, name: string, sep: string, value: string): string => (isSecretName(name) && !value.startsWith(REDACTED) ? `${name}${sep}${REDACTED}` : m),
  },
  // Credentials on a command line: `-u user:pass` and `--user user:pass` (curl) keep the user;
  // `--creds`, `--src-creds`, `--dest-creds` (skopeo, podman) lose the password, or the whole
  // value when it has none. `-u kubelet` (journalctl) holds no password and stays.
  {
    re: /(^|[\s"'=])(-u|--user|--(?:src-|dest-|from-|to-)?creds)(=|[ \t]+)(["']?)([^\s:"']*)(:?)([^\s"']*)/g,
    replace: (m: string, pre: string, flag: string, sep: string, q: string, user: string, colon: string, pass: string): string => {
      if (colon) return pass && pass !== REDACTED ? `${pre}${flag}${sep}${q}${user}:${REDACTED}` : m;
      return flag.includes('creds') && user && user !== REDACTED ? `${pre}${flag}${sep}${q}${REDACTED}` : m;
    },
  },
  // Settings and environment variables whose name says they hold a secret: `PGPASSWORD=...`,
  // `pass=`, `passphrase="..."`, `MY_API_KEY=`, `REGISTRY_CREDS=`.
  {
    re: new RegExp(String.raw`(?<![\w.\-])([A-Za-z_][\w.\-]{0,80})(\s*=\s*)(${SETTING_VALUE})`, 'g'),
    replace: (m: string, name: string, sep: string, value: string): string => (isSecretName(name) ? `${name}${sep}${markValue(value)}` : m),
  },
  // The same as YAML or prose writes it, `name: value`: a quoted value always, a bare one when it
  // looks like a credential (`secret: s3cr3t`, not `secret: secrets "x" not found`).
  {
    // A bare value ends at a delimiter and not in `:` (then it is the next name: `failed: secret: x`).
    re: new RegExp(String.raw`(?<![\w.\-"'])([A-Za-z_][\w.\-]{0,80})(\s*:[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s'"&;,]*[^\s'"&;,:](?=[\s'"&;,]|$))`, 'g'),
    replace: (m: string, name: string, sep: string, value: string): string =>
      isSecretName(name) && (value[0] === '"' || value[0] === "'" || tokenLike(value)) ? `${name}${sep}${markValue(value)}` : m,
  },
  // JSON (and escaped JSON, and Python dict) fields whose name says so: `"adminPassword": "..."`, `"secretKey":"..."`.
  {
    re: /((\\?["'])([A-Za-z_][\w.\-]{0,80})\2\s*:\s*\2)((?:[^"'\\]|\\(?!\2).)*)(\2)/g,
    replace: (m: string, head: string, _q: string, name: string, value: string, close: string): string =>
      isSecretName(name) && value !== '' && value !== REDACTED ? `${head}${REDACTED}${close}` : m,
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
  // Kubernetes service-account and OpenShift OAuth tokens.
  // A JWT's header and payload are bounded: `eyJ-eyJ-…` made every start scan to the line's end.
  { re: /\beyJ[A-Za-z0-9_-]{10,2048}\.[A-Za-z0-9_-]{10,16384}\.[A-Za-z0-9_-]{10,}/g, replace: REDACTED },
  { re: /\bsha256~[A-Za-z0-9_-]{20,}/g, replace: REDACTED },
  // user:password@ in URLs; the password runs to the last @ of the authority (`p@ss@host`).
  // A scheme is at most 32 characters: unbounded, `A-A-A-…` scanned to the line's end from every start.
  { re: new RegExp(String.raw`\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/@]+:)${NOT_MARK}[^\s/?#]*@`, 'gi'), replace: `$1${REDACTED}@` },
  // A token as the whole user part of a URL (`https://ghp_...@github.com`): token-like (a digit and
  // a letter, each found by a lookahead of its own: one that looked for both in order was quadratic), so `git@` stays.
  {
    re: new RegExp(String.raw`\b([a-z][a-z0-9+.-]{0,31}:\/\/)${NOT_MARK}(?=[^\s:/@]{0,255}\d)(?=[^\s:/@]{0,255}[A-Za-z])[^\s:/@]{16,256}@`, 'gi'),
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

/** The patterns, for the test that feeds every shipped regex adversarial lines. */
export function redactionPatterns(): RegExp[] {
  return PATTERNS.map((p) => p.re);
}

/** Text with every secret pattern replaced by `REDACTED`. */
export function redactText(text: string): string {
  let out = text;
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    if (p.re.test(out)) {
      p.re.lastIndex = 0;
      const replace = p.replace;
      out = typeof replace === 'string' ? out.replace(p.re, replace) : out.replace(p.re, replace);
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

/**
 * A filter for the lines of one log read one at a time (diff's template counter): a line inside
 * a private key, from its BEGIN line to its END line, comes out as the mark, so no body line,
 * however short the last, becomes a template or an example.
 */
export function privateKeyLines(): (line: string) => string {
  let inKey = false;
  return (line) => {
    if (inKey) {
      if (PEM_END.test(line)) inKey = false;
      return REDACTED;
    }
    const begin = PEM_BEGIN.exec(line);
    if (begin && !PEM_END.test(line.slice(begin.index))) {
      inKey = true;
      return REDACTED;
    }
    return line;
  };
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
