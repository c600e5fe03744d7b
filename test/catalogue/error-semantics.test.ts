// The low-level error families every program of an install prints inside its own messages (Go's
// net and TLS errors, x509, a registry's answers, a proxy, errno, the OOM killer, systemd's start
// limit), and the precedence between them, read by the catalogue's classifier on real lines: the
// corpus's where a case quotes one, else an example posted in a public thread (the entry's
// `from:`). Each reading is the classifier's own: the entry that decides, the library error the
// line carries, the target that error failed on, and the category.
import { describe, expect, it } from 'vitest';
import { classifierOf } from '../../src/catalogue/classify.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import type { MessageRole, TargetKind } from '../../src/catalogue/types.js';
import type { CategoryId } from '../../src/taxonomy.js';
import { corpusLine, exampleLine, type RealLine } from './real-lines.js';

const catalogue = shippedCatalogue();
const classifier = classifierOf(catalogue);

interface Read {
  /** The entry that decides: the program's message, else the library error. */
  decisive?: string;
  /** The decisive library error the line carries, and what it failed on. */
  error?: string;
  target?: TargetKind;
  category: CategoryId | 'none';
  role?: MessageRole;
}

/** The reading of a line that is a library error and nothing else: the error decides and names the category. */
function alone(error: string, category: CategoryId, role: MessageRole = 'cause', target?: TargetKind): Read {
  return { decisive: error, error, category, role, ...(target ? { target } : {}) };
}

function read(l: RealLine): Read {
  const r = classifier.classify(l.text, l.where);
  const out: Read = { category: r?.category ?? 'none' };
  if (r) {
    out.decisive = r.decisive.entry.id;
    out.role = r.role;
    if (r.error) out.error = r.error.entry.id;
    if (r.error?.target) out.target = r.error.target;
  }
  return out;
}

/** Every entry the line matches (the links of its chain), by id. */
function links(l: RealLine): string[] {
  return classifier.hits(l.text, l.where).map((h) => h.entry.id);
}

const example = (entryId: string, thread: string, words?: string): RealLine => exampleLine(catalogue, entryId, thread, words);

describe("Go's net errors", () => {
  it('no such host: the name does not resolve, whatever asked for it', () => {
    const srv = corpusLine('dev-scripts-320-etcd-srv-no-such-host', 'error looking up self');
    expect(read(srv)).toEqual(alone('go-no-such-host', 'dns'));
  });

  it('connection refused: nothing listens where the connection went (here the API load balancer)', () => {
    const csr = corpusLine('installer-4267-gcp-ilb-hairpin-masters', 'cannot create certificate signing request');
    expect(read(csr)).toEqual(alone('go-connection-refused', 'network-connectivity', 'cause', 'api'));
    // The kubelet's certificate request never reached the API: not a request nobody approved.
    expect(links(csr)).not.toContain('kubelet-csr-not-approved');
  });

  it('i/o timeout: packets dropped on the way to the target', () => {
    const api = corpusLine('okd-1347-cvo-overrides-dns', 'dial tcp 34.206.39.153:6443: i/o timeout');
    expect(read(api)).toEqual(alone('go-io-timeout', 'network-connectivity', 'cause', 'api'));
  });

  it('no route to host: no path to the machine-config server', () => {
    const mcs = corpusLine('hetzner-ocp4-294-routed-firewalld-22623', 'no route to host');
    expect(read(mcs)).toMatchObject({ error: 'go-no-route', target: 'machine-config-server', category: 'network-connectivity' });
  });

  it('EOF: a connection closed mid-answer is a symptom of what answered (the API load balancer)', () => {
    const eof = corpusLine('healthy-bpshparis-ocp43-api-eof-then-complete', 'version?timeout=32s: EOF');
    expect(read(eof)).toEqual({ decisive: 'installer-still-waiting-for-api', error: 'go-unexpected-eof', target: 'api', category: 'network-connectivity', role: 'symptom' });
    expect(catalogue.byId.get('go-unexpected-eof')?.role).toBe('symptom');
  });

  it('TLS handshake timeout: connected, but the handshake got no answer', () => {
    const tls = corpusLine('healthy-f5-udf-ocp411-api-tls-timeout-then-complete', 'net/http: TLS handshake timeout');
    expect(read(tls)).toEqual({ decisive: 'installer-still-waiting-for-api', error: 'go-tls-handshake-timeout', target: 'api', category: 'network-connectivity', role: 'symptom' });
  });
});

describe('x509 verification errors', () => {
  it('expired: the certificate ended before the verifying clock', () => {
    const after = corpusLine('hetzner-ocp4-178-api-cert-expired', 'is after');
    expect(read(after)).toEqual({ decisive: 'installer-still-waiting-for-api', error: 'x509-expired', category: 'certificate-expired', role: 'symptom' });
    // Go's older wording says "expired or not yet valid" without the times: read as expired.
    const old = corpusLine('okd-607-bootstrap-ignition-expired', 'localhost:6443/api?timeout=32s');
    expect(read(old)).toEqual(alone('x509-expired', 'certificate-expired'));
  });

  it('not yet valid: the certificate starts after the verifying clock', () => {
    const installer = corpusLine('ironicbadger-ocp4-23-ntp-not-yet-valid', 'is before');
    expect(read(installer)).toEqual(alone('x509-not-yet-valid', 'clock-skew'));
  });

  it('unknown authority: whose certificate it was decides (a mirror registry, the machine-config server)', () => {
    const mirror = corpusLine('installer-4504-mirror-x509', 'x509: certificate signed by unknown authority');
    expect(read(mirror)).toMatchObject({ error: 'x509-unknown-authority', target: 'registry', category: 'registry-tls' });
    const mcs = corpusLine('okd-165-mcs-lb-to-api-backend', 'Get Error: x509');
    expect(read(mcs)).toEqual(alone('x509-unknown-authority', 'ignition', 'cause', 'machine-config-server'));
  });

  it('name mismatch: the API reached by a name its certificate lacks, a registry behind a foreign certificate', () => {
    const api = example('x509-name-mismatch', 'https://github.com/okd-project/okd/issues/935');
    expect(read(api)).toEqual({ decisive: 'installer-bootstrap-failed-to-complete', error: 'x509-name-mismatch', target: 'api', category: 'install-config', role: 'symptom' });
    const registry = example('x509-name-mismatch', 'https://github.com/moby/moby/issues/32960');
    expect(read(registry)).toEqual(alone('x509-name-mismatch', 'registry-tls', 'cause', 'registry'));
    // Go 1.20 wraps it in "tls: failed to verify certificate" and words a certificate without names
    // its own way: still the name, not the authority.
    const noNames = example('x509-name-mismatch', 'https://github.com/kubernetes/registry.k8s.io/issues/265');
    expect(read(noNames)).toEqual(alone('x509-name-mismatch', 'registry-tls', 'cause', 'registry'));
    expect(links(noNames)).toContain('x509-unknown-authority');
  });
});

describe("a registry's answers", () => {
  it('401 unauthorized, in both of the registry wordings', () => {
    const required = corpusLine('installer-4663-ci-release-unauthorized', 'unauthorized: authentication required');
    expect(read(required)).toMatchObject({ error: 'registry-unauthorized', category: 'registry-auth' });
    const notAuthorized = corpusLine('okd-549-ceo-render-unauthorized', 'access to the requested resource is not authorized');
    expect(read(notAuthorized)).toMatchObject({ error: 'registry-unauthorized', category: 'registry-auth' });
  });

  it('403 forbidden and denied', () => {
    const forbidden = example('registry-unauthorized', 'https://github.com/podman-container-tools/podman/issues/25410');
    expect(read(forbidden)).toEqual(alone('registry-unauthorized', 'registry-auth'));
    const denied = example('registry-unauthorized', 'https://github.com/element-hq/ess-starter-edition-core/issues/1');
    expect(read(denied)).toEqual(alone('registry-unauthorized', 'registry-auth'));
  });

  it('404 manifest unknown', () => {
    const unknown = corpusLine('okd-2231-default-release-missing', 'manifest unknown');
    expect(read(unknown)).toMatchObject({ error: 'registry-manifest-unknown', category: 'image-missing' });
  });

  it('5xx: the registry (or what fronts it) failed the request', () => {
    const badGateway = example('registry-server-error', 'https://github.com/podman-container-tools/podman/issues/17802');
    expect(read(badGateway)).toEqual(alone('registry-server-error', 'registry-unreachable'));
  });
});

describe('proxyconnect', () => {
  it("a connection to the proxy that failed is the proxy's, whatever failed in it", () => {
    const refused = example('go-proxyconnect', 'https://github.com/docker-archive-public/docker.kitematic/issues/3573');
    expect(read(refused)).toEqual(alone('go-connection-refused', 'proxy', 'cause', 'proxy'));
    expect(links(refused)).toContain('go-proxyconnect');
    // An https:// proxy URL for a proxy that speaks plain HTTP: only the proxy connection says so.
    const notTls = example('go-proxyconnect', 'https://github.com/docker/for-linux/issues/415');
    expect(read(notTls)).toEqual(alone('go-proxyconnect', 'proxy'));
  });
});

describe('errno: a full disk, a read-only file system, a quota', () => {
  it('ENOSPC: a layer that does not fit', () => {
    const layer = corpusLine('installer-7031-sno-no-space', 'no space left on device');
    expect(read(layer)).toMatchObject({ error: 'enospc', category: 'resource-exhaustion' });
    const tmpfs = corpusLine('snc-453-bootstrap-run-tmpfs-full', 'no space left on device');
    expect(read(tmpfs)).toMatchObject({ error: 'enospc', category: 'resource-exhaustion' });
  });

  it('EROFS: a symptom; read-only by design on an RHCOS /usr, or a file system the kernel gave up on', () => {
    const usr = example('erofs', 'https://github.com/rook/rook/issues/2612');
    expect(read(usr)).toEqual(alone('erofs', 'unknown', 'symptom'));
    expect(catalogue.byId.get('erofs')?.collect.join(' ')).toMatch(/findmnt/);
    // The OKD pivot probes whether /usr is writable on every healthy bootstrap: by design, never a cause.
    const probe = corpusLine('okd-2041-scos-pivot-ext4-orphan-file', "cannot touch '/usr/.test'");
    expect(links(probe)).toContain('erofs');
    expect(read(probe)).toMatchObject({ decisive: 'bootstrap-pivot-usr-probe', category: 'unknown', role: 'benign' });
  });

  it("EDQUOT from the kernel's key quota is the quota, not a disk", () => {
    const keyring = example('keyring-quota-exceeded', 'https://github.com/podman-container-tools/podman/issues/13363');
    expect(read(keyring)).toEqual(alone('keyring-quota-exceeded', 'resource-exhaustion'));
    expect(links(keyring)).not.toContain('enospc');
  });
});

describe("the kernel's OOM killer", () => {
  it('reads the killer invoked and the process it killed', () => {
    const invoked = example('oom-killed-process', 'https://github.com/kubernetes-sigs/kubespray/issues/1936');
    expect(read(invoked)).toEqual(alone('oom-killed-process', 'resource-exhaustion'));
    const killed = example('oom-killed-process', 'https://github.com/kubernetes/minikube/issues/4075');
    expect(read(killed)).toEqual(alone('oom-killed-process', 'resource-exhaustion'));
  });
});

describe("systemd's start limit", () => {
  it('is a symptom whatever systemd words it: the first failure, repeated, is the cause', () => {
    const balena = 'https://github.com/balena-os/meta-balena/issues/1752';
    const lines = [
      example('systemd-start-limit', balena, 'Start request repeated too quickly'),
      example('systemd-start-limit', balena, "Failed with result 'start-limit-hit'"),
      // systemd before v233 (RHEL 7 compute hosts).
      example('systemd-start-limit', 'https://github.com/coreos/bugs/issues/478', 'start request repeated too quickly for'),
    ];
    for (const l of lines) expect(read(l), l.text).toEqual(alone('systemd-start-limit', 'unknown', 'symptom'));
    // Not the unit's plain failure either: the result names the limit.
    expect(links(lines[1])).not.toContain('systemd-unit-failed-result');
    expect(catalogue.byId.get('systemd-start-limit')?.collect.join(' ')).toMatch(/journalctl -b -u <unit>/);
  });
});

describe('precedence', () => {
  it('a message that names its cause beats a symptom', () => {
    // etcdctl's unhealthy endpoint (a symptom) carries the lookup that failed (a cause).
    const etcd = corpusLine('installer-2873-etcd-names-no-dns', 'etcd-0.home');
    expect(links(etcd)).toContain('etcdctl-endpoint-unhealthy');
    expect(read(etcd)).toMatchObject({ error: 'go-no-such-host', category: 'dns' });
    // containers/image's failed source and manifest read (symptoms) carry the registry's answer.
    const pull = corpusLine('okd-2231-default-release-missing', 'manifest unknown');
    expect(links(pull)).toEqual(expect.arrayContaining(['containers-image-source-failed', 'containers-image-reading-manifest']));
    expect(read(pull)).toMatchObject({ error: 'registry-manifest-unknown', category: 'image-missing', role: 'cause' });
    // The installer's wait (a symptom) takes the category of the cause it quotes.
    expect(read(corpusLine('hetzner-ocp4-178-api-cert-expired', 'is after'))).toMatchObject({ role: 'symptom', category: 'certificate-expired' });
    // Of two links naming the same category, the one that says why: EC2's error code over the
    // SDK's generic answer printed after it.
    const ec2 = corpusLine('release-34246-aws-worker-capacity', 'InsufficientInstanceCapacity');
    expect(links(ec2)).toContain('aws-api-error');
    expect(read(ec2)).toMatchObject({ decisive: 'machine-api-create-failed', error: 'aws-ec2-insufficient-capacity', category: 'cloud-provider' });
  });

  it("in an error chain the decisive link wins, not the last: a mirror's answer over the source's failure after it", () => {
    const manifest = corpusLine('okd-1873-mirror-okd-content-missing', 'Mirrors also failed');
    expect(links(manifest)).toContain('go-tls-handshake-timeout');
    expect(manifest.text.trimEnd()).toMatch(/TLS handshake timeout"?$/);
    expect(read(manifest)).toMatchObject({ error: 'registry-manifest-unknown', category: 'image-missing' });
    const auth = example('registry-unauthorized', 'https://github.com/rgouveia-redhat/ocp-libvirt-upi/issues/2');
    expect(auth.text).toMatch(/connection refused$/);
    expect(links(auth)).toContain('go-connection-refused');
    expect(read(auth)).toMatchObject({ error: 'registry-unauthorized', category: 'registry-auth' });
  });

  it('in an error chain the last link is read by its own target: a proxy whose name no DNS server answered', () => {
    const proxyName = corpusLine('okd-380-missing-resolv-conf', 'proxyconnect tcp');
    expect(links(proxyName)).toContain('go-proxyconnect');
    expect(read(proxyName)).toMatchObject({ error: 'go-connection-refused', target: 'dns-server', category: 'dns' });
  });

  describe('the target of a failed connection decides its category', () => {
    // What failed, on what: the line is looked up in the test, so a case that changes fails its row.
    const rows: [string, () => RealLine, string, TargetKind, CategoryId][] = [
      ['the registry: registry-unreachable', () => corpusLine('hetzner-ocp4-35-quay-timeout', 'i/o timeout'), 'go-io-timeout', 'registry', 'registry-unreachable'],
      [
        'an ingress route: network-connectivity (the load balancer in front of the routers)',
        () => example('go-connection-refused', 'https://github.com/okd-project/okd/issues/759'),
        'go-connection-refused',
        'ingress',
        'network-connectivity',
      ],
      [
        "an api-int name no DNS server answered for: dns, not the machine-config server Ignition asked",
        () => corpusLine('helpernode-228-static-ip-no-dns', 'lookup api-int.'),
        'go-connection-refused',
        'dns-server',
        'dns',
      ],
      [
        '172.30.0.1:443, the API through the service network: network-plugin',
        () => corpusLine('okd-906-ovn-second-interface', 'dial tcp 172.30.0.1:443: i/o timeout'),
        'go-io-timeout',
        'service-network',
        'network-plugin',
      ],
      ['a proxy: proxy', () => example('go-proxyconnect', 'https://github.com/docker-archive-public/docker.kitematic/issues/3573'), 'go-connection-refused', 'proxy', 'proxy'],
      ['localhost: the local service is not up, not the network', () => example('go-connection-refused', 'https://github.com/okd-project/okd/issues/623'), 'go-connection-refused', 'local', 'unknown'],
      [
        "etcd's port: a refusal is a member that does not run, not the network",
        () => corpusLine('dev-scripts-631-master-resolv-dns', 'is unhealthy: failed to connect'),
        'go-connection-refused',
        'etcd',
        'etcd-health',
      ],
    ];
    it.each(rows)('%s', (_what, line, error, target, category) => {
      expect(read(line())).toMatchObject({ error, target, category });
    });

    it('an api-int name that does not resolve: dns, whatever it was looked up for', () => {
      expect(read(corpusLine('okd-1490-openstack-api-int-nxdomain', 'lookup api-int.'))).toEqual(alone('go-no-such-host', 'dns'));
    });
  });

  it('"not yet valid" with the clock behind is clock-skew; after its end it is an expired certificate', () => {
    const ignition = corpusLine('ocp4-upi-powervm-269-fsp-clock', 'is before');
    expect(read(ignition)).toEqual(alone('x509-not-yet-valid', 'clock-skew'));
    // Go words both "certificate has expired or is not yet valid": the times decide.
    expect(ignition.text).toMatch(/has expired or is not yet valid/);
    expect(links(ignition)).not.toContain('x509-expired');
    const expired = corpusLine('hetzner-ocp4-178-api-cert-expired', 'is after');
    expect(read(expired)).toMatchObject({ error: 'x509-expired', category: 'certificate-expired' });
  });
});
