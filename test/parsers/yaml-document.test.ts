import { describe, expect, it } from 'vitest';
import { parseYamlDocument, YamlError } from '../../src/parsers/yaml-document.js';

const TEXT = `id: x
lines:
  - 'a'
  - b
fix:
- c
- d: 1
  e: [1, 2]
refs: [x, y]
empty:
  -
  - z
`;

function error(text: string, limits?: Parameters<typeof parseYamlDocument>[2]): YamlError {
  try {
    parseYamlDocument(text, 'f.yaml', limits);
  } catch (e) {
    if (e instanceof YamlError) return e;
    throw e;
  }
  throw new Error('expected a YamlError');
}

describe('parseYamlDocument', () => {
  it('gives the line of keys, items and nested nodes', () => {
    const doc = parseYamlDocument(TEXT, 'f.yaml');
    expect(doc.value).toMatchObject({ id: 'x', lines: ['a', 'b'], refs: ['x', 'y'] });
    expect(doc.lineAt('')).toBe(1);
    expect(doc.lineAt('/id')).toBe(1);
    expect(doc.lineAt('/lines')).toBe(2);
    expect(doc.lineAt('/lines/1')).toBe(4);
    expect(doc.lineAt('/fix/1')).toBe(7);
    expect(doc.lineAt('/fix/1/e')).toBe(8);
    expect(doc.lineAt('/refs/1')).toBe(9);
    // An empty item leaves no node: only the sequence's line is known.
    expect(doc.lineAt('/empty/1')).toBe(10);
    // A key that is not there: the nearest line known.
    expect(doc.lineAt('/fix/1/nothing')).toBe(7);
  });

  it('reports invalid YAML at its line, without the excerpt', () => {
    const e = error('a: 1\nb: [x\n');
    expect(e.line).toBeGreaterThanOrEqual(2);
    expect(e.reason).not.toContain('\n');
  });

  it('refuses code-running tags, large files and alias bombs', () => {
    expect(error('a: !!js/function "function () {}"\n').reason).toMatch(/unknown tag/);
    expect(error('a: 1234567890\n', { maxBytes: 8, maxNodes: 100 }).reason).toBe('larger than 8 bytes');
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefg'[i]}`).join(', ')}]`)].join('\n');
    expect(error(bomb).reason).toMatch(/more than 100000 nodes once aliases are followed/);
  });
});
