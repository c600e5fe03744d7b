import { describe, expect, it } from 'vitest';
import { lineParts } from '../../src/rules/evidence.js';
import { capturedValue, lineFacts, MAX_CAPTURE } from '../../src/rules/line-facts.js';
import { cutAtWord } from '../../src/text/cut.js';
import { compileMatcher } from '../../src/rules/matcher.js';

describe('cutAtWord', () => {
  it('leaves a value within the bound alone', () => {
    expect(cutAtWord('unauthorized: access to the requested resource is not authorized', 80)).toBe('unauthorized: access to the requested resource is not authorized');
  });

  it('ends a value that hits the bound at a word, with …', () => {
    const text = 'unauthorized: access to the requested resource is not authorized by the registry, please check the pull secret';
    const cut = cutAtWord(text, 82);
    expect(cut.length).toBeLessThanOrEqual(82);
    expect(cut).toBe('unauthorized: access to the requested resource is not authorized by the registry,…');
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
    // One character less and "registry," would be cut: the cut goes back to the space before it.
    expect(cutAtWord(text, 81)).toBe('unauthorized: access to the requested resource is not authorized by the…');
    // Without a space in the second half, where a word meets punctuation (a path, an address).
    expect(cutAtWord('dial tcp 172.30.120.55:443: i/o timeout', 20)).toBe('dial tcp 172.30.120…');
    expect(cutAtWord('/etc/kubernetes/manifests/kube-apiserver-pod.yaml', 30)).toBe('/etc/kubernetes/manifests/…');
  });

  it('cuts a token longer than half the bound where it must, never inside a surrogate pair', () => {
    expect(cutAtWord('x'.repeat(100), 20)).toBe(`${'x'.repeat(19)}…`);
    const emoji = `${'a'.repeat(18)}😀😀😀`;
    const cut = cutAtWord(emoji, 20);
    expect(cut).toBe(`${'a'.repeat(18)}…`);
  });
});

describe('capturedValue', () => {
  // The installer's log as logrus writes it: the operator's message is a Go-quoted value.
  const logfmt = String.raw`time="2026-11-22T12:01:10Z" level=error msg="Cluster operator authentication Degraded is True with OAuthServerRouteEndpointAccessibleController_SyncError: OAuthServerRouteEndpointAccessibleControllerDegraded: Get \"https://oauth-openshift.apps.ocp4.example.com/healthz\": EOF" component=x`;

  it('reads a value inside a quoted string unescaped, up to its closing quote', () => {
    const start = logfmt.indexOf('OAuthServerRouteEndpointAccessibleControllerDegraded');
    const v = capturedValue(logfmt, start, logfmt.length);
    expect(v.value).toBe('OAuthServerRouteEndpointAccessibleControllerDegraded: Get "https://oauth-openshift.apps.ocp4.example.com/healthz": EOF');
    expect(logfmt.slice(v.end)).toBe('" component=x');
  });

  it('reads a value quoted inside a quoted value (a %q error in a klog err) to its own closing quote', () => {
    // CRI-O's refusal as the kubelet logs it: klog quotes err, and err quotes the runtime's error.
    const kubelet = String.raw`Nov 22 10:40:02 master-0.ocp4.example.com kubenswrapper[2519]: E1122 10:40:02.118101    2519 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"etcd\" with ErrImagePull: \"rpc error: code = Unknown desc = reading manifest sha256:0f4c in quay.io/openshift-release-dev/ocp-v4.0-art-dev: unauthorized: access to the requested resource is not authorized\"" pod="openshift-etcd/etcd-master-0"`;
    const err = compileMatcher({ regex: String.raw`(?<err>unauthorized: .*)` });
    const f = lineFacts(kubelet, err);
    expect(f?.captures.err).toBe('unauthorized: access to the requested resource is not authorized');
    expect(kubelet.slice(f?.point.start, f?.point.end)).toBe('unauthorized: access to the requested resource is not authorized');
  });

  it('keeps a value outside quotes as written', () => {
    const console = 'ERROR Cluster operator authentication Degraded is True with X: Get "https://oauth/healthz": EOF';
    const start = console.indexOf('Get');
    expect(capturedValue(console, start, console.length)).toEqual({ value: 'Get "https://oauth/healthz": EOF', end: console.length });
  });

  it('reads line breaks as spaces and bounds a long value at a word', () => {
    const long = `msg="${'word '.repeat(100)}end\\nnext"`;
    const v = capturedValue(long, 5, long.length);
    expect(v.value.length).toBeLessThanOrEqual(MAX_CAPTURE);
    expect(v.value).toMatch(/^word word .* word…$/);
    expect(capturedValue('msg="a\\nb"', 5, 9).value).toBe('a b');
  });
});

describe('lineFacts and lineParts', () => {
  const mismatch = compileMatcher({ regex: String.raw`content mismatch for file \\*"?(?<file>/[^"\\\s:]+)` });
  const config = compileMatcher({ regex: String.raw`unexpected on-disk state validating against (?<config>rendered-[\w-]+)` });
  const line = 'E1122 11:02:51.138487    4606 writer.go:135] Marking Degraded due to: unexpected on-disk state validating against rendered-master-8bd6f27c: content mismatch for file "/etc/containers/registries.conf"';
  const slice = (s: { start: number; end: number } | undefined): string => line.slice(s?.start, s?.end);

  it("a form's point is its whole match without an error, and its values lie where they are", () => {
    const f = lineFacts(line, mismatch);
    expect(f?.captures).toEqual({ file: '/etc/containers/registries.conf' });
    expect(slice(f?.point)).toBe('content mismatch for file "/etc/containers/registries.conf');
    expect(f?.values.map(slice)).toEqual(['/etc/containers/registries.conf']);
    expect(lineFacts('nothing here', mismatch)).toBeUndefined();
  });

  it('the point of a line is the first matching form, and every form that matches adds its values', () => {
    const parts = lineParts(line, [config, mismatch]);
    expect(slice(parts?.match)).toBe('unexpected on-disk state validating against rendered-master-8bd6f27c');
    expect(parts?.facts?.map(slice)).toEqual(['/etc/containers/registries.conf']);
    // A value inside the point is no extra fact.
    expect(lineParts(line, [config])).toEqual({ match: lineFacts(line, config)?.point });
  });

  it("a form's point is its error when it names one, its values (the image) facts beside it", () => {
    const refused = compileMatcher({ regex: String.raw`docker://(?<image>[^\s:@]+)(?:[:@]\S*)?: (?:reading manifest \S+ in \S+: )?(?<err>unauthorized: [^\]]+)` });
    const pull = 'Error: initializing source docker://quay.io/ocp/release@sha256:4f3f: reading manifest sha256:4f3f in quay.io/ocp/release: unauthorized: access to the requested resource is not authorized';
    const f = lineFacts(pull, refused);
    expect(f?.captures).toEqual({ image: 'quay.io/ocp/release', err: 'unauthorized: access to the requested resource is not authorized' });
    const parts = lineParts(pull, [refused]);
    expect(pull.slice(parts?.match.start, parts?.match.end)).toBe('unauthorized: access to the requested resource is not authorized');
    expect(parts?.facts?.map((s) => pull.slice(s.start, s.end))).toEqual(['quay.io/ocp/release']);
  });

  it("ends a point inside a quoted value at the value's closing quote", () => {
    const degraded = compileMatcher({ regex: String.raw`Cluster operator (?<operator>[\w-]+) Degraded is True with (?<reason>\S+): (?<detail>.*)` });
    const logfmt = String.raw`time="2026-11-22T12:01:10Z" level=error msg="Cluster operator dns Degraded is True with DNSDegraded: Get \"https://x\": EOF"`;
    const f = lineFacts(logfmt, degraded);
    expect(logfmt.slice(f?.point.start, f?.point.end)).toBe(String.raw`Cluster operator dns Degraded is True with DNSDegraded: Get \"https://x\": EOF`);
    expect(f?.captures.detail).toBe('Get "https://x": EOF');
  });

  it('a literal spans its occurrence', () => {
    const lit = compileMatcher({ contains: 'content mismatch' });
    const at = line.indexOf('content mismatch');
    expect(lineFacts(line, lit)).toEqual({ captures: {}, point: { start: at, end: at + 16 }, values: [] });
  });
});
