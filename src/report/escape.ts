// Escaping for every report format: bundle text is hostile until escaped for the terminal, HTML, JSON data islands, Markdown and XML.
import { cutAtWord } from '../text/cut.js';
import { nameTable } from '../util/name-table.js';

/** ANSI CSI / OSC / two-byte escape sequences, as a terminal log line may carry them. */
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
/** C0 and C1 controls except tab and newline. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/**
 * Bidirectional overrides, embeddings, isolates and marks: a host name holding U+202E shows its
 * text reversed, in a ticket as on a terminal (the "Trojan Source" reordering).
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The visible stand-in of a bidirectional control: `<U+202E>`. */
function visibleBidi(c: string): string {
  return `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Text fit for display: ANSI escape sequences removed, other control characters (NUL, bell,
 * a bare ESC, carriage return...) shown as a space, bidirectional controls shown as `<U+202E>`,
 * so no format can be steered or reordered by them. Tab and newline stay.
 */
export function cleanText(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(CONTROL, ' ').replace(BIDI, visibleBidi);
}

// Terminal

/** Colour and style sequences (SGR): cosmetic in a log line, and able to hide text (conceal, black on black). */
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;:]*m/g;
/** Whitespace controls: a line break or tab inside one field becomes a space. */
// eslint-disable-next-line no-control-regex
const TERM_SPACE = /[\t\n\r\u000b\u000c]/g;
/** Characters a terminal acts on (C0, DEL, C1) and bidirectional overrides that reorder what is shown. */
// eslint-disable-next-line no-control-regex
const TERM_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The visible stand-in of one control character: its Unicode control picture (␛, ␇, ␀), or `<U+XXXX>`. */
function visibleControl(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Bundle text fit for a terminal, as one line: colour sequences dropped, line breaks and tabs
 * as spaces, every other control character shown visibly (ESC as ␛, BEL as ␇), so no host,
 * file or container name can move the cursor, retitle the window or hide what follows. The one
 * escaping layer of every text renderer and the progress line.
 */
export function termText(text: string): string {
  return text.replace(SGR, '').replace(TERM_SPACE, ' ').replace(TERM_UNSAFE, visibleControl);
}

/** One line: cleaned, line breaks and tabs as single spaces, trimmed; at most `max` characters, cut at a word with …. */
export function flatText(text: string | undefined, max = 4000): string {
  if (!text) return '';
  return cutAtWord(oneLineSpaces(cleanText(text)).trim(), max);
}

/**
 * Every run of whitespace that holds a line break or a tab, as one space. Split at the breaks,
 * not a regex: `\s*[\n\t]\s*` rescanned a long run of spaces from every place in it (1.3 s on
 * 64 KiB of spaces).
 */
function oneLineSpaces(text: string): string {
  if (!text.includes('\n') && !text.includes('\t')) return text;
  const parts = text.split(/[\n\t]/);
  let out = parts[0].trimEnd();
  for (let i = 1; i < parts.length; i++) {
    const last = i === parts.length - 1;
    const part = last ? parts[i].trimStart() : parts[i].trim();
    // A part that was only whitespace between two breaks belongs to the one run.
    if (part === '' && !last) continue;
    out += ` ${part}`;
  }
  return out;
}

// HTML

/** Markup that is already safe: made only by `html` or `SafeHtml.trusted` for constant text. */
export class SafeHtml {
  private constructor(readonly value: string) {}

  /** Wraps markup the caller vouches for (constants of this code, never bundle text). */
  static trusted(markup: string): SafeHtml {
    return new SafeHtml(markup);
  }

  toString(): string {
    return this.value;
  }
}

/** What may be interpolated into `html`: text (escaped), safe markup, or lists of either. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const HTML_ENTITIES = nameTable<string>({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' });

/** Text escaped for HTML content and quoted attribute values; control characters cleaned. */
export function escapeHtml(text: string): string {
  return cleanText(text).replace(/[&<>"'`]/g, (c) => HTML_ENTITIES[c] ?? c);
}

function htmlValue(v: HtmlValue): string {
  if (v instanceof SafeHtml) return v.value;
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map((x: HtmlValue) => htmlValue(x)).join('');
  return escapeHtml(String(v));
}

/**
 * The only way markup is built: every interpolation is escaped unless it is a `SafeHtml`
 * (itself made by this tag); `null`, `undefined` and `false` render nothing, arrays are joined.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += htmlValue(values[i]) + strings[i + 1];
  return SafeHtml.trusted(out);
}

/** Joins pieces of markup with a separator (itself constant markup). */
export function joinHtml(parts: readonly SafeHtml[], separator = ''): SafeHtml {
  return SafeHtml.trusted(parts.map((p) => p.value).join(separator));
}

/**
 * JSON for a `<script type="application/json">` data island: `<`, `>` and `&` written as
 * `\u003c`... so no `</script>` or `<!--` can end the element, and U+2028/2029 escaped for
 * older JavaScript parsers. `JSON.parse` of the element's text gives the value back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A data island element holding `value`, read back with `JSON.parse(element.textContent)`. */
export function jsonIsland(id: string, value: unknown, className?: string): SafeHtml {
  return html`<script type="application/json" id="${id}"${className ? html` class="${className}"` : ''}>${SafeHtml.trusted(jsonForScript(value))}</script>`;
}

/** An `http(s)` URL fit for an `href`, or undefined (no `javascript:`, `data:`, relative...). */
export function safeUrl(text: string): string | undefined {
  const t = text.trim();
  if (!/^https?:\/\/[^\s<>"'`]+$/i.test(t)) return undefined;
  try {
    const u = new URL(t);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

// Markdown (CommonMark / GitHub Flavored Markdown)

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** `text` without the line breaks it ends in; a loop, as `/\n+$/` tried every run of them from each of its places. */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * A fenced code block holding `content` verbatim: the fence is one backtick longer than the
 * longest backtick run in the content (at least three), so no line of it can close the block.
 */
export function mdFence(content: string, info = 'text'): string {
  const body = withoutTrailingNewlines(cleanText(content));
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${fence}${info.replace(/[`\s]/g, '')}\n${body}\n${fence}`;
}

/** An inline code span of one line, its delimiters longer than any backtick run inside. */
export function mdCode(text: string): string {
  const t = cleanText(text).replace(/[\n\t]/g, ' ');
  if (!t.trim()) return '';
  const delim = '`'.repeat(longestRun(t, '`') + 1);
  // CommonMark strips one space each side when both are there: a span that starts or ends
  // with a backtick, or with spaces on both sides, gets one more space each side.
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ')) ? ' ' : '';
  return `${delim}${pad}${t}${pad}${delim}`;
}

function mdInline(text: string): string {
  return (
    text
      .replace(/[\\`*_[\]<>|~&$]/g, '\\$&')
      // A mention or a team ping on GitHub: `@name` after a non-word character.
      .replace(/(^|[^\w])@/g, '$1\\@')
  );
}

/** `# `, `> `, `- `, `+ `, `= `, `1. ` or `1) ` at the start of a line would open a block. */
function mdBlockSafe(line: string): string {
  return line.replace(/^([#>\-+=])/, '\\$1').replace(/^(\d+)([.)])/, '$1\\$2');
}

/**
 * Bundle text as one line of Markdown that renders as the same text: every character that
 * could start markup (emphasis, links, HTML, entities, tables, math, mentions) is
 * backslash-escaped, and a block marker at the start is escaped too.
 */
export function mdText(text: string | undefined, max = 4000): string {
  return mdBlockSafe(mdInline(flatText(text, max)));
}

/** A GitHub table cell: one line, `|` and every markup character escaped (a cell opens no block). */
export function mdCell(text: string | undefined, max = 300): string {
  return mdInline(flatText(text, max)) || ' ';
}

/**
 * Rule-authored text whose `code` spans should stay code (fix steps quote commands) while the
 * rest, which may hold values captured from logs, is escaped: spans re-delimited with
 * `mdCode`, everything else escaped as in `mdText`.
 */
export function mdRich(text: string | undefined, max = 4000): string {
  return mdBlockSafe(
    splitCode(flatText(text, max))
      .map((p) => (p.code ? mdCode(p.text) : mdInline(p.text)))
      .join(''),
  );
}

/**
 * Text cut into plain and `code` parts by pairs of lone backticks. A backtick next to another
 * (a run such as a log's fence) never pairs, so log text cannot open or shift a span; an
 * unpaired backtick stays text.
 */
export function splitCode(text: string): { text: string; code: boolean }[] {
  const parts: { text: string; code: boolean }[] = [];
  const re = /(?<!`)`([^`]+)`(?!`)/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), code: false });
    parts.push({ text: m[1], code: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), code: false });
  return parts;
}

// XML (JUnit)

/** Characters XML 1.0 forbids (controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text with ANSI sequences removed, characters XML cannot hold dropped, bidirectional controls shown as `<U+202E>`. */
export function xmlClean(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(XML_INVALID, '').replace(BIDI, visibleBidi);
}

/** Text escaped for XML content or a double-quoted attribute (line breaks kept as `&#10;`). */
export function escapeXml(text: string): string {
  return xmlClean(text).replace(/[&<>"'\n\r\t]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : c === "'" ? '&apos;' : `&#${c.charCodeAt(0)};`,
  );
}

/** A CDATA section holding `text`; every `]]>` inside is split across two sections. */
export function cdata(text: string): string {
  return `<![CDATA[${xmlClean(text).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
