// A small strict XML parser for tests: throws on anything not well-formed (raw `<` or `&`, bad entities, unbalanced tags, control characters).

/** A parsed element: name, attributes (entities decoded), children and text (CDATA included). */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

function decode(text: string, where: number): string {
  if (text.includes('<')) throw new Error(`raw '<' at ${where}`);
  return text.replace(/&([^;]*);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare '&' at ${where}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ref in named) return named[ref];
    const num = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(ref);
    if (!num) throw new Error(`unknown entity &${ref}; at ${where}`);
    return String.fromCodePoint(num[1].startsWith('x') ? parseInt(num[1].slice(1), 16) : parseInt(num[1], 10));
  });
}

/** Parses a whole document and returns its root element. */
export function parseXml(xml: string): XmlElement {
  const bad = INVALID.exec(xml);
  if (bad) throw new Error(`invalid character U+${bad[0].charCodeAt(0).toString(16)} at ${bad.index}`);
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (stack.length > 0) stack[stack.length - 1].text += decode(text, i);
    else if (text.trim()) throw new Error(`text outside the root at ${i}`);
    if (lt < 0) break;
    i = lt;
    if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i);
      if (end < 0 || stack.length === 0) throw new Error(`bad CDATA at ${i}`);
      stack[stack.length - 1].text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('</', i)) {
      const m = NAME.exec(xml.slice(i + 2));
      const open = stack.pop();
      if (!m || !open || open.name !== m[0] || xml[i + 2 + m[0].length] !== '>') throw new Error(`mismatched end tag at ${i}`);
      i += 3 + m[0].length;
    } else {
      const m = NAME.exec(xml.slice(i + 1));
      if (!m) throw new Error(`bad tag at ${i}`);
      const el: XmlElement = { name: m[0], attrs: {}, children: [], text: '' };
      i += 1 + m[0].length;
      for (;;) {
        const ws = /^\s*/.exec(xml.slice(i))?.[0].length ?? 0;
        i += ws;
        if (xml.startsWith('/>', i) || xml[i] === '>') break;
        if (ws === 0) throw new Error(`attribute without space at ${i}`);
        const a = /^([A-Za-z_][\w.:-]*)="([^"]*)"/.exec(xml.slice(i));
        if (!a) throw new Error(`bad attribute at ${i}`);
        if (a[1] in el.attrs) throw new Error(`duplicate attribute ${a[1]} at ${i}`);
        el.attrs[a[1]] = decode(a[2], i);
        i += a[0].length;
      }
      if (stack.length > 0) stack[stack.length - 1].children.push(el);
      else if (root) throw new Error(`second root at ${i}`);
      else root = el;
      if (xml.startsWith('/>', i)) i += 2;
      else {
        stack.push(el);
        i += 1;
      }
    }
  }
  if (stack.length > 0 || !root) throw new Error('unclosed elements');
  return root;
}

/** Every element named `name` under `el`, depth first. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => findAll(c, name))];
}
