/**
 * Statement boundaries for function_split: a Python body is cut only before a statement at the
 * body's indentation (never before its `else`/`except`), a brace body only where brackets are
 * balanced and the previous line does not continue an expression; Markdown sections end at the
 * next heading, headings inside code fences do not count.
 */
import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '../../src/chunks/chunker.js';
import { splitRange, statementBoundaries } from '../../src/chunks/split.js';

describe('statement boundaries', () => {
  it('Python: body-level statements only, not clauses of a compound statement', () => {
    const src = ['def f(x):', '    a = 1', '    if a:', '        b = 2', '    else:', '        b = 3', '    c = foo(', '        a,', '    )', '    return c'];
    expect(statementBoundaries(src, 1, src.length, true)).toEqual([3, 7, 10]);
  });

  it('brace languages: balanced brackets and no continued expression', () => {
    const src = ['function f() {', '  const a = g(', '    1,', '  );', '  const b = a +', '    2;', '  if (b) {', '    return "}";', '  }', '  return b;', '}'];
    expect(statementBoundaries(src, 1, src.length, false)).toEqual([2, 5, 7, 10]);
  });

  it('splitRange leaves short ranges whole and cuts long ones into contiguous pieces', () => {
    expect(splitRange(10, 40, [12, 20, 30])).toEqual([[10, 40]]);
    const bounds = Array.from({ length: 50 }, (_, i) => 3 + i * 3);
    const pieces = splitRange(1, 152, bounds);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces[0]![0]).toBe(1);
    expect(pieces.at(-1)![1]).toBe(152);
    for (let i = 1; i < pieces.length; i++) {
      expect(pieces[i]![0]).toBe(pieces[i - 1]![1] + 1);
      expect(bounds).toContain(pieces[i]![0]);
    }
  });
});

describe('Markdown doc chunks', () => {
  it('one chunk per heading section; fenced headings are text', () => {
    const text = ['Intro line', '', '# Title', 'para', '```sh', '# not a heading', '```', '', '## Sub', 'more', ''].join('\n');
    const chunks = chunkMarkdown({ file: 'docs/a.md', language: 'markdown', text, commitHash: '' });
    expect(chunks.map((c) => [c.symbol_name, c.start_line, c.end_line, c.chunk_kind])).toEqual([
      ['a.md', 1, 1, 'doc'],
      ['Title', 3, 7, 'doc'],
      ['Sub', 9, 10, 'doc'],
    ]);
  });
});
