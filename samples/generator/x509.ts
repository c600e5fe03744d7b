// Real X.509 v3 certificates signed with SHA256-RSA, shaped like the installer's own
// (pkg/asset/tls): key usage, extended key usage, basic constraints, key ids, SANs.
import { createHash, createPublicKey, sign, type KeyObject } from 'node:crypto';
import * as der from './der.js';
import { asn1UtcTime, type Micros } from './time.js';

export interface DistinguishedName {
  CN: string;
  O?: string[];
  OU?: string[];
}

export interface CertSpec {
  subject: DistinguishedName;
  issuer: DistinguishedName;
  serial: bigint;
  notBefore: Micros;
  notAfter: Micros;
  isCA: boolean;
  /** Bit numbers: 0 digitalSignature, 2 keyEncipherment, 5 keyCertSign. */
  keyUsage: number[];
  extKeyUsage?: ('serverAuth' | 'clientAuth')[];
  dnsNames?: string[];
  ips?: string[];
  subjectKey: KeyObject;
  issuerKey: KeyObject;
}

const OID = {
  CN: '2.5.4.3',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  ski: '2.5.29.14',
  aki: '2.5.29.35',
  san: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

function name(dn: DistinguishedName): Buffer {
  const rdns: Buffer[] = [];
  const attr = (o: string, v: string): Buffer => der.set(der.sequence(der.oid(o), der.directoryString(v)));
  for (const v of dn.O ?? []) rdns.push(attr(OID.O, v));
  for (const v of dn.OU ?? []) rdns.push(attr(OID.OU, v));
  rdns.push(attr(OID.CN, dn.CN));
  return der.sequence(...rdns);
}

function spki(key: KeyObject): Buffer {
  return createPublicKey(key).export({ type: 'spki', format: 'der' });
}

/** SHA-1 of the public key bits, as Go's x509 derives the subject key id. */
function keyId(key: KeyObject): Buffer {
  // The BIT STRING of an RSA SubjectPublicKeyInfo holds the PKCS#1 public key.
  const pkcs1 = createPublicKey(key).export({ type: 'pkcs1', format: 'der' });
  return createHash('sha1').update(pkcs1).digest();
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    const [head, tail] = ip.split('::');
    const h = head ? head.split(':') : [];
    const t = tail !== undefined && tail ? tail.split(':') : [];
    const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
    return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]));
  }
  return Buffer.from(ip.split('.').map(Number));
}

/** Builds and signs a certificate; returns PEM. */
export function certificatePem(spec: CertSpec): string {
  const algorithm = der.sequence(der.oid(OID.sha256WithRSA), der.nullValue());
  const exts: Buffer[] = [extension(OID.keyUsage, true, der.namedBits(spec.keyUsage))];
  if (spec.extKeyUsage?.length) {
    exts.push(extension(OID.extKeyUsage, false, der.sequence(...spec.extKeyUsage.map((u) => der.oid(OID[u])))));
  }
  exts.push(extension(OID.basicConstraints, true, der.sequence(...(spec.isCA ? [der.boolean(true)] : []))));
  const ski = keyId(spec.subjectKey);
  if (spec.isCA) exts.push(extension(OID.ski, false, der.octetString(ski)));
  const selfSigned = spec.subject.CN === spec.issuer.CN && spec.subjectKey === spec.issuerKey;
  if (!selfSigned) exts.push(extension(OID.aki, false, der.sequence(der.implicitPrimitive(0, keyId(spec.issuerKey)))));
  const sans = [...(spec.dnsNames ?? []).map((d) => der.implicitPrimitive(2, Buffer.from(d, 'ascii'))), ...(spec.ips ?? []).map((ip) => der.implicitPrimitive(7, ipBytes(ip)))];
  if (sans.length) exts.push(extension(OID.san, false, der.sequence(...sans)));

  const tbs = der.sequence(
    der.explicit(0, der.integer(2n)),
    der.integer(spec.serial),
    algorithm,
    name(spec.issuer),
    der.sequence(der.utcTime(asn1UtcTime(spec.notBefore)), der.utcTime(asn1UtcTime(spec.notAfter))),
    name(spec.subject),
    spki(spec.subjectKey),
    der.explicit(3, der.sequence(...exts)),
  );
  const signature = sign('sha256', tbs, spec.issuerKey);
  return der.toPem('CERTIFICATE', der.sequence(tbs, algorithm, der.bitString(signature)));
}
