// Reads a line with the catalogue: which program message it is, which library error it carries,
// and so which category it names — with the precedence a support engineer would sign:
// - a message that names its cause beats one that names only a symptom;
// - in an error chain the decisive link wins, not the last one: the link whose category names the
//   most specific cause (below), the innermost on a tie (Go wraps outer context around the cause);
// - inside podman's `(Mirrors also failed: [...]): <source>: <error>`, a mirror's own error is
//   decisive: with mirrors configured the source is expected to fail (disconnected installs);
// - the target of a failed connection decides its category (`targets.ts`);
// - a benign message is never a cause, whatever error words it holds.
import { matchWindow } from '../text/match-window.js';
import type { CategoryId } from '../taxonomy.js';
import { requiredLiterals } from '../text/regex-source.js';
import { targetAt } from './targets.js';
import type { Catalogue, CatalogueEntry, MessageForm, MessageRole, TargetKind } from './types.js';

/**
 * How much a category names a cause, for choosing among the links of one error chain. 3: the
 * message says what to fix (a refused secret, a name that does not resolve, a full disk); 2: what
 * failed, not why (a refused connection, an unhealthy etcd); 1: a component's state; 0: nothing.
 * Set by reading: a refused connection after `lookup ... no such host` is the lookup's failure.
 */
export const CAUSE_SPECIFICITY: Readonly<Record<CategoryId, number>> = {
  'registry-auth': 3,
  'image-missing': 3,
  'registry-tls': 3,
  dns: 3,
  'certificate-expired': 3,
  'clock-skew': 3,
  'resource-exhaustion': 3,
  proxy: 3,
  'install-config': 3,
  'cloud-provider': 3,
  'machine-config': 3,
  'network-connectivity': 2,
  'registry-unreachable': 2,
  'network-plugin': 2,
  ignition: 2,
  'container-runtime': 2,
  'csr-pending': 2,
  'etcd-health': 2,
  'operator-degraded': 1,
  unknown: 0,
};

/** Where a line was printed: the host's role and the unit or container name. */
export interface LineOrigin {
  host?: 'bootstrap' | 'master';
  source?: string;
}

/** One entry's match in a line. */
export interface Hit {
  entry: CatalogueEntry;
  form: MessageForm;
  /** UTF-16 offsets of the match in the line (end exclusive). */
  start: number;
  end: number;
  captures: Record<string, string>;
  /** The category this match names (a target's, for a connection error; `chain` reads as unknown). */
  category: CategoryId;
  target?: TargetKind;
}

/** What the catalogue makes of a line. */
export interface Reading {
  /** The program message the line is, when the catalogue knows its program's wording. */
  message?: Hit;
  /** The decisive library error the line carries (Go's net, x509, the registry's answer, errno). */
  error?: Hit;
  /** The entry that decides the reading: the message, else the error. */
  decisive: Hit;
  category: CategoryId;
  role: MessageRole;
}

const ROLE_ORDER: Readonly<Record<MessageRole, number>> = { cause: 3, symptom: 2, success: 1, benign: 0 };

function globToRegex(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

interface CompiledEntry {
  entry: CatalogueEntry;
  sources?: RegExp[];
}

/**
 * Which forms may match a text, from the literals each must contain, found in one pass over the
 * text's lower-cased trigrams: most lines a classifier is shown hold none of them, and the forms
 * are hundreds of regexes. A form with no literal to say is always a candidate.
 */
class FormIndex {
  private readonly byTrigram = new Map<string, { literal: string; form: number }[]>();
  private readonly always: number[] = [];

  constructor(literals: readonly (readonly string[])[]) {
    literals.forEach((lits, form) => {
      if (lits.length === 0) {
        this.always.push(form);
        return;
      }
      for (const l of lits) {
        const literal = l.toLowerCase();
        const key = literal.slice(0, 3);
        const list = this.byTrigram.get(key) ?? [];
        list.push({ literal, form });
        this.byTrigram.set(key, list);
      }
    });
  }

  /** The forms that may match `text` (a superset: case is ignored here, the regex decides). */
  candidates(text: string): Set<number> {
    const out = new Set<number>(this.always);
    const lower = text.toLowerCase();
    for (let i = 0; i + 3 <= lower.length; i++) {
      const list = this.byTrigram.get(lower.slice(i, i + 3));
      if (!list) continue;
      for (const { literal, form } of list) if (!out.has(form) && lower.startsWith(literal, i)) out.add(form);
    }
    return out;
  }
}

/** The spans inside `(Mirrors also failed: [ ... ])`, brackets balanced. */
function mirrorSpans(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const marker = 'Mirrors also failed: [';
  for (let i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) {
    let depth = 0;
    let j = i + marker.length - 1;
    for (; j < text.length; j++) {
      if (text[j] === '[') depth++;
      else if (text[j] === ']' && --depth === 0) break;
    }
    out.push({ start: i, end: j });
  }
  return out;
}

/** Classifies lines with one catalogue; built once per catalogue (`classifierOf`). */
export class Classifier {
  private readonly compiled: CompiledEntry[];
  /** Every form with the entry it belongs to, in catalogue order. */
  private readonly forms: { entry: number; form: MessageForm }[];
  private readonly index: FormIndex;

  constructor(readonly catalogue: Catalogue) {
    this.compiled = catalogue.entries.map((entry) => ({
      entry,
      ...(entry.on?.sources ? { sources: entry.on.sources.map(globToRegex) } : {}),
    }));
    this.forms = catalogue.entries.flatMap((entry, i) => entry.forms.map((form) => ({ entry: i, form })));
    this.index = new FormIndex(this.forms.map(({ form }) => requiredLiterals(form.regex.source)));
  }

  /** Every entry that matches the line (in catalogue order), its `when`, `unless` and `on` kept. */
  hits(whole: string, where?: LineOrigin): Hit[] {
    const text = matchWindow(whole);
    const candidates = this.index.candidates(text);
    if (candidates.size === 0) return [];
    const out: Hit[] = [];
    let last = -1;
    for (const f of [...candidates].sort((a, b) => a - b)) {
      const { entry: ei, form } = this.forms[f];
      // One hit per entry: its first form that matches.
      if (ei === last) continue;
      const c = this.compiled[ei];
      const e = c.entry;
      if (e.on && !appliesAt(e, c.sources, where)) continue;
      {
        const m = form.regex.exec(text);
        if (!m) continue;
        last = ei;
        if (e.when && !e.when.test(text)) continue;
        if (e.unless && e.unless.test(text)) continue;
        const captures: Record<string, string> = {};
        for (const [k, v] of Object.entries(m.groups ?? {})) if (v !== undefined) captures[k] = v;
        const hit: Hit = { entry: e, form, start: m.index, end: m.index + m[0].length, captures, category: 'unknown' };
        resolveCategory(hit, text);
        out.push(hit);
      }
    }
    return out;
  }

  /** The reading of a line, or undefined when no entry matches it. */
  classify(whole: string, where?: LineOrigin): Reading | undefined {
    const hits = this.hits(whole, where);
    if (hits.length === 0) return undefined;
    const text = matchWindow(whole);
    // A program's message has a stage; a benign or success message is one whatever its program.
    const isMessage = (h: Hit): boolean => h.entry.stage !== undefined || h.entry.role === 'benign' || h.entry.role === 'success';
    const message = decisiveMessage(hits.filter(isMessage));
    const error = decisiveError(hits.filter((h) => !isMessage(h)), text);
    const decisive = message ?? (error as Hit);
    let category: CategoryId;
    if (message && (message.entry.role === 'benign' || message.entry.role === 'success')) category = 'unknown';
    else {
      // The most specific cause the line names: the program's own words, or the error its chain
      // carries; on a tie the error, the link nearer the root (a wait for etcd that fails on a
      // name that does not resolve is the name's failure).
      const own = message && message.entry.category !== 'chain' ? message.category : undefined;
      const carried = error?.category;
      category = own === undefined ? (carried ?? 'unknown') : carried === undefined || CAUSE_SPECIFICITY[own] > CAUSE_SPECIFICITY[carried] ? own : carried;
    }
    return { ...(message ? { message } : {}), ...(error ? { error } : {}), decisive, category, role: decisive.entry.role };
  }

  /** The category a line names, or `unknown`. */
  categoryOf(text: string, where?: LineOrigin): CategoryId {
    const r = this.classify(text, where);
    return r && (r.role === 'cause' || r.role === 'symptom') ? r.category : 'unknown';
  }
}

function appliesAt(e: CatalogueEntry, sources: RegExp[] | undefined, where: LineOrigin | undefined): boolean {
  if (!where) return false;
  if (e.on?.host && where.host !== e.on.host) return false;
  if (sources && !(where.source !== undefined && sources.some((re) => re.test(where.source as string)))) return false;
  return true;
}

function resolveCategory(hit: Hit, text: string): void {
  const spec = hit.entry.category;
  if (typeof spec === 'string') {
    hit.category = spec === 'chain' ? 'unknown' : spec;
    return;
  }
  const target = targetAt(text, hit.start);
  hit.target = target;
  hit.category = spec.byTarget[target] ?? spec.byTarget.default;
}

/**
 * Among program messages: a benign one, else a success, else a cause before a symptom; among
 * those the inner one (a message quoted inside another, like an operator's words inside the
 * installer's report of its condition, starts later), then the most specific, then the longest.
 */
function decisiveMessage(hits: Hit[]): Hit | undefined {
  if (hits.length === 0) return undefined;
  const benign = hits.find((h) => h.entry.role === 'benign') ?? hits.find((h) => h.entry.role === 'success');
  if (benign) return benign;
  return hits.reduce((best, h) => {
    const d =
      ROLE_ORDER[h.entry.role] - ROLE_ORDER[best.entry.role] ||
      h.start - best.start ||
      CAUSE_SPECIFICITY[h.category] - CAUSE_SPECIFICITY[best.category] ||
      h.end - h.start - (best.end - best.start);
    return d > 0 ? h : best;
  });
}

/** Among library errors: mirrors' own errors first, then the most specific cause, then the innermost. */
function decisiveError(hits: Hit[], text: string): Hit | undefined {
  let candidates = hits.filter((h) => h.entry.role === 'cause' || h.entry.role === 'symptom');
  if (candidates.length === 0) return undefined;
  const mirrors = text.includes('Mirrors also failed: [') ? mirrorSpans(text) : [];
  if (mirrors.length > 0) {
    const inside = (h: Hit): boolean => mirrors.some((m) => h.start > m.start && h.start < m.end);
    if (candidates.some((h) => inside(h) && CAUSE_SPECIFICITY[h.category] >= 2)) {
      const lastMirrorEnd = Math.max(...mirrors.map((m) => m.end));
      candidates = candidates.filter((h) => inside(h) || h.start < lastMirrorEnd);
    }
  }
  return candidates.reduce((best, h) => {
    const d = CAUSE_SPECIFICITY[h.category] - CAUSE_SPECIFICITY[best.category] || ROLE_ORDER[h.entry.role] - ROLE_ORDER[best.entry.role] || h.start - best.start;
    return d > 0 ? h : best;
  });
}

const classifiers = new WeakMap<Catalogue, Classifier>();

/** The classifier of a catalogue, built once. */
export function classifierOf(catalogue: Catalogue): Classifier {
  let c = classifiers.get(catalogue);
  if (!c) {
    c = new Classifier(catalogue);
    classifiers.set(catalogue, c);
  }
  return c;
}
