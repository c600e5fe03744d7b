import { describe, expect, it } from 'vitest';
import { capturedValue, cutAtWord, lineFacts, MAX_CAPTURE } from '../../src/rules/line-facts.js';
import { compileMatcher } from '../../src/rules/matcher.js';

describe('cutAtWord', () => {
  it('leaves a value within the bound alone', () => {
    expect(cutAtWord('unauthorized: access to the requested resource is not authorized', 80)).toBe('unauthorized: access to the requested resource is not authorized');
  });

  it('ends a value that hits the bound at a word, with …', () => {
    const text = 'unauthorized: access to the requested resource is not authorized by the registry, please check the pull secret';
    const cut = cutAtWord(text, 81);
    expect(cut.length).toBeLessThanOrEqual(81);
    expect(cut).toBe('unauthorized: access to the requested resource is not authorized by the registry…');
    expect(cutAtWord(text, 80)).toBe('unauthorized: access to the requested resource is not authorized by the…');
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
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

describe('lineFacts', () => {
  const mismatch = compileMatcher({ regex: String.raw`content mismatch for file \\*"?(?<file>/[^"\\\s:]+)` });
  const line = 'E1122 11:02:51.138487    4606 writer.go:135] Marking Degraded due to: unexpected on-disk state validating against rendered-master-8bd6f27c: content mismatch for file "/etc/containers/registries.conf"';

  it("spans a form's match and its captures", () => {
    const f = lineFacts(line, mismatch);
    expect(f?.captures).toEqual({ file: '/etc/containers/registries.conf' });
    expect(line.slice(f?.span.start, f?.span.end)).toBe('content mismatch for file "/etc/containers/registries.conf');
    expect(lineFacts('nothing here', mismatch)).toBeUndefined();
  });

  it("spans the error, not the whole match, when the form names one, with the values it names", () => {
    const refused = compileMatcher({ regex: String.raw`docker://(?<image>[^\s:@]+)(?:[:@]\S*)?: (?:reading manifest \S+ in \S+: )?(?<err>unauthorized: [^\]]+)` });
    const pull = 'Error: initializing source docker://quay.io/ocp/release@sha256:4f3f: reading manifest sha256:4f3f in quay.io/ocp/release: unauthorized: access to the requested resource is not authorized';
    const f = lineFacts(pull, refused);
    expect(f?.captures).toEqual({ image: 'quay.io/ocp/release', err: 'unauthorized: access to the requested resource is not authorized' });
    expect(pull.slice(f?.span.start, f?.span.end)).toBe(pull.slice(pull.indexOf('quay.io/ocp/release@')));
    const bare = compileMatcher({ regex: String.raw`reading manifest \S+ in \S+: (?<err>unauthorized: [^\]]+)` });
    const g = lineFacts(pull, bare);
    expect(pull.slice(g?.span.start, g?.span.end)).toBe('unauthorized: access to the requested resource is not authorized');
  });

  it('a literal spans its occurrence', () => {
    const lit = compileMatcher({ contains: 'content mismatch' });
    const f = lineFacts(line, lit);
    expect(f).toEqual({ captures: {}, span: { start: line.indexOf('content mismatch'), end: line.indexOf('content mismatch') + 16 } });
  });
});
