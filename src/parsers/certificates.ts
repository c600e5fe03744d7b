// Reads the PEM certificates of a file (a .crt may hold a chain); private keys are skipped unread.
import { X509Certificate } from 'node:crypto';
import type { CertificateInfo, SourceRef } from '../model/types.js';
import { parsed, type Parsed, type ParseProblem } from './parsed.js';
import { clip, splitLines, stripBom } from './text-input.js';
import { isValidEpochMs } from '../text/time.js';

const BEGIN_RE = /^\s*-----BEGIN ([A-Z0-9 ]+)-----\s*$/;
const END_RE = /^\s*-----END ([A-Z0-9 ]+)-----\s*$/;

/** `CN=x\nO=y` as Node prints it, on one line. */
function oneLine(dn: string): string {
  return dn.split('\n').filter((p) => p !== '').join(', ');
}

/** Node prints validity as `Nov 22 10:15:04 2026 GMT`. */
function toEpoch(text: string): number | undefined {
  const t = Date.parse(text);
  // X.509 dates end at 9999; a date past that (or none) is damage, not a validity.
  return isValidEpochMs(t) ? t : undefined;
}

function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return clip(message.split('\n', 1)[0]);
}

/**
 * Parses every PEM `CERTIFICATE` block of a file with node:crypto: subject, issuer, validity,
 * serial, CA flag and SHA-256 fingerprint. `PRIVATE KEY` blocks (and other PEM types) are
 * skipped; their content is never kept or echoed. Blocks may be indented (PEM inside YAML).
 */
export function parseCertificates(text: string, source: SourceRef): Parsed<CertificateInfo[]> {
  if (stripBom(text).trim() === '') return parsed([], [{ kind: 'empty', message: 'certificate file is empty' }]);
  const lines = splitLines(text);
  const out: CertificateInfo[] = [];
  const problems: ParseProblem[] = [];
  let blocks = 0;
  for (let i = 0; i < lines.length; i++) {
    const begin = BEGIN_RE.exec(lines[i]);
    if (!begin) continue;
    blocks++;
    const label = begin[1];
    const startLine = i + 1;
    let end = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const m = END_RE.exec(lines[j]);
      if (m) {
        end = j;
        break;
      }
      // A BEGIN before any END: the block was cut off; let the outer loop read the new one.
      if (BEGIN_RE.test(lines[j])) break;
    }
    const isKey = label.includes('PRIVATE KEY');
    if (end < 0) {
      if (!isKey) problems.push({ kind: 'unparseable', message: `PEM ${label} block has no END line`, line: startLine });
      continue;
    }
    const blockLines = lines.slice(i, end + 1);
    i = end;
    if (label !== 'CERTIFICATE') continue;
    const pem = blockLines.map((l) => l.trim()).join('\n') + '\n';
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pem);
    } catch (e) {
      problems.push({ kind: 'unparseable', message: `unreadable certificate: ${reason(e)}`, line: startLine });
      continue;
    }
    const notBefore = toEpoch(cert.validFrom);
    const notAfter = toEpoch(cert.validTo);
    if (notBefore === undefined || notAfter === undefined) {
      problems.push({ kind: 'unparseable', message: 'certificate validity dates are unreadable', line: startLine });
      continue;
    }
    out.push({
      source: { file: source.file, line: startLine },
      subject: oneLine(cert.subject),
      issuer: oneLine(cert.issuer),
      notBefore,
      notAfter,
      serialNumber: cert.serialNumber,
      isCA: cert.ca,
      fingerprint256: cert.fingerprint256,
    });
  }
  if (blocks === 0) problems.push({ kind: 'unparseable', message: 'no PEM block in the file' });
  return parsed(out, problems);
}
