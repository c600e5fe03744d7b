// A line's level and error-likeness, decided once: every spelling of a level is one level, the
// parsers put it on the lines they read, and the rules, the miner and diff ask the same module.
import { describe, expect, it } from 'vitest';
import { FAILURE_WORDS, isErrorLike, levelOfWord, statedLevel } from '../../src/parsers/line-level.js';
import { parseLogLine } from '../../src/parsers/log-line.js';
import { parseJournalLine } from '../../src/parsers/journal-text.js';
import { lineTemplate } from '../../src/similarity/line-template.js';
import { isErrorLike as ruleErrorLike } from '../../src/rules/error-like.js';
import { classifierOf } from '../../src/catalogue/classify.js';
import { catalogueFile, catalogueOf } from '../support/rule-catalogue.js';

describe('levels', () => {
  it('reads every spelling of a level as one level', () => {
    const cases: [string, string | undefined][] = [
      ['E', 'error'], ['err', 'error'], ['ERROR', 'error'], ['F', 'fatal'], ['panic', 'fatal'], ['crit', 'fatal'], ['emerg', 'fatal'],
      ['W', 'warning'], ['warn', 'warning'], ['I', 'info'], ['notice', 'info'], ['trace', 'debug'], ['D', 'debug'], ['verbose', undefined],
    ];
    for (const [word, level] of cases) expect(levelOfWord(word), word).toBe(level);
  });

  it('is the same level whichever parser reads the line', () => {
    const lines: [string, string][] = [
      ['E1122 10:15:20.001122    2519 kubelet.go:96] "Error syncing pod"', 'error'],
      ['time="2026-11-22T10:20:01Z" level=fatal msg="validating config"', 'fatal'],
      ['{"level":"warn","ts":"2026-11-22T10:15:40.100Z","msg":"slow fdatasync"}', 'warning'],
    ];
    for (const [raw, level] of lines) {
      expect(parseLogLine(raw, 1, undefined).level, raw).toBe(level);
      expect(statedLevel(raw), raw).toBe(level);
      // The miner ranks fatal as error; the level it ranks by is the parsers' one.
      expect(lineTemplate(raw).level, raw).toBe(level === 'fatal' ? 'error' : level);
    }
    // A journal line's message states the level of the program that wrote it.
    const journal = parseJournalLine('Nov 22 10:15:20 m0 kubenswrapper[2519]: E1122 10:15:20.001122    2519 kubelet.go:96] "Error syncing pod"', 1, undefined);
    expect(statedLevel(journal?.text ?? '')).toBe('error');
  });
});

describe('isErrorLike', () => {
  it('an error or fatal level decides; words decide a line that states no level', () => {
    expect(isErrorLike('level=error msg="all went well"')).toBe(true);
    expect(isErrorLike('W1122 10:15:20.001122 1 a.go:1] nothing here')).toBe(false);
    expect(isErrorLike('mkdir /var/lib/x: no space left on device')).toBe(true);
    expect(isErrorLike('Waiting for etcd cluster...')).toBe(false);
  });

  it('a quiet line is an error only when it says so and names a known failure', () => {
    const line = 'level=info msg="pull failed: unauthorized"';
    expect(isErrorLike(line)).toBe(false);
    expect(isErrorLike(line, (t) => t.includes('unauthorized'))).toBe(true);
    expect(isErrorLike('level=info msg="unauthorized"', () => true)).toBe(false);
  });

  it('for rules, a line the message catalogue reads as a failure counts as one', () => {
    const catalogue = catalogueOf(
      catalogueFile(`  - id: pull-unauthorized-test
    title: The registry refuses the pull secret
    role: cause
    form: 'reading manifest \\S+ in \\S+: unauthorized'
    origin: docker/docker_image_src.go
    stage: release-image
    category: registry-auth
    severity: critical
    fix:
      - Check the pull secret.
    says: 'The registry refuses the pull secret'
    examples:
      - line: 'reading manifest sha256:1111 in quay.io/openshift-release-dev/ocp-release: unauthorized: access to the requested resource is not authorized'
`),
    );
    const classifier = classifierOf(catalogue);
    const read = (text: string) => classifier.classify(text, { host: 'bootstrap', source: 'release-image' });
    const quiet = 'level=info msg="Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:1111: reading manifest sha256:1111 in quay.io/openshift-release-dev/ocp-release: unauthorized: access to the requested resource is not authorized"';
    expect(isErrorLike(quiet)).toBe(false);
    expect(ruleErrorLike(quiet, read)).toBe(true);
    expect(ruleErrorLike('level=info msg="Error: pulled the release image"', read)).toBe(false);
  });

  it('ranking reads failure symptoms that are no error', () => {
    expect(FAILURE_WORDS.test('etcd disk is slow')).toBe(true);
    expect(isErrorLike('etcd disk is slow')).toBe(false);
  });
});
