// The certificates in the bootstrap host's /opt/openshift/tls, with the installer's subjects,
// signers and validities (24 h for the short-lived ones, 1 and 10 years for the others).
import type { KeyObject } from 'node:crypto';
import type { World } from './model.js';
import { Prng } from './prng.js';
import { rsaKey } from './rsa.js';
import { HOUR, type Micros } from './time.js';
import { certificatePem, type DistinguishedName } from './x509.js';

const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

interface Keys {
  root: KeyObject;
  signer: KeyObject;
  leaf: KeyObject;
}

let keys: Keys | undefined;

/** Three key pairs shared by every sample (deriving keys is slow; certificates differ). */
function sampleKeys(): Keys {
  keys ??= {
    root: rsaKey(new Prng('bootlens-samples/keys/root')),
    signer: rsaKey(new Prng('bootlens-samples/keys/signer')),
    leaf: rsaKey(new Prng('bootlens-samples/keys/leaf')),
  };
  return keys;
}

interface CertDef {
  file: string;
  subject: DistinguishedName;
  issuer?: string;
  validity: number;
  ca: boolean;
  usage?: ('serverAuth' | 'clientAuth')[];
  dns?: string[];
  ips?: string[];
}

/** PEM files for rendered-assets/openshift/tls, generated at `generatedAt`. */
export function bootstrapCertificates(w: World, generatedAt: Micros): Map<string, string> {
  const k = sampleKeys();
  const p = w.prng.fork('certs');
  const ou = ['openshift'];
  const defs: CertDef[] = [
    { file: 'root-ca.crt', subject: { CN: 'root-ca', OU: ou }, validity: 10 * YEAR, ca: true },
    { file: 'admin-kubeconfig-ca-bundle.crt', subject: { CN: 'admin-kubeconfig-signer', OU: ou }, validity: 10 * YEAR, ca: true },
    { file: 'aggregator-signer.crt', subject: { CN: 'aggregator-signer', OU: ['bootkube'] }, validity: DAY, ca: true },
    { file: 'kube-apiserver-localhost-signer.crt', subject: { CN: 'kube-apiserver-localhost-signer', OU: ou }, validity: 10 * YEAR, ca: true },
    { file: 'kube-apiserver-localhost-server.crt', subject: { CN: 'system:kube-apiserver', O: ['kube-master'] }, issuer: 'kube-apiserver-localhost-signer.crt', validity: DAY, ca: false, usage: ['serverAuth'], dns: ['localhost'], ips: ['127.0.0.1', '::1'] },
    { file: 'kube-apiserver-lb-signer.crt', subject: { CN: 'kube-apiserver-lb-signer', OU: ou }, validity: 10 * YEAR, ca: true },
    { file: 'kube-apiserver-lb-server.crt', subject: { CN: 'system:kube-apiserver', O: ['kube-master'] }, issuer: 'kube-apiserver-lb-signer.crt', validity: DAY, ca: false, usage: ['serverAuth'], dns: [w.apiName] },
    { file: 'kube-apiserver-internal-lb-server.crt', subject: { CN: 'system:kube-apiserver', O: ['kube-master'] }, issuer: 'kube-apiserver-lb-signer.crt', validity: DAY, ca: false, usage: ['serverAuth'], dns: [w.apiIntName] },
    { file: 'kube-apiserver-service-network-signer.crt', subject: { CN: 'kube-apiserver-service-network-signer', OU: ou }, validity: 10 * YEAR, ca: true },
    { file: 'kube-control-plane-signer.crt', subject: { CN: 'kube-control-plane-signer', OU: ou }, validity: YEAR, ca: true },
    { file: 'kube-apiserver-to-kubelet-signer.crt', subject: { CN: 'kube-apiserver-to-kubelet-signer', OU: ou }, validity: YEAR, ca: true },
    { file: 'kubelet-signer.crt', subject: { CN: 'kubelet-signer', OU: ou }, validity: DAY, ca: true },
    { file: 'kubelet-bootstrap-kubeconfig-signer.crt', subject: { CN: 'kubelet-bootstrap-kubeconfig-signer', OU: ou }, validity: 10 * YEAR, ca: true },
    { file: 'machine-config-server.crt', subject: { CN: 'system:machine-config-server' }, issuer: 'root-ca.crt', validity: 10 * YEAR, ca: false, usage: ['serverAuth'], dns: [w.apiIntName] },
    { file: 'etcd-signer.crt', subject: { CN: 'etcd-signer', OU: ou }, validity: 10 * YEAR, ca: true },
    { file: 'journal-gatewayd.crt', subject: { CN: 'journal-gatewayd', O: ['OpenShift Bootstrap'] }, issuer: 'root-ca.crt', validity: 10 * YEAR, ca: false, usage: ['serverAuth'] },
  ];
  const out = new Map<string, string>();
  const byFile = new Map(defs.map((d) => [d.file, d]));
  for (const d of defs) {
    const issuerDef = d.issuer ? (byFile.get(d.issuer) as CertDef) : d;
    const subjectKey = d.ca ? (d.file === 'root-ca.crt' ? k.root : k.signer) : k.leaf;
    const issuerKey = d.issuer ? (issuerDef.file === 'root-ca.crt' ? k.root : k.signer) : subjectKey;
    const pem = certificatePem({
      subject: d.subject,
      issuer: issuerDef.subject,
      serial: BigInt(`0x${p.hex(16)}`) | 1n,
      notBefore: generatedAt,
      notAfter: generatedAt + d.validity,
      isCA: d.ca,
      keyUsage: d.ca ? [0, 2, 5] : [0, 2],
      extKeyUsage: d.usage,
      dnsNames: d.dns,
      ips: d.ips,
      subjectKey,
      issuerKey,
    });
    out.set(d.file, pem);
  }
  out.set('etcd-ca-bundle.crt', out.get('etcd-signer.crt') as string);
  out.set('kube-apiserver-complete-server-ca-bundle.crt', [out.get('kube-apiserver-localhost-signer.crt'), out.get('kube-apiserver-lb-signer.crt'), out.get('kube-apiserver-service-network-signer.crt')].join(''));
  return out;
}
