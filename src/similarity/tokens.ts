// The words of templates that similarity compares, and how much a template reads like a failure
// (the words and levels are the parsers': parsers/line-level.ts).
import { FAILURE_WORDS, RETRY_WORDS } from '../parsers/line-level.js';
import type { LineLevel } from './line-template.js';

/**
 * Case-sensitive substrings, at least one of which is in every line whose template can read
 * like a failure (`FAILURE_WORDS`, `RETRY_WORDS`, error levels spelled out): the reader finds
 * them in its one scan, so the miner sees error-like lines only. Each is five bytes or more,
 * which keeps that scan's skips long. A superset: lines holding one need not be errors.
 */
export const ERROR_LITERALS: readonly string[] = [
  ...variants('error', 'fail ', 'failed', 'failure', 'failing', 'fails', 'fatal', 'critical', 'crit"', 'panic', 'refused', 'timeout', 'timed out', 'exceeded', 'denied', 'unauthori'),
  ...variants('forbidden', 'unable', 'cannot', "can't", 'could not', "couldn't", 'invalid', 'unreachable', 'killed'),
  ...variants('degraded', 'mismatch', 'expired', 'crashloop', 'back-off', 'backoff', 'rejected', 'unhealthy', 'not ready'),
  ...variants('missing', 'broken', 'abort', 'corrupt', 'misbehaving', 'too long', 'retry', 'retries', 'trying again'),
  ...variants('try again', 'still waiting', 'giving up', 'gave up', 'attempt', 'time out', 'not found', 'no space'),
  ...variants('no such host', 'no route', 'unknown authority', 'out of memory', 'not yet valid', 'reset by peer', 'slow '),
  'x509:', 'x509 ', 'X509:', 'X509 ', 'oom-kill', 'oom_kill', 'OOMKill', 'CrashLoop', 'BackOff', 'NotReady', 'err="', 'err=\'', 'level=crit',
];

/** A word as written in lower case, capitalised and in capitals. */
function variants(...words: string[]): string[] {
  return words.flatMap((w) => [w, w[0].toUpperCase() + w.slice(1), w.toUpperCase()]);
}

/** Whether a template reads like a failure (its words or its stated level), 0..1. */
export function errorWeight(template: string, level: LineLevel | undefined): number {
  const words = FAILURE_WORDS.test(template);
  if (level === 'error') return 1;
  if (level === 'warning') return words ? 0.8 : 0.4;
  if (words) return level === 'info' ? 0.5 : 0.75;
  if (RETRY_WORDS.test(template)) return 0.55;
  return 0;
}

/** Tokens too common in log text to tell issues apart. */
const STOP = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'has', 'have', 'in', 'into', 'is', 'it', 'its', 'of', 'on',
  'or', 'that', 'the', 'this', 'to', 'was', 'were', 'with', 'msg', 'level', 'ts', 'caller', 'time', 'info', 'go', 'sh',
]);

const PLACEHOLDER_RE = /<[A-Z*]+>/g;
const WORD_RE = /[a-z][a-z0-9]*(?:['’][a-z]+)?/g;

/**
 * The words of a template for similarity: lower-case, placeholders and numbers dropped,
 * punctuation (JSON, logfmt, quotes) ignored, stop words removed.
 */
export function wordsOf(template: string): string[] {
  const text = template.replace(PLACEHOLDER_RE, ' ').toLowerCase();
  const out: string[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const w = m[0];
    if (w.length < 2 || STOP.has(w)) continue;
    out.push(w);
  }
  return out;
}

/** Plain text of a template for a sentence-embedding model: its words, in order. */
export function embeddingText(template: string): string {
  return wordsOf(template).join(' ');
}
