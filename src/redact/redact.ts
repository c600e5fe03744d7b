// Removes secrets from any text before it is shown: pull-secret auths, bearer tokens, PEM
// private keys, kubeconfig client data, passwords in URLs, cloud keys.

const MARK = '[REDACTED]';

interface Pattern {
  re: RegExp;
  replace: string | ((...groups: string[]) => string);
}

const PATTERNS: Pattern[] = [
  // PEM private keys, whole block (also a block cut short by a truncated file).
  { re: /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g, replace: `-----BEGIN $1PRIVATE KEY----- ${MARK} -----END $1PRIVATE KEY-----` },
  // Pull secret / docker config: "auth": "base64", "password": "...", "identitytoken".
  { re: /("(?:auth|password|identitytoken|registrytoken|token|secret|client-key-data|client-certificate-data|pullSecret)"\s*:\s*")[^"]*(")/gi, replace: `$1${MARK}$2` },
  // YAML forms of the same keys (kubeconfig, install-config).
  { re: /\b((?:client-key-data|client-certificate-data|token|password|pullSecret|auth)\s*:\s*)(?!\[REDACTED\])['"]?[^\s'"]{8,}['"]?/g, replace: `$1${MARK}` },
  // The installer's kubeadmin line, quotes escaped inside logfmt: `password: \"abcde-...\"`.
  { re: /(password:\s*(?:\\?["'])?)(?!\[REDACTED\])[^"'\\\s]{4,}/gi, replace: `$1${MARK}` },
  // `oc login -u kubeadmin -p <password>` and `--password=<password>`.
  { re: /(\s-p\s+|--password[= ])(?!\[REDACTED\])\S+/g, replace: `$1${MARK}` },
  // HTTP authorization headers and bearer tokens.
  { re: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, replace: `$1 ${MARK}` },
  { re: /\b(authorization\s*[:=]\s*)[^\s,;"]+/gi, replace: `$1${MARK}` },
  // Kubernetes service-account and OpenShift OAuth tokens.
  { re: /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, replace: MARK },
  { re: /\bsha256~[A-Za-z0-9_-]{20,}/g, replace: MARK },
  // user:password@ in URLs.
  { re: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, replace: `$1${MARK}@` },
  // Cloud credentials.
  { re: /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: MARK },
  { re: /\b((?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY|client_secret|clientSecret|api[_-]?key)\s*[=:]\s*)['"]?[^\s'",}]+/g, replace: `$1${MARK}` },
];

/** Text with every secret pattern replaced by `[REDACTED]`. */
export function redactText(text: string): string {
  let out = text;
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    if (p.re.test(out)) {
      p.re.lastIndex = 0;
      out = out.replace(p.re, p.replace as string);
    }
  }
  return out;
}

/** A copy of a JSON-like value with every string redacted. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    // Null prototype: a key named `__proto__` from a bundle stays a plain key.
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
